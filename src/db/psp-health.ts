/**
 * The PSP terminals' health rows (table psp_health, one per mode, PSP and terminal): the circuit
 * breakers every worker and API share (src/adapters/psp/health.ts keeps the rules of their use).
 */
import type { Updateable } from 'kysely';
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
