/**
 * What ZarinPal's and Zibal's protocols (docs/COMPAT.md, src/compat/) read and mark on a payment's
 * record beyond the payment operations every caller shares: a payment found by the protocol's own
 * handle (ZarinPal's authority names the payment id; Zibal's trackId is drawn and stored), the
 * currency ZarinPal's caller asked in, and the one "captured" answer among a payment's verifies.
 */
import { zibalPaymentOfTenant } from '../db/compat-payments.ts';
import type { Db } from '../db/database.ts';
import {
  claimCompatVerifyAnswer,
  findPayment,
  paymentFromRow,
  paymentIdByZibalTrackId,
  setZibalTrackId,
} from '../db/payments.ts';
import type { Tenant } from '../domain/merchant.ts';
import type { Payment } from '../domain/payment-schemas.ts';

/** The tenant's payment of a ZarinPal authority (its payment id), with the currency its request named; undefined: not the tenant's. */
export async function zarinpalPaymentOf(
  db: Db,
  paymentId: string,
  tenant: Tenant,
): Promise<{ payment: Payment; currency: 'IRR' | 'IRT' } | undefined> {
  const row = await findPayment(db, paymentId, tenant);
  if (row === undefined) return undefined;
  return { payment: paymentFromRow(row), currency: row.protocol_currency === 'IRT' ? 'IRT' : 'IRR' };
}

/** The tenant's payment Zibal's /v1/request made with this trackId; undefined: not the tenant's. */
export async function zibalPaymentOf(db: Db, trackId: string, tenant: Tenant): Promise<Payment | undefined> {
  const row = await zibalPaymentOfTenant(db, trackId, tenant);
  return row === undefined ? undefined : paymentFromRow(row);
}

/** The id of the payment with this Zibal trackId, whoever's it is: for the customer's step that names only it (/start/{trackId}). */
export function paymentIdOfZibalTrackId(db: Db, trackId: string): Promise<string | undefined> {
  return paymentIdByZibalTrackId(db, trackId);
}

/** Gives a Zibal payment its trackId; false when another payment has it already (draw again). */
export function assignZibalTrackId(db: Db, paymentId: string, trackId: string): Promise<boolean> {
  return setZibalTrackId(db, paymentId, trackId);
}

/**
 * Claims the one "captured" answer (ZarinPal's and Zibal's 100) among the verifies of a payment on
 * those protocols: true for exactly one caller ever; the others answer "verified before".
 */
export function claimCapturedAnswer(db: Db, paymentId: string): Promise<boolean> {
  return claimCompatVerifyAnswer(db, paymentId);
}
