/**
 * Never money without a record (docs/PAYMENTS.md#a-confirmation-the-gateway-refuses): the PSP's verify
 * confirms the customer's sale for another amount than the payment's (the simulator's `other_amount`
 * fault), so the gateway must refuse it, while SEP's verify has already captured the money. The worker
 * reverses the sale at the PSP at once, and the PSP's first answer to that reversal is lost (it does
 * the work and never answers), so the reversal is asked again: reversed once all the same. The payment
 * fails `confirmation_mismatch`, never `paid`, never left `created`; the alert's counter is raised on
 * the worker; `ledger check` (the operator's CLI) passes.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { bankAdmin, bankFault, bankFaults } from '../support/bank.ts';
import { cliWith } from '../support/cli.ts';
import { waitFor } from '../support/http.ts';
import { chooseOutcome, createdPayment } from '../support/payments.ts';
import { scrape, valueOf } from '../support/processes.ts';
import { recordsDifferingFromWorkflows } from '../support/faults/checks.ts';
import { faultApi, faultMerchant, getFaultStack, recordFigures } from '../support/faults/fault-stack.ts';

/** The kinds of the simulator's operations on the payment (token, confirm, settle, reverse…), in order. */
const operationsAtSep = async (paymentId: string) =>
  (
    await bankAdmin<{ operations: { kind: string }[] }>(`/admin/transactions?res_num=${encodeURIComponent(paymentId)}`)
  ).operations.map((o) => o.kind);
const count = (kinds: string[], kind: string) => kinds.filter((k) => k === kind).length;

/** The worker's own metrics address, from the line it logs at start. */
function workerMetricsUrl(logFile: string): string {
  const line = readFileSync(logFile, 'utf8')
    .split('\n')
    .find((l) => l.includes('worker metrics listening'));
  const url = line === undefined ? undefined : (JSON.parse(line) as { metrics?: string }).metrics;
  if (url === undefined) throw new Error(`no metrics address in ${logFile}`);
  return url;
}

describe('fault: the PSP confirms what the gateway must refuse', () => {
  after(() => bankFault(null));

  it('the sale is reversed once at the PSP, the payment fails confirmation_mismatch, the alert is raised, and ledger check passes', async function () {
    this.timeout(300_000);
    const s = await getFaultStack();
    const merchant = await faultMerchant();
    const api = await faultApi();
    const metrics = workerMetricsUrl(s.worker!.logFile);
    const refusedBefore = valueOf(await scrape(metrics), 'dargah_psp_confirmation_refused_total', {
      psp: 'sep',
      reason: 'amount',
      reversal: 'reversed',
    });
    const payment = await createdPayment(api, merchant.key, {
      amount: 140_000,
      merchant_reference: 'refused-confirmation',
    });

    // SEP's verify answers 1 000 rials more than the sale; its first reversal does the work but never answers.
    await bankFault({ operation: 'confirm', fault: 'other_amount', times: 1 });
    await bankFault({ operation: 'reverse', fault: 'timeout', times: 1 });
    const back = await chooseOutcome(api, payment.id, 'success');
    assert.equal(back.status, 303, 'the customer is answered: the result page');

    const row = await waitFor(
      'the payment to be recorded failed',
      async () => {
        const r = await s.db
          .selectFrom('payments')
          .select(['status', 'failure_code', 'reference_id', 'paid_at', 'refunded_amount'])
          .where('id', '=', payment.id)
          .executeTakeFirstOrThrow();
        return r.status === 'created' ? undefined : r;
      },
      180_000,
      500,
    );
    assert.equal(row.status, 'failed');
    assert.equal(row.failure_code, 'confirmation_mismatch');
    assert.equal(row.paid_at, null);
    assert.ok(row.reference_id !== null, "the PSP's RefNum stays on the record, for support");

    // At SEP: verified once, reversed once although asked twice (the first answer was lost), never settled.
    const kinds = await operationsAtSep(payment.id);
    assert.deepEqual(
      [count(kinds, 'confirm'), count(kinds, 'reverse'), count(kinds, 'settle')],
      [1, 1, 0],
      kinds.join(','),
    );
    const unanswered = (await bankFaults()).answered.reverse?.timeout ?? 0;
    assert.equal(unanswered, 1, 'the first reversal went unanswered, so it was asked again');
    const [txn] = (
      await bankAdmin<{ transactions: { reversed_at?: string }[] }>(
        `/admin/transactions?res_num=${encodeURIComponent(payment.id)}`,
      )
    ).transactions;
    assert.ok(txn?.reversed_at !== undefined, 'the money is back with the customer');

    // The alert's counter, on the worker that refused it: once.
    const refused = valueOf(await scrape(metrics), 'dargah_psp_confirmation_refused_total', {
      psp: 'sep',
      reason: 'amount',
      reversal: 'reversed',
    });
    assert.equal(refused - refusedBefore, 1);
    assert.deepEqual(await recordsDifferingFromWorkflows(s, [payment.id]), []);

    // The operator's ledger check, as the CLI runs it, on the fault stack's database.
    const check = await cliWith({ DATABASE_URL: s.databaseUrl }, 'ledger', 'check', '--json');
    assert.equal(check.code, 0, check.stderr);
    assert.equal((JSON.parse(check.stdout) as { ok: boolean }).ok, true, check.stdout);
    recordFigures('14-confirmation-refused', {
      reversed_at_psp: count(kinds, 'reverse'),
      reversal_asked: unanswered + 1,
      alert_counter: refused - refusedBefore,
      ledger_check: true,
    });
  });
});
