/**
 * The payment and refunds workflows' ways to call their activities, each
 * with its retry policy. A proxy is typed with only the purpose it may call
 * (record writes, bank calls). Local activities run in the worker within the
 * workflow task that asks for them: no round trip through the server.
 */
import {
  isCancellation,
  proxyActivities,
  proxyLocalActivities,
  type ActivityInterfaceFor,
  type LocalActivityInterfaceFor,
} from '@temporalio/workflow';
import type { BankActivities } from '../activities/bank.ts';
import { TOKEN_FAILURES_FINAL_AT_PSP } from '../src/domain/payment-workflow.ts';
import type { RecordActivities } from '../activities/records.ts';
import type { RefundPayoutActivities } from '../activities/refund-payouts.ts';

/** Each call of a proxy, with its arguments and its answer. */
type Calls<A> = {
  [K in keyof A]: A[K] extends (...args: infer P) => infer R ? (...args: P) => Promise<Awaited<R>> : never;
};
type AnyCall = (...args: unknown[]) => Promise<unknown>;

/**
 * Each call made as a local activity first, and, when its quick attempts
 * fail, as an activity. A local activity that kept failing would hold its
 * workflow task open (a heartbeat of three history events every few seconds,
 * for as long as MySQL or the bank stays down); an activity retries at no cost
 * to the history. Safe because every activity here is idempotent.
 */
function localFirst<A extends object>(local: LocalActivityInterfaceFor<A>, remote: ActivityInterfaceFor<A>): Calls<A> {
  return new Proxy({} as Calls<A>, {
    get(_, name) {
      const key = name as keyof A;
      return async (...args: unknown[]) => {
        try {
          return await (local[key] as AnyCall)(...args);
        } catch (error) {
          if (isCancellation(error)) throw error;
          return (remote[key] as AnyCall)(...args);
        }
      };
    },
  });
}

// A record write must happen eventually, so the activity is retried without limit; a worker that
// cannot reach MySQL keeps trying and the payment waits. Not exported: writes go local first.
const recordsRetried = proxyActivities<RecordActivities>({
  startToCloseTimeout: '15s',
  retry: { initialInterval: '200ms', backoffCoefficient: 2, maximumInterval: '30s' },
});
// Record writes, local first: short MySQL transactions, idempotent by version, that need no
// round trip of their own; three quick tries, then the activity above.
export const recordWrites = localFirst(
  proxyLocalActivities<RecordActivities>({
    startToCloseTimeout: '10s',
    retry: { initialInterval: '200ms', backoffCoefficient: 2, maximumAttempts: 3 },
  }),
  recordsRetried,
);

// Bank calls nobody waits for (the reverse, a refund's payout): idempotent by operation key, so
// they are retried until the bank answers.
export const bankCalls = proxyActivities<BankActivities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '5m' },
});
// A refund's transfer to the IBAN its merchant gave (activities/refund-payouts.ts): one transfer per
// refund id at the bank, so retried, as the bank calls are, until the bank answers.
export const refundTransfers = proxyActivities<RefundPayoutActivities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '5m' },
});
// The bank's confirm of the customer's return, local first: asked once within the workflow task
// that takes the callback. The customer's return waits for that task, so it is bounded to a couple
// of seconds: a bank that does not answer by then (down, slow) is asked by `bankCalls`, until it answers.
export const bankConfirmOnReturn = localFirst(
  proxyLocalActivities<BankActivities>({ startToCloseTimeout: '2s', retry: { maximumAttempts: 1 } }),
  bankCalls,
);

// The bank's inquiry on a failed or canceled return, within the workflow task that takes it, as the
// confirm's first try is, but with no fallback: a bank that does not answer in a couple of seconds
// decides nothing, and the payment is left as it is, to be paid or to expire.
export const bankInquiryOnReturn = proxyLocalActivities<BankActivities>({
  startToCloseTimeout: '2s',
  retry: { initialInterval: '500ms', maximumAttempts: 2 },
});

// Calls a person waits for (the token before the bank's page, the settlement of verify), as local
// activities: the person waits on the same workflow task, and three tries bound how long it stays
// open; then a failure the caller sees (503) and may retry; the bank's keys make the retry safe.
export const bankCallsAwaited = proxyLocalActivities<BankActivities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '500ms', backoffCoefficient: 2, maximumAttempts: 3 },
});

// What the payment's PSP offers (activities/bank/operations.ts pspCapabilities): the connector's declaration,
// read from the payment's record within the workflow task that needs it.
export const pspCapabilitiesOf = proxyLocalActivities<BankActivities>({
  startToCloseTimeout: '10s',
  retry: { initialInterval: '200ms', backoffCoefficient: 2, maximumInterval: '10s' },
});

// The route of a payment about to go to the bank (activities/bank/routing.ts planPaymentRoute): two reads of
// MySQL within the workflow task the customer waits on.
export const routePlanning = proxyLocalActivities<BankActivities>({
  startToCloseTimeout: '10s',
  retry: { initialInterval: '200ms', backoffCoefficient: 2, maximumAttempts: 3 },
});

// The token at one PSP of the payment's route (docs/psps/routing.md): the customer is waiting, so two
// attempts, each bounded by the bank's own timeout (BANK_TIMEOUT_MS, at most 120 s, inside this
// activity's limit), and then the next PSP of the route instead of more tries here.
export const bankTokenPerPsp = proxyLocalActivities<BankActivities>({
  startToCloseTimeout: '130s',
  retry: {
    initialInterval: '200ms',
    backoffCoefficient: 2,
    maximumAttempts: 2,
    nonRetryableErrorTypes: [...TOKEN_FAILURES_FINAL_AT_PSP],
  },
});

// The payment flow workflow's way to the bank's page (activities/bank/routing.ts bankTokenOnRoute): the
// route, a token from each PSP in turn (two tries each, each bounded by the bank's own timeout) and the
// PSP that gave it recorded, in one local activity the customer waits on. Its own failures (MySQL away)
// are tried three times, as the route's plan was; a PSP's are the activity's to pass over.
export const bankTokenOnRoute = proxyLocalActivities<BankActivities>({
  startToCloseTimeout: '10m',
  retry: {
    initialInterval: '200ms',
    backoffCoefficient: 2,
    maximumAttempts: 3,
    nonRetryableErrorTypes: ['record_mismatch'],
  },
});
