/**
 * The bank simulators of the local stacks (`npm start`, `npm test`, `npm run bench`): one per PSP of the
 * registry (src/psps/profiles.ts), derived from its profile, never written per PSP. Each is
 * `npm run bank-sim` with BANK_SIM_PROTOCOL = the PSP's name, its own port, terminal and ledger; the
 * gateway is pointed at it by the test-mode settings pspSettingName names (`SANDBOX_<PSP>_URL`,
 * `SANDBOX_<PSP>_TERMINAL_ID` and one per setting of the profile), and the simulator is given the same
 * values as `BANK_SIM_TERMINAL_ID` and `BANK_SIM_<suffix>` (src/bank-sim/main.ts).
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { PSP_NAMES, PSP_PROFILES, pspSettingName, type PspName } from '../../src/psps/profiles.ts';
import type { PspProfile } from '../../src/psps/profile.ts';
import { ConfigSchema } from '../../src/config.ts';

/**
 * The names SEP's settings had before the registry named them (`BANK_*`), which the configuration keeps
 * as aliases. While a configuration reads a setting by its old name only, the launcher sets that name
 * too (withLegacyNames), so the gateway and the tests of either side see the simulator's values; once
 * the configuration knows the new name, the old one is no longer set.
 */
export const LEGACY_PSP_SETTING_NAMES: Readonly<Record<string, string>> = {
  SANDBOX_SEP_URL: 'SANDBOX_BANK_URL',
  SANDBOX_SEP_PAGE_URL: 'SANDBOX_BANK_PAGE_URL',
  SANDBOX_SEP_TERMINAL_ID: 'SANDBOX_BANK_TERMINAL_ID',
  SANDBOX_SEP_PASSWORD: 'SANDBOX_BANK_PASSWORD',
  SEP_BASE_URL: 'BANK_BASE_URL',
  SEP_PAGE_URL: 'BANK_PAGE_URL',
  SEP_TERMINAL_ID: 'BANK_TERMINAL_ID',
  SEP_PASSWORD: 'BANK_PASSWORD',
};

/** `settings` with, for each one the configuration reads only by its old name, that name too. */
export function withLegacyNames(
  settings: Readonly<Record<string, string>>,
  known: ReadonlySet<string> = new Set(Object.keys(ConfigSchema.properties)),
): Record<string, string> {
  const out: Record<string, string> = { ...settings };
  for (const [name, value] of Object.entries(settings)) {
    const legacy = LEGACY_PSP_SETTING_NAMES[name];
    if (legacy !== undefined && !known.has(name) && known.has(legacy)) out[legacy] = value;
  }
  return out;
}

/** One PSP's simulator as a stack runs it. */
export interface PspSimulator {
  psp: PspName;
  /** The supervisor's and the logs' name for its process: "sep bank simulator". */
  name: string;
  title: string;
  port: number;
  url: string;
  /** The simulator process's own settings (BANK_SIM_*), besides those every simulator of the stack shares (admin token, origins). */
  simulatorEnv: Record<string, string>;
  /** The gateway's test-mode settings naming it, under pspSettingName's names (and their old names, withLegacyNames). */
  gatewayEnv: Record<string, string>;
}

export interface SimulatorPlace {
  port: number;
  /** Its ledger (BANK_SIM_STATE_FILE). */
  stateFile: string;
  /** The value of a test-mode setting of the PSP (`TERMINAL_ID` or one of its profile's suffixes). */
  value(suffix: string): string;
}

/** The simulator of `psp` at `place`, and the gateway's settings that name it. */
export function pspSimulator(psp: PspName, place: SimulatorPlace): PspSimulator {
  const profile: PspProfile = PSP_PROFILES[psp];
  const url = `http://127.0.0.1:${place.port}`;
  const suffixes = ['TERMINAL_ID', ...profile.settings.map((s) => s.suffix)];
  const values = Object.fromEntries(suffixes.map((suffix) => [suffix, place.value(suffix)]));
  return {
    psp,
    name: `${psp} bank simulator`,
    title: profile.title,
    port: place.port,
    url,
    simulatorEnv: {
      BANK_SIM_PROTOCOL: psp,
      BANK_SIM_PORT: String(place.port),
      BANK_SIM_STATE_FILE: place.stateFile,
      BANK_SIM_AUTO_REVERSE_SECONDS: String(profile.simulator.autoReverseSeconds),
      ...Object.fromEntries(suffixes.map((suffix) => [`BANK_SIM_${suffix}`, values[suffix]!])),
    },
    gatewayEnv: withLegacyNames({
      [pspSettingName(psp, 'test', 'URL')]: url,
      ...Object.fromEntries(suffixes.map((suffix) => [pspSettingName(psp, 'test', suffix), values[suffix]!])),
    }),
  };
}

/** The launcher's setting of a PSP simulator's port in `npm start` (BANK_SIM_SEP_PORT, BANK_SIM_MELLAT_PORT, …): its profile's port by default. */
export const simulatorPortSetting = (psp: PspName): string => `BANK_SIM_${psp.toUpperCase()}_PORT`;

/** A test-mode setting's default: the profile's simulator's terminal, or the profile's own setting's testDefault. */
export function testDefault(psp: PspName, suffix: string): string {
  const profile: PspProfile = PSP_PROFILES[psp];
  if (suffix === 'TERMINAL_ID') return profile.simulator.terminalId;
  return profile.settings.find((s) => s.suffix === suffix)?.testDefault ?? '';
}

/**
 * `npm start`'s simulators: each on its profile's port (test mode's default address, so a CLI run
 * elsewhere with the defaults names the same simulators) unless BANK_SIM_<PSP>_PORT moves it, its
 * ledger in `dataDir`, and the values the environment gives the gateway's test-mode settings (their defaults otherwise).
 */
export function startSimulators(
  env: NodeJS.ProcessEnv,
  dataDir: string,
  portOf: (psp: PspName, fallback: number) => number,
): PspSimulator[] {
  return PSP_NAMES.map((psp) =>
    pspSimulator(psp, {
      port: portOf(psp, PSP_PROFILES[psp].simulator.port),
      stateFile: join(dataDir, `bank-sim-${psp}.jsonl`),
      value: (suffix) => {
        const name = pspSettingName(psp, 'test', suffix);
        const given =
          env[name] ?? (LEGACY_PSP_SETTING_NAMES[name] === undefined ? undefined : env[LEGACY_PSP_SETTING_NAMES[name]]);
        return given ?? testDefault(psp, suffix);
      },
    }),
  );
}

/**
 * The PSPs whose suite simulator keeps its profile's test secrets (none): SEP's terminal in the suite
 * also stands for the live SEP terminal of the tests (test/support/harness.ts's LIVE_BANK: live
 * payments and the payouts), which the tests give no password.
 */
const SUITE_SECRETS_AS_PROFILE: ReadonlySet<PspName> = new Set(['sep']);

/**
 * A random value of a secret setting, of the shape the deployment files tell an operator to make it
 * (its `make` command, `openssl rand -base64 24` for Sadad's key; else `openssl rand -hex`, as for any
 * password): IranKish's password is sealed as hex, so a base64 one would be no password of its.
 */
export function randomSecret(setting: Pick<PspProfile['settings'][number], 'make'> | undefined): string {
  const made = /^openssl rand -(hex|base64) ([0-9]+)$/.exec(setting?.make?.command ?? '');
  return made === null
    ? randomBytes(24).toString('hex')
    : randomBytes(Number(made[2])).toString(made[1] as 'hex' | 'base64');
}

/**
 * The test suites' simulators: each on a free port with a fresh ledger, and every secret setting
 * (a terminal's password) a random value of its shape (randomSecret), so the tests see each simulator
 * check it (but SUITE_SECRETS_AS_PROFILE's).
 */
export function suiteSimulators(dataDir: string, ports: readonly number[], ledgerSuffix: string): PspSimulator[] {
  return PSP_NAMES.map((psp, i) =>
    pspSimulator(psp, {
      port: ports[i]!,
      stateFile: join(dataDir, `bank-sim-${psp}-${ledgerSuffix}.jsonl`),
      value: (suffix) => {
        const setting = (PSP_PROFILES[psp] as PspProfile).settings.find((s) => s.suffix === suffix);
        return setting?.secret === true && !SUITE_SECRETS_AS_PROFILE.has(psp)
          ? randomSecret(setting)
          : testDefault(psp, suffix);
      },
    }),
  );
}

/** The gateway's settings naming every simulator of `simulators`. */
export const gatewaySettingsOf = (simulators: readonly PspSimulator[]): Record<string, string> =>
  Object.assign({}, ...simulators.map((s) => s.gatewayEnv)) as Record<string, string>;
