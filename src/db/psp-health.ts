/**
 * The PSP terminals' health, shared by every worker and API through MySQL (table psp_health, one row
 * per mode, PSP and terminal): each token request asks PspHealthStore first whether the terminal's
 * circuit breaker lets the request through, and reports how it went. The rules are
 * src/domain/psp-breaker.ts; here each change reads and writes the row in one transaction that holds
 * it (SELECT … FOR UPDATE), so two workers reporting at once count twice and exactly one of them may
 * probe a half-open breaker.
 */
import type { Selectable, Updateable } from 'kysely';
import {
  admitRequest,
  afterFailure,
  afterSuccess,
  breakerGaugeValue,
  breakerStateAt,
  CLOSED_BREAKER,
  type BreakerRecord,
  type BreakerSettings,
  type BreakerState,
} from '../domain/psp-breaker.ts';
import { pspBreakerState } from '../observability/metrics.ts';
import type { Db, PspHealthTable } from './database.ts';

/** One terminal, as the table names it. */
export interface PspHealthKey {
  mode: 'test' | 'live';
  psp: string;
  terminal_id: string;
}

/** The terminal's breaker state, unlocked; undefined when the terminal has no row yet. */
export async function pspHealthState(db: Db, terminal: PspHealthKey) {
  return db
    .selectFrom('psp_health')
    .select('state')
    .where('mode', '=', terminal.mode)
    .where('psp', '=', terminal.psp)
    .where('terminal_id', '=', terminal.terminal_id)
    .executeTakeFirst();
}

/** Inserts the terminal's row, closed with no failures, unless it exists (INSERT IGNORE). */
export async function insertClosedPspHealth(db: Db, terminal: PspHealthKey, at: Date): Promise<void> {
  await db
    .insertInto('psp_health')
    .values({
      ...terminal,
      last_failure: null,
      window_started_at: null,
      opened_at: null,
      probe_started_at: null,
      updated_at: at,
    })
    .ignore()
    .execute();
}

/** The terminal's breaker record, its row locked (FOR UPDATE) until the transaction ends. */
export async function lockPspBreaker(trx: Db, terminal: PspHealthKey) {
  return trx
    .selectFrom('psp_health')
    .select(['state', 'failures', 'window_started_at', 'opened_at', 'probe_started_at'])
    .where('mode', '=', terminal.mode)
    .where('psp', '=', terminal.psp)
    .where('terminal_id', '=', terminal.terminal_id)
    .forUpdate()
    .executeTakeFirst();
}

export async function updatePspHealth(
  trx: Db,
  terminal: PspHealthKey,
  changes: Updateable<PspHealthTable>,
): Promise<void> {
  await trx
    .updateTable('psp_health')
    .set(changes)
    .where('mode', '=', terminal.mode)
    .where('psp', '=', terminal.psp)
    .where('terminal_id', '=', terminal.terminal_id)
    .execute();
}

/** The terminal's breaker record, unlocked; undefined when the terminal has no row yet. */
export async function pspBreaker(db: Db, terminal: PspHealthKey) {
  return db
    .selectFrom('psp_health')
    .select(['state', 'failures', 'window_started_at', 'opened_at', 'probe_started_at'])
    .where('mode', '=', terminal.mode)
    .where('psp', '=', terminal.psp)
    .where('terminal_id', '=', terminal.terminal_id)
    .executeTakeFirst();
}

/** Every health row of these modes. */
export async function pspHealthOfModes(db: Db, modes: readonly ('test' | 'live')[]) {
  return db.selectFrom('psp_health').selectAll().where('mode', 'in', modes).execute();
}

/** One terminal, as the store names it. */
export type PspTerminal = PspHealthKey;

/** What `cli psps status` and the route planning read of a terminal. */
export interface TerminalHealth extends PspTerminal {
  /** The breaker's state at the time of the reading (an open breaker whose time is up reads half-open). */
  state: BreakerState;
  failures: number;
  window_started_at: string | null;
  opened_at: string | null;
  probe_started_at: string | null;
  last_failure: string | null;
  updated_at: string | null;
}

const ms = (d: Date | null): number | null => (d === null ? null : d.getTime());
const date = (n: number | null): Date | null => (n === null ? null : new Date(n));

type StoredBreaker = Pick<
  Selectable<PspHealthTable>,
  'state' | 'failures' | 'window_started_at' | 'opened_at' | 'probe_started_at'
>;

function recordOf(row: StoredBreaker | undefined): BreakerRecord {
  if (row === undefined) return CLOSED_BREAKER;
  return {
    state: row.state,
    failures: row.failures,
    window_started_at: ms(row.window_started_at),
    opened_at: ms(row.opened_at),
    probe_started_at: ms(row.probe_started_at),
  };
}

const columnsOf = (record: BreakerRecord) => ({
  state: record.state,
  failures: record.failures,
  window_started_at: date(record.window_started_at),
  opened_at: date(record.opened_at),
  probe_started_at: date(record.probe_started_at),
});

export class PspHealthStore {
  private readonly db: Db;
  private readonly settings: BreakerSettings;
  private readonly now: () => number;
  constructor(
    db: Db,
    settings: BreakerSettings,
    /** The clock; a test may move it. */
    now: () => number = Date.now,
  ) {
    this.db = db;
    this.settings = settings;
    this.now = now;
  }

  /** Reads the terminal's row under a lock (made closed first if it has none), applies `change`, writes what it answers. */
  private async change<T>(
    terminal: PspTerminal,
    change: (record: BreakerRecord, now: number) => { next: BreakerRecord; answer: T; lastFailure?: string },
  ): Promise<T> {
    const now = this.now();
    // The row exists before it is locked: the first report of a terminal inserts it, and a concurrent
    // insert is ignored. Its own statement, outside the transaction: an INSERT IGNORE that meets the row
    // holds a shared lock on it, and two transactions holding one each and then asking FOR UPDATE deadlock.
    const existing = await pspHealthState(this.db, terminal);
    if (existing === undefined) {
      await insertClosedPspHealth(this.db, terminal, new Date(now));
    }
    const result = await this.db.transaction().execute(async (trx) => {
      const row = await lockPspBreaker(trx, terminal);
      const before = recordOf(row);
      const outcome = change(before, now);
      if (outcome.next !== before || outcome.lastFailure !== undefined) {
        await updatePspHealth(trx, terminal, {
          ...columnsOf(outcome.next),
          ...(outcome.lastFailure === undefined ? {} : { last_failure: outcome.lastFailure.slice(0, 255) }),
          updated_at: new Date(now),
        });
      }
      return { answer: outcome.answer, state: breakerStateAt(outcome.next, now, this.settings) };
    });
    pspBreakerState.set(
      { psp: terminal.psp, terminal: terminal.terminal_id, mode: terminal.mode },
      breakerGaugeValue(result.state),
    );
    return result.answer;
  }

  /**
   * Whether a token request may go to the terminal now: always while closed; while open, not until
   * its time is up, and then as the one probe; while half-open, not while its probe is in flight.
   */
  admit(terminal: PspTerminal): Promise<{ admitted: boolean; probe: boolean }> {
    // A closed breaker admits without a write: read first, lock only when it is not closed.
    return this.readState(terminal).then((record) => {
      if (record.state === 'closed') return { admitted: true, probe: false };
      return this.change(terminal, (locked, now) => {
        const decision = admitRequest(locked, now, this.settings);
        return { next: decision.next, answer: { admitted: decision.admitted, probe: decision.probe } };
      });
    });
  }

  /** The terminal answered a token request: a half-open breaker closes. */
  async recordSuccess(terminal: PspTerminal): Promise<void> {
    const record = await this.readState(terminal);
    // A closed breaker has nothing to forget: no write, no lock, on the path every payment takes.
    if (record.state === 'closed') {
      pspBreakerState.set({ psp: terminal.psp, terminal: terminal.terminal_id, mode: terminal.mode }, 0);
      return;
    }
    await this.change(terminal, (locked) => ({ next: afterSuccess(locked), answer: undefined }));
  }

  /** The terminal did not answer a token request (no answer, a server error, a timeout): counted; may open the breaker. */
  async recordFailure(terminal: PspTerminal, reason: string): Promise<BreakerState> {
    return this.change(terminal, (locked, now) => {
      const next = afterFailure(locked, now, this.settings);
      return { next, answer: breakerStateAt(next, now, this.settings), lastFailure: reason };
    });
  }

  private async readState(terminal: PspTerminal): Promise<BreakerRecord> {
    return recordOf(await pspBreaker(this.db, terminal));
  }

  /** Every terminal of `terminals` with its health now (closed when it has never failed); sets the gauge of each. */
  async states(terminals: readonly PspTerminal[]): Promise<TerminalHealth[]> {
    if (terminals.length === 0) return [];
    const rows = await pspHealthOfModes(this.db, [...new Set(terminals.map((t) => t.mode))]);
    const now = this.now();
    return terminals.map((terminal) => {
      const row = rows.find(
        (r) => r.mode === terminal.mode && r.psp === terminal.psp && r.terminal_id === terminal.terminal_id,
      );
      const record = recordOf(row);
      const state = breakerStateAt(record, now, this.settings);
      pspBreakerState.set(
        { psp: terminal.psp, terminal: terminal.terminal_id, mode: terminal.mode },
        breakerGaugeValue(state),
      );
      const iso = (d: Date | null | undefined) => (d === null || d === undefined ? null : d.toISOString());
      return {
        ...terminal,
        state,
        failures: record.failures,
        window_started_at: iso(row?.window_started_at),
        opened_at: iso(row?.opened_at),
        probe_started_at: iso(row?.probe_started_at),
        last_failure: row?.last_failure ?? null,
        updated_at: iso(row?.updated_at),
      };
    });
  }
}
