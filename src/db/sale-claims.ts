/**
 * PSP sales and the one payment each belongs to (table psp_sale_claims,
 * docs/SECURITY.md#invariants-between-payments-and-requests). A sale is a PSP terminal's reference in a
 * mode. The payment whose bank return confirmed it claims it by an insert the primary key decides, so of
 * two payments presenting one sale at the same instant exactly one holds it, and the other is told
 * whose it is. A claim never changes hands and is never deleted: reading its holder after the insert
 * reads a fact the key settled, not a state another writer may still change.
 */
import type { Db } from './database.ts';

/** A sale: the PSP terminal's reference in a mode. */
export interface PspSale {
  mode: 'test' | 'live';
  psp: string;
  terminal_id: string;
  reference_id: string;
}

/** What the PSP said of the card that paid the sale, kept with its claim. */
export interface SaleCard {
  /** The masked card number as the PSP gave it (first six and last four digits). */
  card_pan: string | null;
  /** HMAC-SHA256 under CARD_HASH_KEY of the PSP's SHA-256 of the card, where the PSP gave one. */
  card_hash: string | null;
}

/**
 * Claims `sale` for `paymentId` unless another payment holds it, and answers the payment that holds it
 * now: `paymentId` itself (claimed now, or by an earlier try of the same call) or the other. One
 * INSERT IGNORE, then the holder read by the key (the row is immutable once written).
 */
export async function claimSale(db: Db, sale: PspSale, paymentId: string, card: SaleCard): Promise<string> {
  await db
    .insertInto('psp_sale_claims')
    .ignore()
    .values({ ...sale, payment_id: paymentId, ...card, claimed_at: new Date() })
    .execute();
  const holder = await db
    .selectFrom('psp_sale_claims')
    .select('payment_id')
    .where('mode', '=', sale.mode)
    .where('psp', '=', sale.psp)
    .where('terminal_id', '=', sale.terminal_id)
    .where('reference_id', '=', sale.reference_id)
    .executeTakeFirstOrThrow();
  return holder.payment_id;
}

/**
 * The sale of reference `referenceId` that payment `paymentId` holds, with the card the PSP named with
 * it: the sale that paid the payment, when `referenceId` is its recorded reference.
 */
export async function saleOfPayment(
  db: Db,
  paymentId: string,
  referenceId: string,
): Promise<(PspSale & SaleCard) | undefined> {
  const rows = await db
    .selectFrom('psp_sale_claims')
    .select(['mode', 'psp', 'terminal_id', 'reference_id', 'card_pan', 'card_hash'])
    .where('payment_id', '=', paymentId)
    .where('reference_id', '=', referenceId)
    .execute();
  return rows.find((row) => row.reference_id === referenceId);
}
