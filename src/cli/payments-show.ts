/**
 * `npm run cli -- payments show <id> [--json]`: an operator's view of one
 * payment in one place — its record, its workflow's and its refunds
 * workflow's status and pending activities (Temporal's describe), its events
 * (and its refunds') with every webhook attempt, and the Temporal UI links.
 * Reads only.
 */
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { eventSummariesAbout } from '../db/events.ts';
import { paymentRowById } from '../db/payment-creation.ts';
import { refundSummariesOf } from '../db/payment-listing.ts';
import { attemptSummariesOfEvents } from '../db/webhook-attempts.ts';
import { paymentWorkflowId, refundsWorkflowId } from '../domain/payment-workflow.ts';
import { connectTemporal } from '../temporal/client.ts';

export class PaymentNotFound extends Error {
  override name = 'PaymentNotFound';
}

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

interface WorkflowView {
  id: string;
  status: string;
  run_id?: string;
  started_at?: string | null;
  closed_at?: string | null;
  history_length?: number;
  pending_activities: { activity: string; state: string; attempt: number; last_failure: string | null }[];
  ui: string | null;
}

/** A workflow's latest run as Temporal describes it (NOT_FOUND when it never ran), with its Temporal UI link. */
async function describeWorkflow(temporal: Client, config: Config, workflowId: string): Promise<WorkflowView> {
  try {
    const description = await temporal.workflow.getHandle(workflowId).describe();
    return {
      id: workflowId,
      run_id: description.runId,
      status: description.status.name,
      started_at: iso(description.startTime),
      closed_at: iso(description.closeTime ?? null),
      history_length: description.historyLength,
      pending_activities: (description.raw.pendingActivities ?? []).map((a) => ({
        activity: a.activityType?.name ?? '',
        state: String(a.state ?? ''),
        attempt: a.attempt ?? 0,
        last_failure: a.lastFailure?.message ?? null,
      })),
      ui: `${config.TEMPORAL_UI_URL.replace(/\/+$/, '')}/namespaces/${encodeURIComponent(config.TEMPORAL_NAMESPACE)}/workflows/${encodeURIComponent(workflowId)}/${description.runId}/history`,
    };
  } catch (error) {
    if (!(error instanceof WorkflowNotFoundError)) throw error;
    return { id: workflowId, status: 'NOT_FOUND', pending_activities: [], ui: null };
  }
}

export async function showPayment(db: Db, config: Config, paymentId: string): Promise<Record<string, unknown>> {
  const row = await paymentRowById(db, paymentId);
  if (row === undefined) throw new PaymentNotFound(`no payment ${paymentId}`);
  const refunds = await refundSummariesOf(db, paymentId);
  const events = await eventSummariesAbout(db, [paymentId, ...refunds.map((r) => r.id)]);
  const attempts =
    events.length === 0
      ? []
      : await attemptSummariesOfEvents(
          db,
          events.map((e) => e.id),
        );

  const temporal = await connectTemporal(config);
  let workflow: WorkflowView;
  let refundsWorkflow: WorkflowView;
  try {
    workflow = await describeWorkflow(temporal.client, config, paymentWorkflowId(paymentId));
    refundsWorkflow = await describeWorkflow(temporal.client, config, refundsWorkflowId(paymentId));
  } finally {
    await temporal.connection.close();
  }

  return {
    payment: {
      id: row.id,
      merchant_id: row.merchant_id,
      mode: row.mode,
      status: row.status,
      amount: row.amount,
      fee: row.fee,
      refunded_amount: row.refunded_amount,
      merchant_reference: row.merchant_reference,
      tracking_code: row.tracking_code,
      created_at: iso(row.created_at),
      paid_at: iso(row.paid_at),
      verified_at: iso(row.verified_at),
      verify_deadline_at: iso(row.verify_deadline_at),
      version: row.version,
    },
    refunds: refunds.map((r) => ({ id: r.id, amount: r.amount, status: r.status, created_at: iso(r.created_at) })),
    workflow,
    refunds_workflow: refundsWorkflow,
    events: events.map((e) => ({
      id: e.id,
      type: e.type,
      created_at: iso(e.created_at),
      attempts: attempts
        .filter((a) => a.event_id === e.id)
        .map((a) => ({
          endpoint_id: a.endpoint_id,
          attempt: a.attempt,
          at: iso(a.attempted_at),
          succeeded: a.succeeded === 1,
          response_status: a.response_status,
          latency_ms: a.latency_ms,
          error: a.error,
        })),
    })),
  };
}

/** The view as an operator reads it in a terminal. */
export function paymentViewText(view: Record<string, unknown>): string {
  const p = view.payment as Record<string, unknown>;
  const events = view.events as {
    id: string;
    type: string;
    created_at: string;
    attempts: {
      endpoint_id: string;
      attempt: number;
      at: string;
      succeeded: boolean;
      response_status: number | null;
      latency_ms: number;
      error: string | null;
    }[];
  }[];
  const refunds = view.refunds as { id: string; amount: number; status: string }[];
  const lines = [
    `payment ${String(p.id)} (${String(p.mode)}): ${String(p.status)}, ${String(p.amount)} rials, fee ${String(p.fee)}, refunded ${String(p.refunded_amount)}`,
    `  merchant ${String(p.merchant_id)}, reference ${String(p.merchant_reference)}, tracking code ${String(p.tracking_code)}`,
    `  created ${String(p.created_at)}, paid ${String(p.paid_at)}, verified ${String(p.verified_at)}, verify deadline ${String(p.verify_deadline_at)}`,
    ...refunds.map((r) => `  refund ${r.id}: ${r.status}, ${r.amount} rials`),
    ...workflowLines(view.workflow as WorkflowView),
    ...workflowLines(view.refunds_workflow as WorkflowView),
    `events (${events.length}):`,
    ...events.flatMap((e) => [
      `  ${e.created_at} ${e.type} ${e.id}`,
      ...e.attempts.map(
        (a) =>
          `    attempt ${a.attempt} to ${a.endpoint_id} at ${a.at}: ${a.succeeded ? 'succeeded' : `failed (${a.error ?? 'unknown'})`}, status ${a.response_status ?? '-'}, ${a.latency_ms} ms`,
      ),
    ]),
  ];
  return lines.join('\n');
}

/** A workflow's lines in the terminal view: its run and status, its pending activities, its Temporal UI link. */
function workflowLines(w: WorkflowView): string[] {
  return [
    `workflow ${w.id}${w.run_id === undefined ? '' : ` run ${w.run_id}`}: ${w.status}`,
    ...(w.pending_activities.length === 0
      ? ['  no pending activities']
      : w.pending_activities.map(
          (a) =>
            `  pending ${a.activity}: ${a.state}, attempt ${a.attempt}${a.last_failure === null ? '' : `, last failure: ${a.last_failure}`}`,
        )),
    `  Temporal UI: ${w.ui ?? '(no workflow)'}`,
  ];
}
