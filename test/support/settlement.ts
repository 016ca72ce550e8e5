/** Settlement in tests: a merchant's settlement or a whole run now, and what the API shows of them. */
import { randomUUID } from 'node:crypto';
import assert from 'node:assert/strict';
import {
  SETTLEMENT_RUN_WORKFLOW,
  SETTLEMENT_WORKFLOW,
  settlementWorkflowId,
  type SettlementOutcome,
  type SettlementRunInput,
  type SettlementWorkflowInput,
} from '../../src/domain/settlement.ts';
import type { Settlement, SettlementLine } from '../../src/domain/settlement-schemas.ts';
import { tehranDay } from '../../src/domain/calendar.ts';
import { getHarness } from './harness.ts';
import type { client } from './http.ts';
import type { Db } from '../../src/db/database.ts';
import type { Beneficiary } from '../../src/domain/split-schemas.ts';
import { decideBeneficiary, registerBeneficiary } from '../../src/payments/splits.ts';
import { shebaFor } from './sheba.ts';

/** The default fee plan's fee, worked out from the amount alone: 1 % within 1,000..400,000 rials. */
export const defaultPlanFee = (amount: number) => Math.min(400_000, Math.max(1_000, Math.floor(amount / 100)));

/** A Sheba IBAN whose check digits hold (not the documents' one). */
export const SETTLEMENT_IBAN = 'IR160120000000001234567890';

/** Runs one merchant's settlement workflow now, with the cutoff now (the run's hold is the schedule's business). */
export async function settleNow(merchantId: string): Promise<{ id: string; outcome: SettlementOutcome }> {
  const h = await getHarness();
  const id = randomUUID();
  const input: SettlementWorkflowInput = {
    settlement_id: id,
    merchant_id: merchantId,
    cutoff: new Date().toISOString(),
    date: tehranDay(new Date()),
  };
  const outcome = await h.temporal.client.workflow.execute<(i: SettlementWorkflowInput) => Promise<SettlementOutcome>>(
    SETTLEMENT_WORKFLOW,
    {
      workflowId: settlementWorkflowId(id),
      taskQueue: h.config.TEMPORAL_TASK_QUEUE,
      args: [input],
    },
  );
  return { id, outcome };
}

/** Runs the settlement run (what the schedule starts) now, to its end. */
export async function runSettlement(): Promise<{ workflowId: string; outcomes: SettlementOutcome[] }> {
  const h = await getHarness();
  const workflowId = `settlement-run-test-${randomUUID()}`;
  const outcomes = await h.temporal.client.workflow.execute<(i: SettlementRunInput) => Promise<SettlementOutcome[]>>(
    SETTLEMENT_RUN_WORKFLOW,
    {
      workflowId,
      taskQueue: h.config.TEMPORAL_TASK_QUEUE,
      args: [{ trigger: 'operator' }],
    },
  );
  return { workflowId, outcomes };
}

/** The merchant's settlements, newest first, with their lines. */
export async function settlementsOf(
  api: ReturnType<typeof client>,
): Promise<{ settlement: Settlement; lines: SettlementLine[] }[]> {
  const list = await api.get<{ data: Settlement[] }>('/settlements');
  assert.equal(list.status, 200, list.text);
  return Promise.all(
    list.body.data.map(async (s) => {
      const one = await api.get<{ settlement: Settlement; lines: SettlementLine[] }>(`/settlements/${s.id}`);
      assert.equal(one.status, 200, one.text);
      return one.body;
    }),
  );
}

let beneficiaries = 0;

/**
 * A beneficiary of a fresh IBAN registered for the merchant as its live key does (POST /beneficiaries:
 * a test key may not register one) and approved as the operator's CLI does.
 */
export async function approvedBeneficiary(db: Db, merchantId: string, name: string): Promise<Beneficiary> {
  beneficiaries += 1;
  const { beneficiary, created } = await registerBeneficiary(
    db,
    { merchant: { id: merchantId }, mode: 'live' },
    { iban: shebaFor(Date.now() * 100 + beneficiaries), name },
  );
  assert.ok(created);
  return (await decideBeneficiary(db, beneficiary.id, { status: 'approved' })).beneficiary;
}
