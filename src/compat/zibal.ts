/**
 * Zibal's v1 payment protocol on Dargah's payments (docs/COMPAT.md#zibal): /v1/request, /v1/verify
 * and /v1/inquiry are the payment services the API calls, in Zibal's names and codes. Zibal's
 * amounts are rials, as Dargah's are; its trackId is the payment's tracking code.
 */
import { zibalStatus, zibalTrackId } from '../domain/compat-protocols.ts';
import type { ZibalRequest } from '../domain/compat-schemas.ts';
import type { AuthState } from '../domain/merchant.ts';
import type { Payment } from '../domain/payment-schemas.ts';
import { DomainError } from '../errors.ts';
import { createPayment, listPayments, verifyPayment, type PaymentServiceDeps } from '../payments/service.ts';
import { ProtocolRefusal } from './protocol-errors.ts';

/** The merchant's order reference when the request names none: Zibal needs none, Dargah's record wants one. */
const NO_ORDER_ID = 'zibal';

export async function zibalRequest(deps: PaymentServiceDeps, caller: AuthState, body: ZibalRequest) {
  // Zibal's own codes for an amount out of bounds (its refusals are HTTP 200).
  if (body.amount < deps.config.AMOUNT_MIN) throw new ProtocolRefusal(105, `amount must be at least ${deps.config.AMOUNT_MIN} rials.`, 200);
  if (body.amount > deps.config.AMOUNT_MAX) throw new ProtocolRefusal(113, `amount must be at most ${deps.config.AMOUNT_MAX} rials.`, 200);
  const { body: created } = await createPayment(
    deps,
    caller,
    {
      amount: body.amount,
      callback_url: body.callbackUrl,
      merchant_reference: body.orderId === undefined ? NO_ORDER_ID : String(body.orderId),
      ...(body.description === undefined ? {} : { description: body.description }),
      ...(body.mobile === undefined ? {} : { mobile: body.mobile }),
    },
    undefined,
    { via: 'zibal', protocolCurrency: null },
  );
  const payment = (created as { payment: Payment }).payment;
  return { result: 100, message: 'success', trackId: Number(zibalTrackId(payment)) };
}

/** The caller's payment a trackId names; 203 when there is none. */
async function paymentOf(deps: PaymentServiceDeps, caller: AuthState, trackId: number | string): Promise<Payment> {
  const code = String(trackId);
  const found = /^[0-9]{12}$/.test(code) ? (await listPayments(deps.db, caller, { tracking_code: code, limit: 1 })).data[0] : undefined;
  if (found === undefined) throw new DomainError('payment_not_found', 'trackId is not valid.');
  return found;
}

function answer(result: number, message: string, payment: Payment) {
  return {
    result,
    message,
    trackId: Number(zibalTrackId(payment)),
    status: zibalStatus(payment.status),
    amount: payment.amount,
    orderId: payment.merchant_reference,
    description: payment.description,
    cardNumber: payment.card_pan,
    refNumber: payment.rrn,
    paidAt: payment.paid_at,
    verifiedAt: payment.verified_at,
    createdAt: payment.created_at,
  };
}

const ALREADY_VERIFIED = new Set<Payment['status']>(['verified', 'partially_refunded', 'refunded']);

/**
 * /v1/verify: Zibal's verify names no amount, so the payment's own is the one confirmed; 100 the
 * first time, 201 for a payment verified before (never a second capture), 202 when it is not paid.
 */
export async function zibalVerify(deps: PaymentServiceDeps, caller: AuthState, body: { trackId: number | string }) {
  const payment = await paymentOf(deps, caller, body.trackId);
  if (ALREADY_VERIFIED.has(payment.status)) return answer(201, 'already verified', payment);
  return answer(100, 'success', await verifyPayment(deps, caller, payment.id, payment.amount));
}

/** /v1/inquiry: where the payment stands, with Zibal's status. */
export async function zibalInquiry(deps: PaymentServiceDeps, caller: AuthState, body: { trackId: number | string }) {
  return answer(100, 'success', await paymentOf(deps, caller, body.trackId));
}
