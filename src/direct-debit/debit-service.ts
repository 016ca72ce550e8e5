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
import type { AuthState } from '../domain/merchant.ts';
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

/** The debit's payment as create records it: a card payment's shape, paid by the mandate, the merchant paying the fee. */
function debitPayment(
  paymentId: string,
  auth: AuthState,
  mandate: MandateRow,
  request: CreateDebitRequest,
  config: Config,
): Payment {
  const payment = newPayment(
    paymentId,
    auth.mode,
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
    auth.merchant.fee_plan,
  );
  return { ...payment, method: 'direct_debit' };
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
      let payment: Payment | undefined;
      let admitted: Awaited<ReturnType<typeof admitDebit>> | undefined;
      for (let attempt = 0; admitted === undefined; attempt++) {
        try {
          admitted = await admitDebit(db, auth, {
            mandateId,
            amount: request.amount,
            idempotencyKey: debitKey,
            merchantReference: request.merchant_reference,
            paymentRow: (paymentId) => {
              payment = debitPayment(paymentId, auth, mandate, request, config);
              return rowFromNewPayment(payment, auth.merchant.id, mandate.mobile);
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
      try {
        await startDebitWorkflow(temporal, config.TEMPORAL_TASK_QUEUE, {
          debit_id: debit.id,
          // The merchant's metadata stays in MySQL: no history keeps a copy.
          payment: { ...payment, metadata: {} },
          merchant_id: auth.merchant.id,
          fee_plan: auth.merchant.fee_plan,
        });
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
