/**
 * `POST /api/v1/mandates/{id}/debits` (docs/API.md#debits, docs/SUBSCRIPTIONS.md#debits-are-payments):
 * money taken under an active mandate with no customer present. Under the Idempotency-Key as a
 * payment's create is (src/payments/idempotency.ts: the same key and body replay the first answer,
 * another body is `idempotency_key_reused`); the key is also the debit's own key on its mandate, so
 * even once the stored answer has lapsed one key is one debit. The mandate's limits are the
 * database's (admitDebit): a debit beyond them is refused before any provider is asked, writing
 * nothing. An admitted debit and its payment (`method: direct_debit`, `created`) are written in one
 * transaction, then its workflow takes the money and records the payment as every payment's is.
 */
import type { Client } from '@temporalio/client';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { deleteUnstartedPayment, paymentRowById } from '../db/payment-creation.ts';
import { isDuplicateKey } from '../db/errors.ts';
import { tenantMandate } from '../db/mandates.ts';
import { paymentFromRow, rowFromNewPayment } from '../db/payments.ts';
import type { MandateDebitRow, MandateRow } from '../db/schema.ts';
import type { CreateDebitRequest, Debit } from '../domain/mandate-schemas.ts';
import type { DebitWorkflowInput } from '../domain/debit-workflow.ts';
import type { AuthState, Tenant } from '../domain/merchant.ts';
import type { FeePlan } from '../domain/payment.ts';
import type { Payment } from '../domain/payment-schemas.ts';
import { DomainError } from '../errors.ts';
import { newPayment } from '../payments/create.ts';
import { idempotent, type IdempotentResult } from '../payments/idempotency.ts';
import { startDebitWorkflow } from '../temporal/debits.ts';
import { admitDebit, releaseDebit } from './debits.ts';
import type { DirectDebitProviders } from './providers/registry.ts';

export interface DebitServiceDeps {
  db: Db;
  temporal: Client;
  config: Config;
  providers: DirectDebitProviders;
}

function debitFromRow(row: MandateDebitRow): Debit {
  return {
    id: row.id,
    object: 'debit',
    mandate_id: row.mandate_id,
    payment_id: row.payment_id,
    amount: Number(row.amount),
    merchant_reference: row.merchant_reference,
    created_at: row.created_at.toISOString(),
  };
}

/** What a debit's payment is created with from the configuration. */
export type DebitPaymentConfig = Pick<Config, 'PAYMENT_TTL_SECONDS' | 'AMOUNT_MAX'>;

/** Who a debit is for: a merchant in one mode, with the fee plan its payment is created under. */
export interface DebitOwner extends Tenant {
  merchant: { id: string; fee_plan: FeePlan };
}

/** The debit's payment as create records it: a card payment's shape, paid by the mandate, the merchant paying the fee. */
function debitPayment(
  paymentId: string,
  owner: DebitOwner,
  mandate: MandateRow,
  request: CreateDebitRequest,
  config: DebitPaymentConfig,
): Payment {
  const payment = newPayment(
    paymentId,
    owner.mode,
    {
      amount: request.amount,
      merchant_reference: request.merchant_reference,
      // No customer comes back from a debit: the mandate's own return address stands for the page's.
      callback_url: mandate.return_url,
      fee_payer: 'merchant',
      ...(request.description === undefined ? {} : { description: request.description }),
    },
    config,
    Date.now(),
    'api',
    owner.merchant.fee_plan,
  );
  return { ...payment, method: 'direct_debit' };
}

/**
 * The one admission of a debit, the API's and a subscription's charge alike: within the mandate's
 * limits, one debit per key, its payment inserted in the same transaction (a DomainError otherwise).
 */
export async function admitDebitWithPayment(
  db: Db,
  config: DebitPaymentConfig,
  owner: DebitOwner,
  mandate: MandateRow,
  request: CreateDebitRequest,
  debitKey: string,
): Promise<{ debit: MandateDebitRow; payment: Payment; replayed: boolean }> {
  let payment: Payment | undefined;
  let admitted: Awaited<ReturnType<typeof admitDebit>> | undefined;
  for (let attempt = 0; admitted === undefined; attempt++) {
    try {
      admitted = await admitDebit(db, owner, {
        mandateId: mandate.id,
        amount: request.amount,
        idempotencyKey: debitKey,
        merchantReference: request.merchant_reference,
        paymentRow: (paymentId) => {
          payment = debitPayment(paymentId, owner, mandate, request, config);
          return rowFromNewPayment(payment, owner.merchant.id, mandate.mobile);
        },
      });
    } catch (error) {
      // A tracking code collision rolled the admission back: draw another.
      if (isDuplicateKey(error) && attempt < 5) continue;
      throw error;
    }
  }
  const { debit, replayed } = admitted;
  if (replayed || payment === undefined) payment = paymentFromRow((await paymentRowById(db, debit.payment_id))!);
  return { debit, payment, replayed };
}

/** The debit workflow's input: the merchant's metadata stays in MySQL, so no history keeps a copy. */
export function debitWorkflowInput(owner: DebitOwner, debit: MandateDebitRow, payment: Payment): DebitWorkflowInput {
  return {
    debit_id: debit.id,
    payment: { ...payment, metadata: {} },
    merchant_id: owner.merchant.id,
    fee_plan: owner.merchant.fee_plan,
  };
}

export async function createDebit(
  { db, temporal, config, providers }: DebitServiceDeps,
  auth: AuthState,
  mandateId: string,
  request: CreateDebitRequest,
  idempotencyKey: string | undefined,
): Promise<IdempotentResult> {
  if (providers[auth.mode] === undefined)
    throw new DomainError('direct_debit_not_configured', `Direct debit is not configured in ${auth.mode} mode.`);
  const scope = { owner: auth, operation: 'create_debit' };
  return idempotent(
    db,
    scope,
    idempotencyKey,
    { mandate_id: mandateId, ...request },
    config.IDEMPOTENCY_TTL_SECONDS,
    async (requestId) => {
      const mandate = await tenantMandate(db, auth, mandateId);
      if (mandate === undefined) throw new DomainError('mandate_not_found', `No mandate ${mandateId}.`);
      // Without a key each request is a debit of its own, named by the id drawn for it.
      const debitKey = idempotencyKey ?? `request:${requestId}`;
      const { debit, payment, replayed } = await admitDebitWithPayment(db, config, auth, mandate, request, debitKey);
      try {
        await startDebitWorkflow(temporal, config.TEMPORAL_TASK_QUEUE, debitWorkflowInput(auth, debit, payment));
      } catch (error) {
        // Without a key nobody can finish this debit: give its counts back and take its payment back.
        if (!replayed && idempotencyKey === undefined) {
          await releaseDebit(db, debit.id).catch(() => undefined);
          await deleteUnstartedPayment(db, debit.payment_id).catch(() => undefined);
        }
        throw error;
      }
      return { status: 201, body: { debit: debitFromRow(debit), payment } };
    },
  );
}
