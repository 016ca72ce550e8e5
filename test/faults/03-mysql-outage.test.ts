/**
 * MySQL is killed (SIGKILL) under load and restarted on the same datadir:
 * meanwhile the API answers 503 service_unavailable with Retry-After and no
 * stack trace; afterwards every logical create has exactly one payment and
 * every record converges to its workflow.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import assert from 'node:assert/strict';
import { request, waitFor, type TestResponse } from '../support/http.ts';
import { paymentRequest, type CreateResponse } from '../support/payments.ts';
import { faultApi, faultMerchant, getFaultStack, recordFigures } from '../support/faults/fault-stack.ts';
import { codeOf, payThroughFaults, recordsDifferingFromWorkflows, untilAnswered } from '../support/faults/checks.ts';

const CREATES = 120;
const OUTAGE_MS = 15_000;

describe('fault: MySQL is killed under load and restarted', () => {
  it('answers 503 service_unavailable with Retry-After meanwhile, then every record converges without duplicates', async () => {
    const s = await getFaultStack();
    const merchant = await faultMerchant();
    const api = await faultApi();
    const answers: TestResponse[] = [];
    const mysql = { back: false };
    const record = <T>(res: TestResponse<T>) => {
      answers.push(res as unknown as TestResponse);
      return res;
    };

    // The load: one logical create a tick (each with its own Idempotency-Key, retried until answered), then its payment.
    const bodies = Array.from({ length: CREATES }, (_, i) => paymentRequest({ merchant_reference: `mysql-${i}` }));
    const load = Promise.all(
      bodies.map(async (body, i) => {
        await sleep(i * 150);
        const created = await untilAnswered(
          () =>
            request<CreateResponse>(api, 'POST', '/api/v1/payments', {
              key: merchant.key,
              body,
              idempotencyKey: `mysql-${i}`,
            }).then(record),
          (r) => codeOf(r) === 'idempotency_key_in_use',
        );
        assert.equal(created.res.status, 201, created.res.text);
        const chosen = await payThroughFaults(api, merchant.key, created.res.body.payment.id, 'success');
        assert.ok(chosen.wentThrough || chosen.res.status === 303, chosen.res.text);
        return created.res.body.payment.id;
      }),
    );

    await sleep(5_000);
    await s.mariadb.kill();
    const from = Date.now();
    // Readers too: list and get while MySQL is away.
    const probes = (async () => {
      while (!mysql.back) {
        record(await request(api, 'GET', '/api/v1/payments', { key: merchant.key }));
        await sleep(200);
      }
    })();
    await sleep(OUTAGE_MS);
    await s.mariadb.start();
    mysql.back = true;
    const outage = { from, to: Date.now() };
    await probes;
    const ids = await load;

    const during = answers.filter((a) => a.status >= 500);
    for (const a of during) {
      assert.equal(a.status, 503, a.text);
      assert.equal(codeOf(a), 'service_unavailable');
      assert.ok(Number(a.headers.get('retry-after')) >= 1);
      assert.doesNotMatch(a.text, /\n\s+at |Error:|node_modules|\.ts:\d|ECONN|PROTOCOL_/);
    }

    await waitFor(
      'every payment to be recorded paid',
      async () => {
        const rows = await s.db
          .selectFrom('payments')
          .select('id')
          .where('merchant_id', '=', merchant.merchantId)
          .where('status', '=', 'paid')
          .execute();
        return rows.length >= CREATES ? true : undefined;
      },
      240_000,
      500,
    );
    const convergedAt = Date.now();
    const rows = await s.db
      .selectFrom('payments')
      .select(['id', 'merchant_reference'])
      .where('merchant_id', '=', merchant.merchantId)
      .execute();
    const references = rows.map((r) => r.merchant_reference);
    const differing = await recordsDifferingFromWorkflows(s, ids);
    const figures = {
      logical_creates: CREATES,
      outage_ms: outage.to - outage.from,
      answers_503: during.length,
      answers_other_5xx: during.filter((a) => a.status !== 503).length,
      payments: rows.length,
      duplicates: references.length - new Set(references).size,
      lost: CREATES - new Set(references).size,
      records_differing_from_workflows: differing.length,
      convergence_after_mysql_back_ms: convergedAt - outage.to,
    };
    recordFigures('mysql_outage', figures);
    assert.ok(figures.answers_503 > 0, 'the outage was seen by clients');
    assert.equal(figures.duplicates, 0);
    assert.equal(figures.lost, 0);
    assert.equal(figures.payments, CREATES);
    assert.deepEqual(differing, []);
  });
});
