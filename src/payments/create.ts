/**
 * Create (docs/PAYMENTS.md): the payment is recorded `created`, then its
 * workflow is started; both steps are idempotent under the Idempotency-Key.
 */
import { randomInt } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { cardHashKey, type Config } from '../config.ts';
import { isDuplicateKey } from '../db/errors.ts';
import { deleteUnstartedPayment, insertPaymentRow, paymentRowById } from '../db/payment-creation.ts';
import { paymentFromRow, rowFromNewPayment } from '../db/payments.ts';
import { keyedHashOfCard, restrictionFingerprint } from '../psps/card-hash.ts';
import { maskNationalCode, restrictionProblems } from '../domain/card-restriction.ts';
import { domainCovers, type AuthState, type KeyMode, type Merchant } from '../domain/merchant.ts';
import type { PaymentOrigin } from '../domain/compat-protocols.ts';
import { chargedAtCreate, customerFee, maskCardPan, type FeePlan } from '../domain/payment.ts';
import type { CreatePaymentRequest, Payment } from '../domain/payment-schemas.ts';
import {
  PAYMENT_WORKFLOW,
  paymentSearchAttributes,
  paymentWorkflowId,
  type PaymentWorkflowInput,
} from '../domain/payment-workflow.ts';
import { DomainError } from '../errors.ts';
import { temporalCall } from '../temporal/call.ts';
import { startWorkflowOnce } from '../temporal/client.ts';
import { idempotent, type IdempotentResult } from './idempotency.ts';
import type { PaymentServiceDeps } from './payment-calls.ts';
import { insertSplits } from '../db/splits.ts';
import { resolveSplits, withSplits } from './splits.ts';

const trackingCode = () => String(randomInt(100_000_000_000, 1_000_000_000_000));

export function paymentUrl(config: Pick<Config, 'PUBLIC_BASE_URL'>, id: string): string {
  return `${config.PUBLIC_BASE_URL}/pay/${id}`;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** callback_url must be https (http only for localhost in test mode) on one of the merchant's domains. */
export function checkCallbackUrl(callbackUrl: string, auth: AuthState): void {
  let url: URL;
  try {
    url = new URL(callbackUrl);
  } catch {
    throw new DomainError('validation_failed', 'callback_url must be an absolute URL.', [
      { path: 'callback_url', message: 'must be an absolute URL' },
    ]);
  }
  const host = url.hostname.toLowerCase();
  const plainHttpAllowed = auth.mode === 'test' && LOOPBACK_HOSTS.has(host);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && plainHttpAllowed)) {
    throw new DomainError(
      'callback_url_not_allowed',
      'callback_url must use https (http is allowed only for localhost in test mode).',
      [{ path: 'callback_url', message: 'must use https' }],
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new DomainError('callback_url_not_allowed', 'callback_url must not carry credentials.', [
      { path: 'callback_url', message: 'must not contain credentials' },
    ]);
  }
  if (!domainCovers(auth.merchant.domains, host)) {
    throw new DomainError(
      'callback_url_not_allowed',
      `callback_url's host ${host} is not one of your registered domains.`,
      [{ path: 'callback_url', message: 'host is not a registered domain' }],
    );
  }
  // A live payment sends the customer back only to a domain the merchant proved is theirs; test mode says so on the result page instead.
  if (auth.mode === 'live' && !domainCovers(auth.merchant.verifiedDomains, host)) {
    throw new DomainError(
      'callback_domain_unverified',
      `callback_url's host ${host} is on a domain you have not verified yet: verify it in the dashboard (Settings) first.`,
      [{ path: 'callback_url', message: 'host is not on a verified domain' }],
    );
  }
}

/** Starts the payment's workflow (PAYMENT_WORKFLOW). */
export async function startPaymentWorkflow(
  temporal: Client,
  input: PaymentWorkflowInput,
  taskQueue: string,
): Promise<void> {
  const p = input.payment;
  // A retried create finds the workflow it started before; a finished one is never started again.
  await temporalCall(temporal, () =>
    startWorkflowOnce(temporal, PAYMENT_WORKFLOW, {
      taskQueue,
      workflowId: paymentWorkflowId(p.id),
      args: [input],
      typedSearchAttributes: paymentSearchAttributes(p, input.merchant_id),
    }),
  );
}

/** Which protocol asks for a payment (docs/COMPAT.md), and the currency its amounts are in when it is not rials. */
export interface PaymentOriginOf {
  via: PaymentOrigin;
  protocolCurrency: 'IRT' | null;
}
const THIS_API: PaymentOriginOf = { via: 'api', protocolCurrency: null };

/**
 * What the customer will be charged at the bank for `request` (docs/PAYMENTS.md#who-pays-the-fee): the amount,
 * plus the fee fixed now from `feePlan` when the customer pays it. The one rule every way of creating a payment
 * goes through (this API, payment links, the ZarinPal and Zibal protocols, all by newPayment): the charged sum
 * may not pass AMOUNT_MAX, the largest sum the gateway asks its PSPs for, even when the amount alone is within it.
 * Refused with 422 `charged_amount_exceeds_max`, before anything is written.
 */
export function chargedAmountFor(
  request: Pick<CreatePaymentRequest, 'amount' | 'fee_payer'>,
  feePlan: FeePlan | undefined,
  config: Pick<Config, 'AMOUNT_MAX'>,
): number {
  const { charged, customer_fee: fee } = chargedAtCreate(request.amount, feePlan, request.fee_payer ?? 'merchant');
  if (charged > config.AMOUNT_MAX) {
    throw new DomainError(
      'charged_amount_exceeds_max',
      `The customer would be charged ${charged} rials (the amount ${request.amount} and the fee ${fee} they pay), more than the largest payment, ${config.AMOUNT_MAX} rials: ask for at most ${largestAmountCharged(config.AMOUNT_MAX, feePlan!)} rials, or pay the fee yourself (fee_payer merchant).`,
      [{ path: 'amount', message: `with the fee added must be at most ${config.AMOUNT_MAX}` }],
    );
  }
  return charged;
}

/** The largest amount whose customer-pays charge (amount + its fee) is within `max`: the fee grows with the amount, so it is searched for. */
function largestAmountCharged(max: number, plan: FeePlan): number {
  let low = 0;
  let high = max;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (mid + customerFee(mid, plan, 'customer') <= max) low = mid;
    else high = mid - 1;
  }
  return low;
}

/**
 * A payment as create records it: status `created`, a fresh tracking code, the page open for
 * PAYMENT_TTL_SECONDS; a customer-pays payment's fee fixed from `feePlan` and added to what the bank charges
 * (chargedAmountFor, refused above AMOUNT_MAX).
 */
export function newPayment(
  id: string,
  mode: KeyMode,
  request: CreatePaymentRequest,
  config: Pick<Config, 'PAYMENT_TTL_SECONDS' | 'AMOUNT_MAX'>,
  now: number,
  createdVia: PaymentOrigin = 'api',
  feePlan?: FeePlan,
  paymentLinkId: string | null = null,
): Payment {
  return paymentAsCreated(
    id,
    mode,
    request,
    config,
    now,
    chargedAmountFor(request, feePlan, config),
    createdVia,
    paymentLinkId,
  );
}

/** newPayment with its charged sum already worked out (chargedAmountFor): createPayment's, which checked it before its Idempotency-Key. */
function paymentAsCreated(
  id: string,
  mode: KeyMode,
  request: CreatePaymentRequest,
  config: Pick<Config, 'PAYMENT_TTL_SECONDS'>,
  now: number,
  charged: number,
  createdVia: PaymentOrigin,
  paymentLinkId: string | null,
): Payment {
  const feePayer = request.fee_payer ?? 'merchant';
  return {
    id,
    status: 'created',
    mode,
    amount: request.amount,
    fee: 0,
    fee_payer: feePayer,
    charged_amount: charged,
    refunded_amount: 0,
    currency: 'IRR',
    merchant_reference: request.merchant_reference,
    tracking_code: trackingCode(),
    reference_id: null,
    rrn: null,
    card_pan: null,
    description: request.description ?? '',
    callback_url: request.callback_url,
    metadata: request.metadata ?? {},
    failure: null,
    created_at: new Date(now).toISOString(),
    paid_at: null,
    verified_at: null,
    verify_deadline_at: null,
    expires_at: new Date(now + config.PAYMENT_TTL_SECONDS * 1000).toISOString(),
    settlement_status: mode === 'test' ? 'not_applicable' : 'pending',
    psp: null,
    created_via: createdVia,
    method: 'card',
    // Masked only: the full numbers never reach the record, the workflow's input or an answer.
    allowed_cards: request.allowed_cards === undefined ? null : request.allowed_cards.map(maskCardPan),
    national_code: request.national_code === undefined ? null : maskNationalCode(request.national_code),
    payment_link: paymentLinkId,
  };
}

/** Refuses a restriction the schema cannot judge (a card's Luhn digit, the national code's check digit): 422, nothing written. */
export function checkPayerRestriction(request: Pick<CreatePaymentRequest, 'allowed_cards' | 'national_code'>): void {
  const problems = restrictionProblems(request);
  if (problems.length > 0)
    throw new DomainError(
      'validation_failed',
      `The request body is invalid: ${problems.map((p) => `${p.path} ${p.message}`).join('; ')}`,
      problems,
    );
}

function withoutSplits(payment: Payment): Payment {
  const { splits: _shares, ...rest } = payment;
  return rest;
}

/** What the payment's workflow starts with: the windows come from this API's configuration. */
export function paymentWorkflowInput(
  payment: Payment,
  merchant: Pick<Merchant, 'id' | 'fee_plan'>,
  config: Pick<Config, 'VERIFY_WINDOW_SECONDS' | 'BANK_RECONFIRM_AFTER_SECONDS'> &
    Partial<Pick<Config, 'BANK_PENDING_LIMIT_SECONDS'>>,
): PaymentWorkflowInput {
  return {
    // The merchant's metadata and a payment's shares stay in MySQL: the workflow never needs them, and its history keeps no copy.
    payment: { ...withoutSplits(payment), metadata: {} },
    merchant_id: merchant.id,
    fee_plan: merchant.fee_plan,
    verify_window_ms: config.VERIFY_WINDOW_SECONDS * 1000,
    // The field keeps its first name: every running payment's history holds it.
    sandbox_delay_ms: config.BANK_RECONFIRM_AFTER_SECONDS * 1000,
    ...(config.BANK_PENDING_LIMIT_SECONDS === undefined
      ? {}
      : { bank_pending_limit_ms: config.BANK_PENDING_LIMIT_SECONDS * 1000 }),
  };
}

export async function createPayment(
  { db, temporal, config }: PaymentServiceDeps,
  auth: AuthState,
  request: CreatePaymentRequest,
  idempotencyKey: string | undefined,
  origin: PaymentOriginOf = THIS_API,
): Promise<IdempotentResult> {
  checkCallbackUrl(request.callback_url, auth);
  checkPayerRestriction(request);
  // The charged sum, worked out once for this create: refused here, above AMOUNT_MAX, before the Idempotency-Key is taken.
  const charged = chargedAmountFor(request, auth.merchant.fee_plan, config);
  // Refused before anything is written: a malformed share, shares above what the merchant receives, an unapproved IBAN.
  const splits = await resolveSplits(db, auth.merchant, request);
  const scope = { owner: auth, operation: 'create_payment' };
  // The stored fingerprint of the body never holds a card or national code a guess could be checked against.
  const fingerprinted = restrictionFingerprint(cardHashKey(config), request);
  const cardHashes = request.allowed_cards?.map((card) => keyedHashOfCard(cardHashKey(config), card)) ?? null;
  return idempotent(
    db,
    scope,
    idempotencyKey,
    fingerprinted,
    config.IDEMPOTENCY_TTL_SECONDS,
    async (paymentId, fresh) => {
      // A retry under the same Idempotency-Key may find the row its first attempt wrote; a fresh id cannot.
      const existing = fresh ? undefined : await paymentRowById(db, paymentId);
      let payment = existing === undefined ? undefined : paymentFromRow(existing);
      const inserted = payment === undefined;
      const now = Date.now();
      for (let attempt = 0; payment === undefined; attempt++) {
        const candidate = paymentAsCreated(paymentId, auth.mode, request, config, now, charged, origin.via, null);
        try {
          const row = rowFromNewPayment(
            candidate,
            auth.merchant.id,
            request.mobile ?? null,
            origin.protocolCurrency,
            cardHashes,
          );
          // The payment and its shares together: verify finds the shares whenever it finds the payment.
          // Without shares the one insert needs no transaction (two round trips fewer on every create).
          if (splits.length === 0) await insertPaymentRow(db, row);
          else
            await db.transaction().execute(async (trx) => {
              await insertPaymentRow(trx, row);
              await insertSplits(trx, paymentId, splits);
            });
        } catch (error) {
          // A tracking code collision: draw another (twelve digits make it rare).
          if (isDuplicateKey(error) && attempt < 5) continue;
          throw error;
        }
        // DATETIME(3) keeps the milliseconds, so the row reads back exactly as written: no need to select it.
        payment = candidate;
      }
      try {
        await startPaymentWorkflow(
          temporal,
          paymentWorkflowInput(payment, auth.merchant, config),
          config.TEMPORAL_TASK_QUEUE,
        );
      } catch (error) {
        // Without an idempotency key nobody can finish this payment: take the row back.
        if (inserted && idempotencyKey === undefined) {
          await deleteUnstartedPayment(db, paymentId).catch(() => undefined);
        }
        throw error;
      }
      return {
        status: 201,
        // A payment inserted here without shares has none to read back; a retry's row may have some.
        body: {
          payment: inserted && splits.length === 0 ? payment : await withSplits(db, payment),
          payment_url: paymentUrl(config, payment.id),
        },
      };
    },
  );
}
