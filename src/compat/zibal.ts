/**
 * Zibal's v1 payment protocol on Dargah's payments (docs/COMPAT.md#zibal): /v1/request, /v1/verify
 * and /v1/inquiry are the payment services the API calls, in Zibal's names and codes. Zibal's
 * amounts are rials, as Dargah's are; its trackId is sixteen random digits stored on the payment
 * (zibal_track_id), not its tracking code, since /start/{trackId} answers anyone.
 */
import { randomBytes } from 'node:crypto';
import { ZIBAL_TRACK_ID_PATTERN, zibalStatus, zibalTrackIdFromBytes } from '../domain/compat-protocols.ts';
import type { ZibalRequest } from '../domain/compat-schemas.ts';
import type { AuthState } from '../domain/merchant.ts';
import { isVerified } from '../domain/payment.ts';
import type { Payment } from '../domain/payment-schemas.ts';
import { DomainError } from '../errors.ts';
import { assignZibalTrackId, claimCapturedAnswer, zibalPaymentOf } from '../payments/compat-records.ts';
import { createPayment, verifyPayment, type PaymentServiceDeps } from '../payments/service.ts';
import { ProtocolRefusal } from './protocol-errors.ts';

/** The merchant's order reference when the request names none: Zibal needs none, Dargah's record wants one. */
const NO_ORDER_ID = 'zibal';

export async function zibalRequest(deps: PaymentServiceDeps, caller: AuthState, body: ZibalRequest) {
  // Zibal's own codes for an amount out of bounds (its refusals are HTTP 200).
  if (body.amount < deps.config.AMOUNT_MIN)
    throw new ProtocolRefusal(105, `amount must be at least ${deps.config.AMOUNT_MIN} rials.`, 200);
  if (body.amount > deps.config.AMOUNT_MAX)
    throw new ProtocolRefusal(113, `amount must be at most ${deps.config.AMOUNT_MAX} rials.`, 200);
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
  return { result: 100, message: 'success', trackId: Number(await newTrackId(deps, payment.id)) };
}

/** Draws the payment's trackId and stores it; a collision (about one in 10^15 per payment) draws again. */
async function newTrackId(deps: PaymentServiceDeps, paymentId: string): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const trackId = zibalTrackIdFromBytes(randomBytes(8));
    if (await assignZibalTrackId(deps.db, paymentId, trackId)) return trackId;
    if (attempt >= 3) throw new Error('no free Zibal trackId after 4 draws');
  }
}

/** Zibal payments made before trackIds were drawn kept their twelve-digit tracking code as trackId. */
const TRACKING_CODE_TRACK_ID = /^[0-9]{12}$/;

/** The caller's payment a trackId names (one Zibal's /v1/request made), with that trackId; 203 when there is none. */
async function paymentOf(
  deps: PaymentServiceDeps,
  caller: AuthState,
  trackId: number | string,
): Promise<{ payment: Payment; trackId: string }> {
  const code = String(trackId);
  const payment =
    ZIBAL_TRACK_ID_PATTERN.test(code) || TRACKING_CODE_TRACK_ID.test(code)
      ? await zibalPaymentOf(deps.db, code, caller)
      : undefined;
  if (payment === undefined) throw new DomainError('payment_not_found', 'trackId is not valid.');
  return { payment, trackId: code };
}

function answer(result: number, message: string, payment: Payment, trackId: string) {
  return {
    result,
    message,
    trackId: Number(trackId),
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

/**
 * /v1/verify: Zibal's verify names no amount, so the payment's own is the one confirmed; 100 once,
 * 201 for every other verify of the payment (never a second capture), 202 when it is not paid. Of
 * several verifies at the same instant only the one that claims the answer on the record says 100
 * (claimCapturedAnswer): plugins ship the order on 100.
 */
export async function zibalVerify(deps: PaymentServiceDeps, caller: AuthState, body: { trackId: number | string }) {
  const { payment, trackId } = await paymentOf(deps, caller, body.trackId);
  if (isVerified(payment.status)) return answer(201, 'already verified', payment, trackId);
  const verified = await verifyPayment(deps, caller, payment.id, payment.amount);
  if (!(await claimCapturedAnswer(deps.db, payment.id))) return answer(201, 'already verified', verified, trackId);
  return answer(100, 'success', verified, trackId);
}

/** /v1/inquiry: where the payment stands, with Zibal's status. */
export async function zibalInquiry(deps: PaymentServiceDeps, caller: AuthState, body: { trackId: number | string }) {
  const { payment, trackId } = await paymentOf(deps, caller, body.trackId);
  return answer(100, 'success', payment, trackId);
}
