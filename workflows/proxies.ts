/**
 * The payment and refunds workflows' ways to call their activities, each
 * with its retry policy. A proxy is typed with only the purpose it may call
 * (records, the bank). Local activities run in the worker within the
 * workflow task that asks for them: no round trip through the server.
 */
import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { BankActivities } from '../activities/bank.ts';
import type { RecordActivities } from '../activities/records.ts';

// A record write must happen eventually, so it is retried without limit; a
// worker that cannot reach MySQL keeps trying and the payment waits.
const RECORD_WRITES = {
  startToCloseTimeout: '15s',
  retry: { initialInterval: '200ms', backoffCoefficient: 2, maximumInterval: '30s' },
} as const;
export const records = proxyActivities<RecordActivities>(RECORD_WRITES);
// The same writes as local activities: short MySQL transactions, idempotent by version, that need
// no round trip of their own. One that keeps failing is retried all the same (past a minute, with
// durable timers between the attempts).
export const localRecords = proxyLocalActivities<RecordActivities>(RECORD_WRITES);

// Bank calls are idempotent by operation key, so retrying them is safe.
export const bank = proxyActivities<BankActivities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '5m' },
});

// Calls a person waits for (the token before the bank's page, the settlement of verify): a few
// tries, then a failure the caller sees (503) and may retry; the bank's keys make the retry safe.
const BANK_NOW = {
  startToCloseTimeout: '30s',
  retry: { initialInterval: '500ms', backoffCoefficient: 2, maximumAttempts: 3 },
} as const;
export const bankNow = proxyActivities<BankActivities>(BANK_NOW);
// The same calls as local activities (paymentWorkflowV2): the person waits on the same workflow task.
export const localBankNow = proxyLocalActivities<BankActivities>(BANK_NOW);

// The confirm of the bank's callback, asked once within the workflow task that takes the callback.
// The customer's return waits for that task, so it is bounded to a couple of seconds: a bank that
// does not answer by then (down, slow) is asked by `bank` instead, retried until it answers. The
// confirm is idempotent at the bank, so asking twice is safe.
export const localBankOnce = proxyLocalActivities<BankActivities>({ startToCloseTimeout: '2s', retry: { maximumAttempts: 1 } });
