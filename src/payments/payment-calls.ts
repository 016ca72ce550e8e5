/**
 * What every payment operation shares: its dependencies, reading the
 * merchant's own payment, and sending one of the payment workflow's Updates
 * with the record deciding when the workflow has already finished.
 */
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { UpdateDefinition } from '@temporalio/common';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { findPayment, overRecord, paymentFromRow } from '../db/payments.ts';
import type { AuthState, Tenant } from '../domain/merchant.ts';
import type { Payment } from '../domain/payment-schemas.ts';
import { paymentWorkflowId } from '../domain/payment-workflow.ts';
import { DomainError } from '../errors.ts';
import { temporalCall, updateRefusal } from '../temporal/call.ts';

export interface PaymentServiceDeps {
  db: Db;
  temporal: Client;
  config: Config;
}

/** The tenant's payment with this id, as its record holds it (without its shares); undefined: another merchant's or mode's, or none. */
export async function findTenantPayment(db: Db, id: string, tenant: Tenant): Promise<Payment | undefined> {
  const row = await findPayment(db, id, tenant);
  return row === undefined ? undefined : paymentFromRow(row);
}

export async function getPayment(db: Db, auth: Tenant, id: string): Promise<Payment> {
  const payment = await findTenantPayment(db, id, auth);
  if (payment === undefined) throw new DomainError('payment_not_found', `No payment ${id}.`);
  return payment;
}

/**
 * Sends one of the payment's Updates and answers with the payment the
 * workflow leaves, shown with the merchant's metadata from the record (the
 * workflow does not carry it). The workflow's typed refusal becomes a
 * DomainError; a workflow that has already finished throws
 * WorkflowNotFoundError, for the caller to answer from the record.
 */
export async function updateWorkflow<Args extends [] | [unknown]>(
  { temporal }: Pick<PaymentServiceDeps, 'temporal'>,
  recorded: Payment,
  update: UpdateDefinition<Payment, Args>,
  args: Args,
): Promise<Payment> {
  const handle = temporal.workflow.getHandle(paymentWorkflowId(recorded.id));
  try {
    // The SDK types executeUpdate by arity (with or without arguments), so the two are called apart.
    const result = await temporalCall(temporal, () =>
      args.length === 0
        ? handle.executeUpdate<Payment, []>(update.name)
        : handle.executeUpdate<Payment, [unknown]>(update.name, { args }),
    );
    // created_via, who pays the fee, who may pay and the payment link are the record's too: a workflow started before their columns existed does not hold them.
    return overRecord(result, recorded);
  } catch (error) {
    // A refusal (a bank that did not answer the settle at verify: 503, and the same request again completes it).
    throw updateRefusal(error) ?? error;
  }
}

/**
 * An Update on a payment whose workflow may have finished: the record
 * decides then. `answer` gives the answer the record fixes (or undefined
 * when only the workflow can decide).
 */
export async function changePayment<Args extends [] | [unknown]>(
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

export function testModeOnly(auth: AuthState): void {
  if (auth.mode !== 'test')
    throw new DomainError('test_mode_only', 'Test helpers take test keys only; use a sk_test_ key.');
}
