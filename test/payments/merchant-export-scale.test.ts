/**
 * Reconciliation (issue #13) at scale: the payments CSV of 50,000 rows,
 * streamed in constant memory, and cut short (never complete-looking) when
 * MySQL fails half-way.
 */
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { paymentFromRow } from '../../src/db/payments.ts';
import { PAYMENT_STATUSES } from '../../src/domain/payment.ts';
import { PAYMENTS_REPORT_COLUMNS } from '../../src/domain/report-schemas.ts';
import { reportLine } from '../../src/payments/report.ts';
import { getHarness, newMerchant, startApi, testConfig } from '../support/harness.ts';
import { failingPaymentsDb, insertPayments, paymentRow, reportPath } from '../support/merchant-export.ts';

/** V8's full collection, exposed at run time (the suite runs without --expose-gc). */
function fullGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

describe('reconciliation', function () {
  this.timeout(300_000);

  describe('at scale', () => {
    it('streams 50,000 payments as CSV in constant memory', async function () {
      this.timeout(600_000);
      const h = await getHarness();
      const m = await newMerchant();
      const ROWS = 50_000;
      const start = Date.parse('2023-01-01T00:00:00.000Z');
      let inserted = performance.now();
      const rows = Array.from({ length: ROWS }, (_, j) =>
        paymentRow(m.merchantId, {
          status: PAYMENT_STATUSES[j % PAYMENT_STATUSES.length]!,
          amount: 10_000 + j,
          merchant_reference: `bulk-${j}`,
          created_at: new Date(start + j * 30_000),
        }),
      );
      await insertPayments(h.db, rows);
      inserted = performance.now() - inserted;

      const url = `${h.baseUrl}/api/v1${reportPath('2023-01-01T00:00:00Z', '2023-02-01T00:00:00Z')}`;
      // What the download holds, not the garbage it leaves: the heap is read after full collections
      // (every 20 chunks), so the figure no longer depends on when V8 happens to collect its young space.
      const gc = fullGc();
      gc();
      const heapBefore = process.memoryUsage().heapUsed;
      let heapPeak = heapBefore;
      const started = performance.now();
      let firstByte = 0;
      let bytes = 0;
      let lines = 0;
      let chunks = 0;
      const res = await fetch(url, { headers: { authorization: `Bearer ${m.key}` } });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-length'), null);
      const reader = res.body!.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (chunks === 0) firstByte = performance.now() - started;
        chunks += 1;
        bytes += value.byteLength;
        for (let i = value.indexOf(10); i !== -1; i = value.indexOf(10, i + 1)) lines += 1;
        if (chunks % 20 === 0) {
          gc();
          heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
        }
      }
      const elapsed = performance.now() - started;
      const growthMb = (heapPeak - heapBefore) / 1024 / 1024;
      const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

      // For scale: what the same report takes when its rows and text are all held at once (measured between full collections).
      gc();
      const heldBefore = process.memoryUsage().heapUsed;
      const held = await h.db
        .selectFrom('payments')
        .selectAll()
        .where('merchant_id', '=', m.merchantId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      const heldText = held.map((row) => reportLine(paymentFromRow(row))).join('');
      gc();
      const heldBytes = process.memoryUsage().heapUsed - heldBefore;
      assert.equal(
        heldText.length + PAYMENTS_REPORT_COLUMNS.join(',').length + 2,
        bytes,
        'the streamed file is the report of every row',
      );

      console.log(
        `      50k CSV: inserted ${ROWS} rows in ${Math.round(inserted)} ms; downloaded ${mb(bytes)} in ${Math.round(elapsed)} ms ` +
          `(first byte after ${Math.round(firstByte)} ms, ${chunks} chunks); heap ${mb(heapBefore)} → peak ${mb(heapPeak)} held during the download, ` +
          `growth ${growthMb.toFixed(1)} MB; the rows and text held at once: ${mb(heldBytes)}`,
      );
      assert.equal(lines, ROWS + 1, 'the header and one line per payment');
      assert.ok(chunks > 10, 'written as it was read');
      assert.ok(
        growthMb < 40,
        `heap held during the download grows ${growthMb.toFixed(1)} MB, well below what the rows take in memory (${mb(heldBytes)})`,
      );

      // A MySQL failure after the first batch cuts the download short (no final chunk): the client cannot take it for complete.
      const cutUrl =
        (await startApi(
          { db: failingPaymentsDb(h.db, 1), logger: h.logger, temporalClient: h.temporal.client },
          testConfig(),
        )) + url.slice(h.baseUrl.length);
      const cut = await fetch(cutUrl, { headers: { authorization: `Bearer ${m.key}` } });
      assert.equal(cut.status, 200);
      await assert.rejects(cut.text(), 'the body ends in an error, not a clean end');
    });
  });
});
