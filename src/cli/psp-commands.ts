/**
 * The operator's PSP commands (docs/psps/routing.md): `psps status` (each
 * configured PSP terminal with its circuit breaker and the merchants it is
 * reserved for), `routing set` and `routing show` (a merchant's route per
 * mode), `routing restrict` (a terminal for named merchants only). A route may
 * name only PSPs this deployment has configured for that mode, and no terminal
 * reserved for other merchants: a typo, a PSP without a terminal or another's
 * terminal is refused with the reason, and nothing is written.
 */
import { configuredTerminals, pspClientsFromConfig } from '../psps/clients.ts';
import { PspHealthStore } from '../db/psp-health.ts';
import { breakerSettings } from '../domain/psp-breaker.ts';
import { PSP_NAMES } from '../psps/psp-client.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import {
  merchantRoute,
  merchantsRoutingThrough,
  replaceMerchantRoute,
  reserveTerminal,
  terminalReservations,
} from '../db/psp-routes.ts';
import { findMerchantId } from '../db/merchants.ts';
import {
  defaultRoute,
  mayUseTerminal,
  pspTakesVerifyWindow,
  reservationOf,
  routeProblem,
  type RouteEntry,
  type TerminalReservation,
} from '../domain/psp-routing.ts';
import { required, UsageError, type Command, type Flags } from './onboarding-commands.ts';

type Mode = 'test' | 'live';
const MODES: readonly Mode[] = ['test', 'live'];

/** The terminals this deployment's configuration has for `mode`, in the order of PSP names. */
const configuredFor = (config: Config, mode: Mode) => configuredTerminals(pspClientsFromConfig(config), mode);

function modeFlag(flags: Flags): Mode {
  const mode = required(flags, 'mode');
  if (mode !== 'test' && mode !== 'live')
    throw new UsageError(`--mode must be test or live (got ${JSON.stringify(mode)})`);
  return mode;
}

/** `a,b,c` into its items, none empty. */
function list(flags: Flags, name: string): string[] {
  const items = required(flags, name)
    .split(',')
    .map((s) => s.trim());
  if (items.some((s) => s === '')) throw new UsageError(`--${name} is a comma-separated list without empty items`);
  return items;
}

/** `--amounts sep:0-5000000,mellat:5000001-`: each PSP's range in rials, either end may be left open. */
function amountRanges(
  flags: Flags,
  psps: readonly string[],
): Map<string, { min_amount: number | null; max_amount: number | null }> {
  const ranges = new Map<string, { min_amount: number | null; max_amount: number | null }>();
  if (flags.amounts === undefined) return ranges;
  for (const item of list(flags, 'amounts')) {
    const match = /^([a-z]+):([0-9]{0,15})-([0-9]{0,15})$/.exec(item);
    if (match === null)
      throw new UsageError(
        `--amounts items are <psp>:<min>-<max> in rials, either end may be empty (got ${JSON.stringify(item)})`,
      );
    const [, psp = '', min = '', max = ''] = match;
    if (!psps.includes(psp)) throw new UsageError(`--amounts names ${psp}, which is not in --psps`);
    if (ranges.has(psp)) throw new UsageError(`--amounts names ${psp} twice`);
    ranges.set(psp, { min_amount: min === '' ? null : Number(min), max_amount: max === '' ? null : Number(max) });
  }
  return ranges;
}

async function merchantExists(db: Db, merchantId: string): Promise<void> {
  // A reservation names only merchants that exist.
  if ((await findMerchantId(db, merchantId)) === undefined) throw new UsageError(`no merchant ${merchantId}`);
}

/** The merchants a terminal is reserved for, sorted; null when it is anyone's. */
const reservedFor = (reservations: readonly TerminalReservation[], terminal: { psp: string; terminal_id: string }) =>
  reservationOf(reservations, terminal)?.merchant_ids ?? null;

/**
 * The route payments of the merchant in `mode` follow: the operator's, or the default one; each
 * entry with the merchants its terminal is reserved for and whether this merchant's payments may
 * use it (a terminal reserved for others is skipped by the planning).
 */
async function routeView(db: Db, config: Config, merchantId: string, mode: Mode) {
  const set = await merchantRoute(db, merchantId, mode);
  const reservations = await terminalReservations(db);
  const route = set.length === 0 ? defaultRoute(configuredFor(config, mode)) : set;
  // `takes_verify_window`: false where the PSP is skipped for every payment of this deployment's verify
  // window (Sadad with more than 600 s: docs/psps/routing.md), so an operator sees why none goes there.
  const entries = route.map((e) => ({
    ...e,
    reserved_for: reservedFor(reservations, e),
    usable: mayUseTerminal(reservations, merchantId, e),
    takes_verify_window: pspTakesVerifyWindow(e.psp, config.VERIFY_WINDOW_SECONDS * 1000),
  }));
  return { source: set.length === 0 ? 'default' : 'merchant', entries };
}

/** Refuses a route naming a terminal reserved for other merchants than `merchantId`. */
function refuseReservedTerminals(
  entries: readonly RouteEntry[],
  merchantId: string,
  reservations: readonly TerminalReservation[],
): void {
  const taken = entries.find((e) => !mayUseTerminal(reservations, merchantId, e));
  if (taken !== undefined) {
    throw new UsageError(
      `terminal ${taken.terminal_id} of ${taken.psp} is reserved for other merchants (cli routing restrict); merchant ${merchantId} may not use it`,
    );
  }
}

/**
 * `routing restrict --psp <name> --terminal <id> --merchants <id>,<id>`: the terminal for those
 * merchants only (the set replaces the previous one); `--clear` makes it anyone's again. The
 * terminal must be one this deployment configures, the merchants must exist; otherwise nothing is
 * written. Answers the reservation and the merchants whose own routes name the terminal and will
 * now skip it.
 */
async function restrictTerminal(db: Db, config: Config, flags: Flags) {
  const psp = required(flags, 'psp');
  const terminalId = required(flags, 'terminal');
  const configured = MODES.flatMap((mode) => configuredFor(config, mode));
  if (!configured.some((c) => c.psp === psp && c.terminal_id === terminalId)) {
    throw new UsageError(
      `terminal ${terminalId} of ${psp} is not configured here; configured: ${configured.map((c) => `${c.psp} ${c.terminal_id}`).join(', ') || 'none'}`,
    );
  }
  const clear = flags.clear === true;
  if (clear === (flags.merchants !== undefined)) throw new UsageError('give either --merchants <id>,<id> or --clear');
  const merchantIds = clear ? [] : [...new Set(list(flags, 'merchants'))].sort();
  for (const merchantId of merchantIds) await merchantExists(db, merchantId);
  await reserveTerminal(db, { psp, terminal_id: terminalId }, merchantIds, new Date());
  const naming = await merchantsRoutingThrough(db, { psp, terminal_id: terminalId });
  const skipping = clear ? [] : naming.map((r) => r.merchant_id).filter((id) => !merchantIds.includes(id));
  return { psp, terminal_id: terminalId, reserved_for: clear ? null : merchantIds, routes_skipping_it: skipping };
}

/**
 * The merchant's route in `mode` from the flags: `--psps` in the order to try them, each its own
 * priority; with `--weights`, the PSPs share one priority by those weights (a split of the traffic,
 * each payment's order drawn from its id); `--amounts` limits PSPs to amount ranges.
 */
export function routeFromFlags(
  flags: Flags,
  configured: readonly { psp: string; terminal_id: string }[],
  mode: Mode,
): RouteEntry[] {
  const psps = list(flags, 'psps');
  for (const psp of psps) {
    if (!(PSP_NAMES as readonly string[]).includes(psp))
      throw new UsageError(`unknown PSP ${JSON.stringify(psp)}; PSPs: ${PSP_NAMES.join(', ')}`);
    if (!configured.some((c) => c.psp === psp)) {
      throw new UsageError(
        `PSP ${psp} is not configured for ${mode} payments here; configured: ${configured.map((c) => c.psp).join(', ') || 'none'}`,
      );
    }
  }
  const weights = flags.weights === undefined ? undefined : list(flags, 'weights');
  if (weights !== undefined && weights.length !== psps.length)
    throw new UsageError(`--weights needs one weight per PSP of --psps (${psps.length})`);
  const ranges = amountRanges(flags, psps);
  const entries = psps.map((psp, position): RouteEntry => {
    const weightText = weights?.[position];
    const weight = weightText === undefined ? 1 : /^[0-9]{1,6}$/.test(weightText) ? Number(weightText) : Number.NaN;
    const terminal = configured.find((c) => c.psp === psp)!;
    return {
      position,
      priority: weights === undefined ? position : 0,
      psp,
      terminal_id: terminal.terminal_id,
      weight,
      min_amount: null,
      max_amount: null,
      ...ranges.get(psp),
    };
  });
  const problem = routeProblem(entries);
  if (problem !== undefined) throw new UsageError(problem);
  return entries;
}

export const PSP_COMMANDS: Record<string, Command> = {
  'psps status': async (db, config) => {
    const health = new PspHealthStore(db, breakerSettings(config));
    const terminals = MODES.flatMap((mode) => configuredFor(config, mode).map((t) => ({ mode, ...t })));
    const reservations = await terminalReservations(db);
    const psps = (await health.states(terminals)).map((p) => ({ ...p, reserved_for: reservedFor(reservations, p) }));
    return { psps, down: psps.filter((p) => p.state === 'open').length };
  },
  'routing set': async (db, config, flags) => {
    const merchantId = required(flags, 'merchant');
    const mode = modeFlag(flags);
    const entries = routeFromFlags(flags, configuredFor(config, mode), mode);
    await merchantExists(db, merchantId);
    refuseReservedTerminals(entries, merchantId, await terminalReservations(db));
    await replaceMerchantRoute(db, merchantId, mode, entries, new Date());
    return { merchant_id: merchantId, mode, ...(await routeView(db, config, merchantId, mode)) };
  },
  'routing show': async (db, config, flags) => {
    const merchantId = required(flags, 'merchant');
    await merchantExists(db, merchantId);
    const modes = flags.mode === undefined ? MODES : [modeFlag(flags)];
    const routes: Record<string, unknown> = {};
    for (const mode of modes) routes[mode] = await routeView(db, config, merchantId, mode);
    return { merchant_id: merchantId, routes };
  },
  'routing restrict': (db, config, flags) => restrictTerminal(db, config, flags),
};

export const PSP_OPTIONS = {
  psps: { type: 'string' },
  weights: { type: 'string' },
  amounts: { type: 'string' },
  psp: { type: 'string' },
  terminal: { type: 'string' },
  merchants: { type: 'string' },
  clear: { type: 'boolean' },
} as const;
