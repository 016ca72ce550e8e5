/**
 * The operator's PSP routes (table psp_routes, docs/psps/routing.md): read by the route planning,
 * replaced whole by `cli routing set`; and the terminals reserved for named merchants (table
 * psp_terminal_reservations), replaced or cleared by `cli routing restrict`.
 */
import type { RouteEntry, TerminalReservation } from '../domain/psp-routing.ts';
import type { Db } from './database.ts';

const bound = (v: number | string | null): number | null => (v === null ? null : Number(v));

/** The merchant's route in `mode`, in position order; empty when the operator has set none (the default route applies). */
export async function merchantRoute(db: Db, merchantId: string, mode: 'test' | 'live'): Promise<RouteEntry[]> {
  const rows = await db
    .selectFrom('psp_routes')
    .selectAll()
    .where('merchant_id', '=', merchantId)
    .where('mode', '=', mode)
    .orderBy('position')
    .execute();
  return rows.map((r) => ({
    position: r.position,
    priority: r.priority,
    psp: r.psp,
    terminal_id: r.terminal_id,
    weight: r.weight,
    min_amount: bound(r.min_amount),
    max_amount: bound(r.max_amount),
  }));
}

/** Replaces the merchant's route in `mode` with `entries` in one transaction: a payment planned meanwhile reads the old route or the new, never a mix. */
export async function replaceMerchantRoute(
  db: Db,
  merchantId: string,
  mode: 'test' | 'live',
  entries: readonly RouteEntry[],
  at: Date,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('psp_routes').where('merchant_id', '=', merchantId).where('mode', '=', mode).execute();
    await trx
      .insertInto('psp_routes')
      .values(
        entries.map((e) => ({
          merchant_id: merchantId,
          mode,
          position: e.position,
          priority: e.priority,
          psp: e.psp,
          terminal_id: e.terminal_id,
          weight: e.weight,
          min_amount: e.min_amount,
          max_amount: e.max_amount,
          updated_at: at,
        })),
      )
      .execute();
  });
}

/** Every reserved terminal with its merchants (sorted), in PSP and terminal order. */
export async function terminalReservations(db: Db): Promise<TerminalReservation[]> {
  const rows = await db
    .selectFrom('psp_terminal_reservations')
    .select(['psp', 'terminal_id', 'merchant_id'])
    .orderBy('psp')
    .orderBy('terminal_id')
    .orderBy('merchant_id')
    .execute();
  const byTerminal = new Map<string, TerminalReservation & { merchant_ids: string[] }>();
  for (const row of rows) {
    const key = `${row.psp}|${row.terminal_id}`;
    const reservation = byTerminal.get(key) ?? { psp: row.psp, terminal_id: row.terminal_id, merchant_ids: [] };
    reservation.merchant_ids.push(row.merchant_id);
    byTerminal.set(key, reservation);
  }
  return [...byTerminal.values()];
}

/** Reserves the terminal for exactly `merchantIds` (none: anyone's again), in one transaction: a plan reads the old set or the new. */
export async function reserveTerminal(
  db: Db,
  terminal: { psp: string; terminal_id: string },
  merchantIds: readonly string[],
  at: Date,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('psp_terminal_reservations')
      .where('psp', '=', terminal.psp)
      .where('terminal_id', '=', terminal.terminal_id)
      .execute();
    if (merchantIds.length === 0) return;
    await trx
      .insertInto('psp_terminal_reservations')
      .values(
        merchantIds.map((merchant_id) => ({
          psp: terminal.psp,
          terminal_id: terminal.terminal_id,
          merchant_id,
          updated_at: at,
        })),
      )
      .execute();
  });
}

/** The merchants whose own routes (either mode) name the terminal, each once, sorted. */
export async function merchantsRoutingThrough(db: Db, terminal: { psp: string; terminal_id: string }) {
  return db
    .selectFrom('psp_routes')
    .select('merchant_id')
    .distinct()
    .where('psp', '=', terminal.psp)
    .where('terminal_id', '=', terminal.terminal_id)
    .orderBy('merchant_id')
    .execute();
}
