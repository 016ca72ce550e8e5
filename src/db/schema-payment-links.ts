/**
 * The table of payment links (migration 0038, docs/PAYMENTS.md#payment-links),
 * beside schema.ts, which lists it in the Database.
 */
import type { Defaulted } from './schema-columns.ts';

/** A merchant's payment link (migration 0038, docs/PAYMENTS.md#payment-links). */
export interface PaymentLinksTable {
  id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  slug: string;
  title: string;
  description: string;
  amount: number | null;
  min_amount: number | null;
  max_amount: number | null;
  /** The link's `collect`, JSON. */
  collect: string;
  expires_at: Date | null;
  max_payments: number | null;
  /** Payments started on the link: raised by one, under max_payments, in the update that reserves each. */
  payments_count: Defaulted<number>;
  active: Defaulted<number>;
  created_at: Date;
}
