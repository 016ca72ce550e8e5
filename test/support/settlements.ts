/**
 * Settlement steps shared by the settlement and dashboard suites: one merchant's settlement run now
 * on the real worker, and what the bank simulator transferred (its Paya admin endpoint).
 */
import { randomUUID } from 'node:crypto';
import { SETTLEMENT_WORKFLOW, settlementWorkflowId, type SettlementOutcome, type SettlementWorkflowInput } from '../../src/domain/settlement.ts';
import { getHarness } from './harness.ts';

/** A Sheba IBAN whose check digits hold. */
export const SETTLEMENT_IBAN = 'IR160120000000001234567890';

/** The bank simulator's admin endpoints: GET with no body, POST with one, DELETE with null. */
export async function bankAdmin(path: string, body?: Record<string, unknown> | null): Promise<unknown> {
  const res = await fetch(`${process.env.SANDBOX_BANK_URL}${path}`, {
    method: body === undefined ? 'GET' : body === null ? 'DELETE' : 'POST',
    headers: { 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return res.json();
}

/** The Paya transfers the bank made for a settlement, every attempt's. */
export async function transfersOf(settlementId: string): Promise<{ transfer_id: string; amount: number; iban: string }[]> {
  const { transfers } = (await bankAdmin('/admin/transfers')) as { transfers: { transfer_id: string; amount: number; iban: string }[] };
  return transfers.filter((t) => t.transfer_id.startsWith(`payout:${settlementId}:`));
}

/** Runs one merchant's settlement workflow now, with the cutoff now (the run's hold is the schedule's business). */
export async function settleNow(merchantId: string): Promise<{ id: string; outcome: SettlementOutcome }> {
  const h = await getHarness();
  const id = randomUUID();
  const input: SettlementWorkflowInput = { settlement_id: id, merchant_id: merchantId, cutoff: new Date().toISOString(), date: '2026-11-22' };
  const outcome = await h.temporal.client.workflow.execute<(i: SettlementWorkflowInput) => Promise<SettlementOutcome>>(SETTLEMENT_WORKFLOW, {
    workflowId: settlementWorkflowId(id),
    taskQueue: h.config.TEMPORAL_TASK_QUEUE,
    args: [input],
  });
  return { id, outcome };
}
