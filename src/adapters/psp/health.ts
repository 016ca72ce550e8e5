/**
 * The PSP terminals' health, shared by every worker and API through MySQL
 * (table psp_health, one row per mode, PSP and terminal): each token request
 * asks it first whether the terminal's circuit breaker lets the request
 * through, and reports how it went. The rules are src/domain/psp-breaker.ts;
 * here each change reads and writes the row in one transaction that holds
 * it (SELECT … FOR UPDATE), so two workers reporting at once count twice and
 * exactly one of them may probe a half-open breaker.
 */
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import {
  insertClosedPspHealth,
  lockPspBreaker,
  pspBreaker,
  pspHealthOfModes,
  pspHealthState,
  updatePspHealth,
} from '../../db/psp-health.ts';
import type { PspHealthTable } from '../../db/schema.ts';
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
} from '../../domain/psp-breaker.ts';
import { pspBreakerState } from '../../observability/metrics.ts';

type Mode = 'test' | 'live';

/** One terminal, as the store names it. */
export interface PspTerminal {
  mode: Mode;
  psp: string;
  terminal_id: string;
}

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

/** The breaker settings from the configuration. */
export function breakerSettings(config: {
  PSP_BREAKER_FAILURES: number;
  PSP_BREAKER_WINDOW_SECONDS: number;
  PSP_BREAKER_OPEN_SECONDS: number;
  BANK_TIMEOUT_MS: number;
}): BreakerSettings {
  return {
    failures: config.PSP_BREAKER_FAILURES,
    windowMs: config.PSP_BREAKER_WINDOW_SECONDS * 1000,
    openMs: config.PSP_BREAKER_OPEN_SECONDS * 1000,
    // A probe has its two attempts of the bank's timeout, with room; past that it is taken as lost.
    probeTimeoutMs: config.BANK_TIMEOUT_MS * 3,
  };
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
