/**
 * One subscription's life (docs/SUBSCRIPTIONS.md#subscriptions), a workflow type of its own: at each
 * period's start (a durable timer on the subscription's own clock, which the test helper may move) it
 * charges the plan's amount as a debit of the mandate, through the one debit path there is: an
 * activity admits it with the API's admission code (the mandate's limits, one debit per key), and the
 * debit's own workflow (directDebitWorkflow, a child here) takes the money and records the payment.
 * The debit's key is the subscription, the period and the attempt, so a worker killed at any point of
 * a charge makes no second debit: the retried activity finds the key's debit, and the child's start
 * is in this history. A failed charge is retried on CHARGE_RETRY_DELAYS_MS (src/domain/subscription.ts
 * says why); the first failure makes it `past_due`, a later success `active` again, the last failure
 * `canceled` (charge_failed). The merchant cancels by an Update: at once, or at the period's end (no
 * charge after it); the mandate's workflow ends it at once, by the same Update with a reason, when the
 * mandate is canceled or expires. Every change is recorded by an activity with its event; the run starts afresh
 * (continueAsNew) every PERIODS_PER_RUN periods so its history stays short.
 */
import {
  allHandlersFinished,
  condition,
  continueAsNew,
  executeChild,
  ParentClosePolicy,
  proxyActivities,
  setHandler,
} from '@temporalio/workflow';
import type { SubscriptionActivities } from '../activities/subscriptions.ts';
import { debitWorkflowId } from '../src/domain/debit-workflow.ts';
import type { Payment } from '../src/domain/payment-schemas.ts';
import type { AdvanceClockInput } from '../src/domain/payment-workflow.ts';
import { CHARGE_RETRY_DELAYS_MS, PERIODS_PER_RUN, periodStartMs } from '../src/domain/subscription.ts';
import {
  advanceSubscriptionClockUpdate,
  cancelSubscriptionUpdate,
  subscriptionQuery,
  type SubscriptionRecord,
  type SubscriptionRecordInput,
  type SubscriptionWorkflowInput,
} from '../src/domain/subscription-workflow.ts';
import { directDebitWorkflow } from './debit.ts';
import { StepLock } from './lock.ts';
import { PaymentClock } from './payment-clock.ts';

// MySQL writes and the admission are retried until they answer: a refusal is an answer.
const act = proxyActivities<SubscriptionActivities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' },
});

export async function subscriptionWorkflow(input: SubscriptionWorkflowInput): Promise<SubscriptionRecord> {
  const id = input.subscription_id;
  const lock = new StepLock();
  const clock = new PaymentClock(lock, input.clock_offset_ms);
  let record = input.record;
  const startOf = (period: number) => periodStartMs(input.anchor_ms, input.plan, period);
  const ended = () => record.status === 'canceled';

  /** Records the next version of the subscription (the caller holds the lock), with its event. */
  const write = async (
    change: Partial<SubscriptionRecord>,
    period: number,
    event?: SubscriptionRecordInput['event'],
  ): Promise<void> => {
    const next: SubscriptionRecord = { ...record, ...change, version: record.version + 1 };
    await act.recordSubscription({
      subscription_id: id,
      record: next,
      period_start_ms: startOf(period),
      period_end_ms: startOf(period + 1),
      ...(event === undefined ? {} : { event }),
    });
    record = next;
  };

  setHandler(subscriptionQuery, () => record);
  // No patch: `reason` is sent only by mandate workflows of this change, so no recorded history holds
  // an Update that reaches the new branch, and every one replays through the same commands as before.
  setHandler(cancelSubscriptionUpdate, ({ at_period_end, reason }) =>
    lock.run(async () => {
      // The mandate ended: at once, even if a cancel at the period's end was asked (no charge could succeed).
      const atEnd = at_period_end && reason === undefined;
      if (ended() || (atEnd && record.cancel_at_period_end)) return record;
      if (atEnd) await write({ cancel_at_period_end: true }, record.current_period);
      else
        await write(
          { status: 'canceled', cancel_reason: reason ?? 'requested', canceled_at_ms: clock.nowMs() },
          record.current_period,
          { type: 'subscription.canceled' },
        );
      return record;
    }),
  );
  setHandler(
    advanceSubscriptionClockUpdate,
    async (advance) => {
      await clock.advance(advance);
      return record;
    },
    { validator: (advance: AdvanceClockInput) => PaymentClock.checkAdvance(advance) },
  );

  /** One attempt at a period's charge: the payment that was taken, or undefined when it was refused. */
  const charge = async (period: number, attempt: number): Promise<{ paid: boolean; payment_id?: string }> => {
    const admission = await act.admitSubscriptionCharge({ subscription_id: id, period, attempt });
    if (admission.kind === 'refused') return { paid: false };
    const payment: Payment = await executeChild(directDebitWorkflow, {
      workflowId: debitWorkflowId(admission.debit.debit_id),
      args: [admission.debit],
      // A cancel at once ends this workflow, never a debit already at the provider.
      parentClosePolicy: ParentClosePolicy.ABANDON,
    });
    return { paid: payment.status === 'verified', payment_id: payment.id };
  };

  /** Charges a period, retrying on the schedule; false when the retries ran out (it is then canceled). */
  const chargePeriod = async (period: number): Promise<void> => {
    // When the last attempt failed, on the subscription's clock: taken before its record is written, so
    // a test that sees the record and then advances the clock moves it past this moment, never before.
    let failedAtMs = 0;
    for (let attempt = 0; attempt <= CHARGE_RETRY_DELAYS_MS.length; attempt++) {
      if (attempt > 0) {
        await clock.waitUntil(new Date(failedAtMs + CHARGE_RETRY_DELAYS_MS[attempt - 1]!).toISOString(), ended);
        if (ended()) return;
      }
      const done = await lock.run(async () => {
        if (ended()) return true;
        const result = await charge(period, attempt);
        failedAtMs = clock.nowMs();
        const payment = result.payment_id === undefined ? {} : { payment_id: result.payment_id };
        const last_payment_id = result.payment_id ?? record.last_payment_id;
        if (result.paid) {
          await write({ status: 'active', current_period: period, failed_attempts: 0, last_payment_id }, period, {
            type: 'subscription.charged',
            ...payment,
          });
          return true;
        }
        if (attempt === CHARGE_RETRY_DELAYS_MS.length) {
          await write(
            {
              status: 'canceled',
              current_period: period,
              failed_attempts: attempt + 1,
              last_payment_id,
              cancel_reason: 'charge_failed',
              canceled_at_ms: clock.nowMs(),
            },
            period,
            { type: 'subscription.canceled', ...payment },
          );
          return true;
        }
        const becomesPastDue = record.status !== 'past_due';
        await write(
          { status: 'past_due', current_period: period, failed_attempts: attempt + 1, last_payment_id },
          period,
          becomesPastDue ? { type: 'subscription.past_due', ...payment } : undefined,
        );
        if (becomesPastDue) await act.emailSubscriptionPastDue({ subscription_id: id });
        return false;
      });
      if (done) return;
    }
  };

  let period = input.next_period;
  for (let charged = 0; !ended(); charged++) {
    if (charged === PERIODS_PER_RUN) {
      // Hand over: an advance in flight answers now, and the next run starts on the same clock.
      clock.stop();
      await condition(allHandlersFinished);
      if (!ended())
        await continueAsNew<typeof subscriptionWorkflow>({
          ...input,
          next_period: period,
          clock_offset_ms: clock.offset,
          record,
        });
      break;
    }
    await clock.waitUntil(new Date(startOf(period)).toISOString(), ended);
    if (ended()) break;
    const stop = await lock.run(async () => {
      if (ended()) return true;
      if (!record.cancel_at_period_end) return false;
      // Canceled at the end of the period before: no charge for this one.
      await write(
        { status: 'canceled', cancel_reason: 'requested', canceled_at_ms: clock.nowMs() },
        record.current_period,
        { type: 'subscription.canceled' },
      );
      return true;
    });
    if (stop) break;
    await chargePeriod(period);
    period++;
  }
  clock.stop();
  await condition(allHandlersFinished);
  return record;
}
