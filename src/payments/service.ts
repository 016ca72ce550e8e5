/**
 * What the API does with payments. The workflow decides every transition;
 * this module records a new payment, starts its workflow, reads records, and
 * forwards verify and the bank's result to the workflow.
 */
import { randomInt } from 'node:crypto';
import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { UpdateDefinition } from '@temporalio/common';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { isDuplicateKey } from '../db/errors.ts';
import { instant } from '../db/filters.ts';
import { keyedPage } from '../db/pagination.ts';
import { findPayment, paymentFromRow, rowFromNewPayment } from '../db/payments.ts';
import { scopedTo } from '../db/tenant.ts';
import type { AuthState, KeyMode, Merchant, Tenant } from '../domain/merchant.ts';
import { cancelRefusal, canceledByMerchant, mergeMetadata, reverseRefusal, verifyRefusal, type BankOutcome, type PaymentStatus } from '../domain/payment.ts';
import {
  METADATA_LIMITS,
  type CreatePaymentRequest,
  type ListPaymentsQuery,
  type Metadata,
  type Payment,
  type UpdatePaymentRequest,
} from '../domain/payment-schemas.ts';
import {
  advanceClockUpdate,
  bankCallbackUpdate,
  bankResultSignal,
  bankTokenUpdate,
  cancelUpdate,
  type BankCallback,
  PAYMENT_WORKFLOW,
  paymentWorkflowId,
  reverseUpdate,
  paymentSearchAttributes,
  verifyUpdate,
  type PaymentWorkflowInput,
} from '../domain/payment-workflow.ts';
import { commaSeparated } from '../domain/schema.ts';
import { DomainError } from '../errors.ts';
import { temporalCall, updateRefusal } from '../temporal/call.ts';
import { WorkflowUpdateStage } from '@temporalio/client';
import { chooseOnSimulator } from '../adapters/bank-customer.ts';
import { BankUnavailableError } from '../adapters/bank-protocol.ts';
import { startWorkflowOnce } from '../temporal/client.ts';
import { idempotent, type IdempotentResult } from './idempotency.ts';

export interface PaymentServiceDeps {
  db: Db;
  temporal: Client;
  config: Config;
}

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
    throw new DomainError('validation_failed', 'callback_url must be an absolute URL.', [{ path: 'callback_url', message: 'must be an absolute URL' }]);
  }
  const host = url.hostname.toLowerCase();
  const plainHttpAllowed = auth.mode === 'test' && LOOPBACK_HOSTS.has(host);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && plainHttpAllowed)) {
    throw new DomainError('callback_url_not_allowed', 'callback_url must use https (http is allowed only for localhost in test mode).', [
      { path: 'callback_url', message: 'must use https' },
    ]);
  }
  if (url.username !== '' || url.password !== '') {
    throw new DomainError('callback_url_not_allowed', 'callback_url must not carry credentials.', [{ path: 'callback_url', message: 'must not contain credentials' }]);
  }
  const bare = host === '127.0.0.1' || host === '[::1]' ? 'localhost' : host;
  const registered = auth.merchant.domains.some((domain) => bare === domain || bare.endsWith(`.${domain}`));
  if (!registered) {
    throw new DomainError('callback_url_not_allowed', `callback_url's host ${host} is not one of your registered domains.`, [
      { path: 'callback_url', message: 'host is not a registered domain' },
    ]);
  }
}

/** Starts the payment's workflow (of PAYMENT_WORKFLOW's type; a test may start the first type, as earlier versions did). */
export async function startPaymentWorkflow(temporal: Client, input: PaymentWorkflowInput, taskQueue: string, workflowType = PAYMENT_WORKFLOW): Promise<void> {
  const p = input.payment;
  // A retried create finds the workflow it started before; a finished one is never started again.
  await temporalCall(temporal, () =>
    startWorkflowOnce(temporal, workflowType, {
      taskQueue,
      workflowId: paymentWorkflowId(p.id),
      args: [input],
      typedSearchAttributes: paymentSearchAttributes(p, input.merchant_id),
    }),
  );
}

/** A payment as create records it: status `created`, a fresh tracking code, the page open for PAYMENT_TTL_SECONDS. */
export function newPayment(
  id: string,
  mode: KeyMode,
  request: CreatePaymentRequest,
  config: Pick<Config, 'PAYMENT_TTL_SECONDS'>,
  now: number,
): Payment {
  return {
    id,
    status: 'created',
    mode,
    amount: request.amount,
    fee: 0,
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
  };
}

/** What the payment's workflow starts with: the windows come from this API's configuration. */
export function paymentWorkflowInput(
  payment: Payment,
  merchant: Pick<Merchant, 'id' | 'fee_plan'>,
  config: Pick<Config, 'VERIFY_WINDOW_SECONDS' | 'SANDBOX_DELAY_SECONDS' | 'REFUND_WINDOW_SECONDS'> & Partial<Pick<Config, 'BANK_PENDING_LIMIT_SECONDS'>>,
): PaymentWorkflowInput {
  return {
    // The merchant's metadata stays in MySQL: the workflow never needs it, and its history keeps no copy.
    payment: { ...payment, metadata: {} },
    merchant_id: merchant.id,
    fee_plan: merchant.fee_plan,
    verify_window_ms: config.VERIFY_WINDOW_SECONDS * 1000,
    sandbox_delay_ms: config.SANDBOX_DELAY_SECONDS * 1000,
    ...(config.BANK_PENDING_LIMIT_SECONDS === undefined ? {} : { bank_pending_limit_ms: config.BANK_PENDING_LIMIT_SECONDS * 1000 }),
    refund_window_ms: config.REFUND_WINDOW_SECONDS * 1000,
  };
}

export async function createPayment(
  { db, temporal, config }: PaymentServiceDeps,
  auth: AuthState,
  request: CreatePaymentRequest,
  idempotencyKey: string | undefined,
): Promise<IdempotentResult> {
  checkCallbackUrl(request.callback_url, auth);
  const scope = { owner: auth, operation: 'create_payment' };
  return idempotent(db, scope, idempotencyKey, request, config.IDEMPOTENCY_TTL_SECONDS, async (paymentId, fresh) => {
    // A retry under the same Idempotency-Key may find the row its first attempt wrote; a fresh id cannot.
    const existing = fresh ? undefined : await db.selectFrom('payments').selectAll().where('id', '=', paymentId).executeTakeFirst();
    let payment = existing === undefined ? undefined : paymentFromRow(existing);
    const inserted = payment === undefined;
    const now = Date.now();
    for (let attempt = 0; payment === undefined; attempt++) {
      const candidate = newPayment(paymentId, auth.mode, request, config, now);
      try {
        await db.insertInto('payments').values(rowFromNewPayment(candidate, auth.merchant.id, request.mobile ?? null)).execute();
      } catch (error) {
        // A tracking code collision: draw another (twelve digits make it rare).
        if (isDuplicateKey(error) && attempt < 5) continue;
        throw error;
      }
      // DATETIME(3) keeps the milliseconds, so the row reads back exactly as written: no need to select it.
      payment = candidate;
    }
    try {
      await startPaymentWorkflow(temporal, paymentWorkflowInput(payment, auth.merchant, config), config.TEMPORAL_TASK_QUEUE);
    } catch (error) {
      // Without an idempotency key nobody can finish this payment: take the row back.
      if (inserted && idempotencyKey === undefined) {
        await db.deleteFrom('payments').where('id', '=', paymentId).where('version', '=', 1).execute().catch(() => undefined);
      }
      throw error;
    }
    return { status: 201, body: { payment, payment_url: paymentUrl(config, payment.id) } };
  });
}

export async function getPayment(db: Db, auth: Tenant, id: string): Promise<Payment> {
  const row = await findPayment(db, id, auth);
  if (row === undefined) throw new DomainError('payment_not_found', `No payment ${id}.`);
  return paymentFromRow(row);
}

/**
 * Verify (docs/PAYMENTS.md#verify). The record answers every case whose outcome it already
 * fixes; only a paid payment with the right amount before its deadline goes
 * to the workflow, which makes the one transition even under concurrent calls.
 */
export async function verifyPayment(deps: PaymentServiceDeps, auth: AuthState, id: string, amount: number): Promise<Payment> {
  const recorded = await getPayment(deps.db, auth, id);
  const refusal = verifyRefusal(recorded, amount, Date.now());
  if (refusal !== undefined) throw new DomainError(refusal.code, refusal.message);
  if (recorded.status !== 'paid') return recorded; // verified before with this amount: same answer

  try {
    return await updateWorkflow(deps, recorded, verifyUpdate, [{ amount }]);
  } catch (error) {
    if (error instanceof DomainError) throw error;
    // The workflow may have finished meanwhile (reversed at the deadline): the record has the answer.
    const now = await getPayment(deps.db, auth, id);
    if (now.status !== 'paid') {
      const late = verifyRefusal(now, amount, Date.now());
      if (late !== undefined) throw new DomainError(late.code, late.message);
      return now;
    }
    throw error;
  }
}

/**
 * Sends one of the payment's Updates and answers with the payment the
 * workflow leaves, shown with the merchant's metadata from the record (the
 * workflow does not carry it). The workflow's typed refusal becomes a
 * DomainError; a workflow that has already finished throws
 * WorkflowNotFoundError, for the caller to answer from the record.
 */
async function updateWorkflow<Args extends [] | [unknown]>(
  { temporal }: Pick<PaymentServiceDeps, 'temporal'>,
  recorded: Payment,
  update: UpdateDefinition<Payment, Args>,
  args: Args,
): Promise<Payment> {
  const handle = temporal.workflow.getHandle(paymentWorkflowId(recorded.id));
  try {
    // The SDK types executeUpdate by arity (with or without arguments), so the two are called apart.
    const result = await temporalCall(temporal, () =>
      args.length === 0 ? handle.executeUpdate<Payment, []>(update.name) : handle.executeUpdate<Payment, [unknown]>(update.name, { args }),
    );
    return { ...result, metadata: recorded.metadata };
  } catch (error) {
    // The bank did not answer in time (settlement at verify): 503, and the same request again completes it.
    if (error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure && error.cause.type === 'bank_unavailable') {
      throw new DomainError('service_unavailable', error.cause.message);
    }
    throw updateRefusal(error) ?? error;
  }
}

/**
 * An Update on a payment whose workflow may have finished: the record
 * decides then. `answer` gives the answer the record fixes (or undefined
 * when only the workflow can decide).
 */
async function changePayment<Args extends [] | [unknown]>(
  deps: PaymentServiceDeps,
  auth: AuthState,
  id: string,
  update: UpdateDefinition<Payment, Args>,
  args: Args,
  answer: (recorded: Payment) => Payment | undefined,
): Promise<Payment> {
  const recorded = await getPayment(deps.db, auth, id);
  const known = answer(recorded);
  if (known !== undefined) return known;
  try {
    return await updateWorkflow(deps, recorded, update, args);
  } catch (error) {
    if (!(error instanceof WorkflowNotFoundError)) throw error;
    const now = await getPayment(deps.db, auth, id);
    return answer(now) ?? now;
  }
}

/** Cancel (docs/PAYMENTS.md#cancel-and-reverse): only a created payment; a repeat answers the same. */
export function cancelPayment(deps: PaymentServiceDeps, auth: AuthState, id: string): Promise<Payment> {
  return changePayment(deps, auth, id, cancelUpdate, [], (p) => {
    const refusal = cancelRefusal(p);
    if (refusal !== undefined) throw new DomainError(refusal.code, refusal.message);
    return canceledByMerchant(p) ? p : undefined;
  });
}

/** Reverse now (docs/PAYMENTS.md#cancel-and-reverse): only a paid, unverified payment; a repeat answers the same. */
export function reversePayment(deps: PaymentServiceDeps, auth: AuthState, id: string): Promise<Payment> {
  return changePayment(deps, auth, id, reverseUpdate, [], (p) => {
    const refusal = reverseRefusal(p);
    if (refusal !== undefined) throw new DomainError(refusal.code, refusal.message);
    return p.status === 'reversed' ? p : undefined;
  });
}

function testModeOnly(auth: AuthState): void {
  if (auth.mode !== 'test') throw new DomainError('test_mode_only', 'Test helpers take test keys only; use a sk_test_ key.');
}

/** Where the bank sends the customer back: our return route (docs/BANK.md). */
export const bankReturnUrl = (config: Pick<Config, 'PUBLIC_BASE_URL'>, id: string) => `${config.PUBLIC_BASE_URL}/pay/${id}/return`;

/** The customer goes to the bank: the payment's workflow asks the bank for a token; answers the bank's page for the customer. */
export async function requestBankPage({ temporal, config }: Pick<PaymentServiceDeps, 'temporal' | 'config'>, paymentId: string): Promise<string> {
  const handle = temporal.workflow.getHandle(paymentWorkflowId(paymentId));
  try {
    const token = await temporalCall(temporal, () => handle.executeUpdate(bankTokenUpdate, { args: [{ redirect_url: bankReturnUrl(config, paymentId) }] }));
    return token.url;
  } catch (error) {
    // Its workflow ended meanwhile (canceled, expired): no longer payable.
    if (error instanceof WorkflowNotFoundError) throw new DomainError('payment_not_payable', 'The payment can no longer be paid.');
    throw updateRefusal(error) ?? error;
  }
}

/** The fields of the bank's post to our return route, checked for shape only (the workflow confirms everything with the bank). */
export function bankCallbackFrom(paymentId: string, form: URLSearchParams): BankCallback | undefined {
  const state = form.get('State') ?? '';
  const refNum = form.get('RefNum') ?? '';
  const resNum = form.get('ResNum') ?? '';
  const token = form.get('Token') ?? '';
  if (!/^[A-Za-z]{1,40}$/.test(state) || !/^[0-9]{0,40}$/.test(refNum) || resNum !== paymentId || !/^[A-Za-z0-9_-]{1,64}$/.test(token)) return undefined;
  if (state === 'OK' && refNum === '') return undefined;
  return { state, ref_num: refNum, res_num: resNum, token };
}

/**
 * The bank's callback to the payment's workflow. `settled`: wait until the workflow has
 * confirmed with the bank (the test helper); else only until the workflow has accepted it
 * (the customer's browser goes on to the result page, which waits for the answer).
 */
export async function submitBankCallback(temporal: Client, paymentId: string, callback: BankCallback, settled: boolean): Promise<Payment | undefined> {
  const handle = temporal.workflow.getHandle(paymentWorkflowId(paymentId));
  try {
    if (settled) return await temporalCall(temporal, () => handle.executeUpdate(bankCallbackUpdate, { args: [callback] }));
    await temporalCall(temporal, () => handle.startUpdate(bankCallbackUpdate, { args: [callback], waitForStage: WorkflowUpdateStage.ACCEPTED }));
    return undefined;
  } catch (error) {
    // Its workflow ended meanwhile (expired, canceled): the result page shows the payment as it is.
    if (!settled && error instanceof WorkflowNotFoundError) return undefined;
    throw updateRefusal(error) ?? error;
  }
}

/**
 * Test helper: the customer's whole path through the bank simulator, without a browser (token,
 * the outcome chosen on the bank's page, the bank's callback); answers once the workflow has
 * confirmed with the bank.
 */
export async function simulateBankOutcome(deps: PaymentServiceDeps, auth: AuthState, id: string, outcome: BankOutcome): Promise<Payment> {
  testModeOnly(auth);
  const recorded = await getPayment(deps.db, auth, id);
  // Like a second visit to the bank, an outcome for a payment that is no longer `created` changes nothing.
  if (recorded.status !== 'created') return recorded;
  try {
    const pageUrl = await requestBankPage(deps, id);
    const fields = await chooseOnSimulator(deps.config.SANDBOX_BANK_URL, pageUrl, outcome, deps.config.BANK_TIMEOUT_MS);
    const callback = bankCallbackFrom(id, new URLSearchParams(fields));
    if (callback === undefined) throw new DomainError('service_unavailable', 'The bank simulator answered an unexpected page.');
    const payment = await submitBankCallback(deps.temporal, id, callback, true);
    return { ...(payment ?? recorded), metadata: recorded.metadata };
  } catch (error) {
    // The payment stopped being payable meanwhile (canceled, expired, paid): it answers as it is.
    if (error instanceof WorkflowNotFoundError || (error instanceof DomainError && error.code === 'payment_not_payable')) return getPayment(deps.db, auth, id);
    if (error instanceof BankUnavailableError) throw new DomainError('service_unavailable', 'The bank simulator did not answer.');
    throw error;
  }
}

/** Test helper: moves the payment's own clock forward; its due timers fire before the answer. */
export function advancePaymentClock(deps: PaymentServiceDeps, auth: AuthState, id: string, seconds: number): Promise<Payment> {
  testModeOnly(auth);
  return changePayment(deps, auth, id, advanceClockUpdate, [{ seconds }], () => undefined);
}

/** Merges metadata into the payment's (docs/PAYMENTS.md#metadata): a null value removes its key. */
export async function updatePayment(db: Db, auth: AuthState, id: string, request: UpdatePaymentRequest): Promise<Payment> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('payments').selectAll().where('id', '=', id).where(scopedTo(auth)).forUpdate().executeTakeFirst();
    if (row === undefined) throw new DomainError('payment_not_found', `No payment ${id}.`);
    const merged = mergeMetadata(JSON.parse(row.metadata) as Metadata, request.metadata);
    if (Object.keys(merged).length > METADATA_LIMITS.keys) {
      throw new DomainError('validation_failed', `A payment has at most ${METADATA_LIMITS.keys} metadata keys; remove some first.`, [
        { path: 'metadata', message: `would have more than ${METADATA_LIMITS.keys} keys` },
      ]);
    }
    const metadata = JSON.stringify(merged);
    await trx.updateTable('payments').set({ metadata }).where('id', '=', id).execute();
    return paymentFromRow({ ...row, metadata });
  });
}

/** Signals the customer's choice on the test bank page to the payment's workflow. */
export async function submitBankOutcome(temporal: Client, paymentId: string, outcome: BankOutcome): Promise<void> {
  await temporalCall(temporal, () => temporal.workflow.getHandle(paymentWorkflowId(paymentId)).signal(bankResultSignal, { outcome }));
}

/**
 * Newest first, with the filters of the query, all combined (docs/API.md#pagination).
 * Each filter has an index that starts with (merchant_id, mode): see
 * migrations 0001 and 0006.
 */
export async function listPayments(db: Db, tenant: Tenant, query: ListPaymentsQuery) {
  let q = db.selectFrom('payments').selectAll().where(scopedTo(tenant));
  if (query.status !== undefined) q = q.where('status', 'in', commaSeparated<PaymentStatus>(query.status));
  if (query.merchant_reference !== undefined) q = q.where('merchant_reference', '=', query.merchant_reference);
  if (query.tracking_code !== undefined) q = q.where('tracking_code', '=', query.tracking_code);
  if (query.rrn !== undefined) q = q.where('rrn', '=', query.rrn);
  if (query.amount_gte !== undefined) q = q.where('amount', '>=', query.amount_gte);
  if (query.amount_lte !== undefined) q = q.where('amount', '<=', query.amount_lte);
  if (query.created_gte !== undefined) q = q.where('created_at', '>=', instant(query.created_gte, 'created_gte'));
  if (query.created_lt !== undefined) q = q.where('created_at', '<', instant(query.created_lt, 'created_lt'));
  return keyedPage(q, query, paymentFromRow);
}
