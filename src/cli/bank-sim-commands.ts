/**
 * `bank-sim fault` (docs/OPERATIONS.md#rehearse-a-psp-outage): an outage of a
 * test-mode PSP, switched on and off at its bank simulator, so an operator
 * can watch the failover, the breaker and the alert before a real PSP fails.
 * It reaches only the sandbox simulator the configuration names for that PSP
 * (its SANDBOX_<PSP>_URL: SANDBOX_SEP_URL, SANDBOX_MELLAT_URL, …), through its admin endpoint
 * (src/bank-sim/admin.ts), and refuses an address that is a live PSP's.
 * A switch stays on until `--fault clear`.
 */
import { pspUrlSetting, type Config } from '../config.ts';
import { pspSettings, type PspSettingKey } from '../psps/profiles.ts';
import { PSP_NAMES, type PspName } from '../psps/psp-client.ts';
import { required, UsageError, type Command, type Flags } from './onboarding-commands.ts';

/** The operations as operators name them, and the simulator's name of each (verify is its `confirm`). */
const OPERATIONS = { token: 'token', verify: 'confirm', settle: 'settle', reverse: 'reverse' } as const;
/**
 * The faults: `down` refuses at once, `hang` never answers (the simulator's `timeout`), `slow`
 * answers as usual but seconds late, `error` answers the protocol's error.
 */
const FAULTS = { down: 'down', hang: 'timeout', slow: 'slow', error: 'error', clear: 'clear' } as const;

/** One of `choices`' names from flag `name`, or a refusal that lists them. */
function oneOf<T extends Record<string, string>>(flags: Flags, name: string, choices: T): keyof T & string {
  const value = required(flags, name);
  if (!Object.hasOwn(choices, value))
    throw new UsageError(`--${name} must be one of ${Object.keys(choices).join('|')} (got ${JSON.stringify(value)})`);
  return value;
}

const originOf = (url: string) => {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
};

/** The sandbox simulator of `psp`: refused when none is configured, or when its address is a live PSP's. */
export function sandboxSimulator(config: Config, psp: PspName): string {
  const setting = pspUrlSetting(psp, 'test');
  const url = config[setting];
  const origin = originOf(url);
  if (origin === undefined)
    throw new UsageError(`PSP ${psp} has no sandbox simulator configured (${setting} is ${JSON.stringify(url)})`);
  // Every PSP's live addresses, its service's and its page's.
  const live = pspSettings()
    .filter((s) => s.mode === 'live' && (s.suffix === 'URL' || s.suffix === 'PAGE_URL'))
    .map((s) => originOf(config[s.name as PspSettingKey]));
  if (live.includes(origin))
    throw new UsageError(
      `${setting} (${origin}) is a live PSP's address: a fault is only ever switched at a simulator`,
    );
  return url.replace(/\/+$/, '');
}

/** A call of the simulator's admin endpoint: its JSON answer; a refusal says why in the operator's terms. */
async function simulatorAdmin(base: string, psp: PspName, method: 'GET' | 'POST', body?: object): Promise<unknown> {
  // The simulator's own setting, not the gateway's (config.ts): a production deployment has no such token.
  const token = process.env.BANK_SIM_ADMIN_TOKEN ?? '';
  if (token === '')
    throw new UsageError(
      "BANK_SIM_ADMIN_TOKEN is not set: give the simulator's admin token (npm start keeps it in .data/bank-sim-admin-token)",
    );
  let res: Response;
  try {
    res = await fetch(`${base}/admin/faults`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(5_000),
    });
  } catch (error) {
    throw new Error(
      `the ${psp} simulator at ${base} did not answer (${error instanceof Error ? error.message : String(error)}); is it running?`,
      { cause: error },
    );
  }
  const text = await res.text();
  if (res.status === 404)
    throw new Error(
      `the ${psp} simulator at ${base} refused the admin token (404): BANK_SIM_ADMIN_TOKEN must be the simulator's own`,
    );
  if (res.status !== 200) throw new Error(`the ${psp} simulator at ${base} refused the switch: ${res.status} ${text}`);
  return JSON.parse(text) as unknown;
}

export const BANK_SIM_COMMANDS: Record<string, Command> = {
  'bank-sim fault': async (_db, config, flags) => {
    const psp = required(flags, 'psp');
    if (!(PSP_NAMES as readonly string[]).includes(psp))
      throw new UsageError(`unknown PSP ${JSON.stringify(psp)}; PSPs: ${PSP_NAMES.join(', ')}`);
    const operation = oneOf(flags, 'operation', OPERATIONS);
    const fault = oneOf(flags, 'fault', FAULTS);
    const base = sandboxSimulator(config, psp as PspName);
    await simulatorAdmin(base, psp as PspName, 'POST', { operation: OPERATIONS[operation], fault: FAULTS[fault] });
    const { switches } = (await simulatorAdmin(base, psp as PspName, 'GET')) as {
      switches: { operation: string; fault: string; remaining: number | null }[];
    };
    // Every switch now on at that simulator, in the operator's names where it has them (a test's may be others).
    const named = (names: Record<string, string>, value: string) =>
      Object.keys(names).find((k) => names[k] === value) ?? value;
    const on = switches.map((s) => ({
      operation: named(OPERATIONS, s.operation),
      fault: named(FAULTS, s.fault),
      remaining: s.remaining,
    }));
    return { psp, simulator: base, operation, fault, switches: on };
  },
};

export const BANK_SIM_OPTIONS = {
  psp: { type: 'string' },
  operation: { type: 'string' },
  fault: { type: 'string' },
} as const;
