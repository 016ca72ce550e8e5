/**
 * ZarinPal's v4 payment protocol on Dargah's payments (docs/COMPAT.md#zarinpal): every operation is
 * one of the payment services the API calls, with ZarinPal's names, units and codes around it. No
 * rule of a payment is decided here: the services and the payment's workflow decide, as for the API.
 */
import { createHash } from 'node:crypto';
import {
  inProtocolUnit,
  paymentIdOfAuthority,
  RIALS_PER_UNIT,
  ZARINPAL_REVERSE_WINDOW_MS,
  zarinpalAuthority,
  zarinpalInquiryStatus,
  type ZarinpalCurrency,
} from '../domain/compat-protocols.ts';
import type { ZarinpalRequest } from '../domain/compat-schemas.ts';
import type { AuthState } from '../domain/merchant.ts';
import { computeFee, isVerified } from '../domain/payment.ts';
import type { Payment } from '../domain/payment-schemas.ts';
import { DomainError } from '../errors.ts';
import { createRefund } from '../refunds/service.ts';
import { requireScope } from '../merchants/keys.ts';
import {
  createPayment,
  listPayments,
  reversePayment,
  verifyPayment,
  type PaymentServiceDeps,
} from '../payments/service.ts';
import { claimCapturedAnswer, zarinpalPaymentOf } from '../payments/compat-records.ts';
import { ProtocolRefusal } from './protocol-errors.ts';

/** ZarinPal's success answer: `{ data, errors: [] }`. */
const success = <T extends object>(data: T) => ({
  data: { code: 100, message: 'Success', ...data },
  errors: [] as never[],
});

/** The merchant's order reference when the request names none: ZarinPal needs none, Dargah's record wants one. */
const NO_ORDER_ID = 'zarinpal';

export async function zarinpalRequest(deps: PaymentServiceDeps, caller: AuthState, body: ZarinpalRequest) {
  const currency: ZarinpalCurrency = body.currency ?? 'IRR';
  const amount = body.amount * RIALS_PER_UNIT[currency];
  if (amount < deps.config.AMOUNT_MIN || amount > deps.config.AMOUNT_MAX) {
    const range = `${inProtocolUnit(deps.config.AMOUNT_MIN, currency)} to ${Math.floor(deps.config.AMOUNT_MAX / RIALS_PER_UNIT[currency])} ${currency}`;
    throw new DomainError('validation_failed', `amount must be ${range}.`, [
      { path: 'amount', message: `must be ${range}` },
    ]);
  }
  const mobile = body.metadata?.mobile ?? body.mobile;
  const { body: created } = await createPayment(
    deps,
    caller,
    {
      amount,
      callback_url: body.callback_url,
      merchant_reference: body.metadata?.order_id ?? NO_ORDER_ID,
      description: body.description,
      ...(mobile === undefined ? {} : { mobile }),
    },
    undefined,
    { via: 'zarinpal', protocolCurrency: currency === 'IRT' ? 'IRT' : null },
  );
  const payment = (created as { payment: Payment }).payment;
  return success({
    authority: zarinpalAuthority(payment),
    fee_type: 'Merchant',
    fee: inProtocolUnit(computeFee(amount, caller.merchant.fee_plan), currency),
  });
}

/** The caller's payment an authority names, with the currency its ZarinPal amounts are in; -54 when there is none. */
async function paymentOf(
  deps: PaymentServiceDeps,
  caller: AuthState,
  authority: string,
): Promise<{ payment: Payment; currency: ZarinpalCurrency }> {
  const id = paymentIdOfAuthority(authority);
  const found = id === undefined ? undefined : await zarinpalPaymentOf(deps.db, id, caller);
  if (found === undefined) throw new DomainError('payment_not_found', 'Invalid authority.');
  return found;
}

/**
 * ZarinPal's card_hash is a hash of the whole card; Dargah never sees the whole number, so it is the SHA-256 of the
 * masked one, which about 100,000 cards share (six hidden digits, one of them the Luhn digit): said so in COMPAT.md and
 * the OpenAPI description, so that no plugin takes it for the card's identity. The PSP's own hash of the card (SEP's
 * HashedPan) is not recorded on the payment, so no keyed hash of it can be answered here.
 */
const cardHash = (cardPan: string | null) =>
  cardPan === null ? '' : createHash('sha256').update(cardPan).digest('hex').toUpperCase();

/**
 * ZarinPal's ref_id is a number: the PSP's reference where it is digits (Mellat's SaleReferenceId),
 * else the RRN Shaparak gave the payment (SEP's RefNum is a Base64-like receipt, docs/psps/sep.md,
 * no number), else the payment's tracking code.
 */
const zarinpalRefId = (p: Pick<Payment, 'reference_id' | 'rrn' | 'tracking_code'>): number =>
  Number([p.reference_id, p.rrn, p.tracking_code].find((v) => v !== null && /^[0-9]{1,15}$/.test(v)) ?? 0);

/**
 * verify.json: 100 once, 101 for every other verify of the payment (never a second capture). Plugins
 * ship the order on 100, so of several verifies at the same instant (all of which find it paid, and
 * all of which the workflow answers verified) only the one that claims the answer on the record says
 * 100 (claimCompatVerifyAnswer).
 */
export async function zarinpalVerify(
  deps: PaymentServiceDeps,
  caller: AuthState,
  body: { amount: number; authority: string },
) {
  const { payment, currency } = await paymentOf(deps, caller, body.authority);
  const before = payment.status;
  const verified = await verifyPayment(deps, caller, payment.id, body.amount * RIALS_PER_UNIT[currency]);
  const code = !isVerified(before) && (await claimCapturedAnswer(deps.db, payment.id)) ? 100 : 101;
  return {
    data: {
      code,
      message: code === 100 ? 'Paid' : 'Verified',
      ref_id: zarinpalRefId(verified),
      card_pan: verified.card_pan ?? '',
      card_hash: cardHash(verified.card_pan),
      fee_type: 'Merchant',
      fee: inProtocolUnit(verified.fee, currency),
    },
    errors: [],
  };
}

/** ZarinPal's date: Tehran-agnostic `YYYY-MM-DD HH:MM:SS` in UTC. */
const zarinpalDate = (iso: string) => iso.slice(0, 19).replace('T', ' ');

/** unVerified.json: the caller's paid payments nobody has verified yet (ZarinPal lists up to 100). */
export async function zarinpalUnverified(deps: PaymentServiceDeps, caller: AuthState) {
  const page = await listPayments(deps.db, caller, { status: 'paid', limit: 100 });
  const rows = await Promise.all(page.data.map((p) => paymentOf(deps, caller, zarinpalAuthority(p))));
  return success({
    authorities: rows.map(({ payment, currency }) => ({
      authority: zarinpalAuthority(payment),
      amount: inProtocolUnit(payment.amount, currency),
      callback_url: payment.callback_url,
      referer: '',
      date: zarinpalDate(payment.paid_at ?? payment.created_at),
    })),
  });
}

/** inquiry.json: where the payment stands, in ZarinPal's words. */
export async function zarinpalInquiry(deps: PaymentServiceDeps, caller: AuthState, body: { authority: string }) {
  const { payment } = await paymentOf(deps, caller, body.authority);
  return success({ status: zarinpalInquiryStatus(payment.status) });
}

/**
 * reverse.json: the customer's money goes back. A paid, unverified payment is reversed (Dargah's
 * reverse); a verified one, within ZarinPal's 30 minutes of its verify, is refunded in full, once
 * (the refund's idempotency key is the payment's); a repeat answers 100 again.
 */
export async function zarinpalReverse(deps: PaymentServiceDeps, caller: AuthState, body: { authority: string }) {
  const { payment } = await paymentOf(deps, caller, body.authority);
  if (payment.status === 'paid' || payment.status === 'reversed') {
    await reversePayment(deps, caller, payment.id);
    return success({});
  }
  if (payment.status === 'verified' || payment.status === 'refunded') {
    if (
      payment.status === 'verified' &&
      Date.now() - Date.parse(payment.verified_at ?? '') > ZARINPAL_REVERSE_WINDOW_MS
    ) {
      throw new ProtocolRefusal(-63, 'Maximum time for reverse this session is expired.', 409);
    }
    // A refund: a live ZarinPal value holds no `refunds` scope (docs/COMPAT.md), so only test mode refunds here.
    requireScope(caller, 'refunds');
    await createRefund(deps, caller, payment.id, { reason: 'zarinpal reverse.json' }, `zarinpal-reverse:${payment.id}`);
    return success({});
  }
  throw new ProtocolRefusal(-61, 'Session is not in success status.', 409);
}
