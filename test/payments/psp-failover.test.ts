/**
 * Several PSPs behind every payment (docs/psps/routing.md), against the real stack: MySQL, the
 * Temporal dev server, an API server, and a payment worker of this test's own whose test mode has
 * two PSP terminals, each a bank simulator process of its own (OwnSimulator): `sep`, speaking SEP's
 * protocol, and `mellat`, speaking Behpardakht Mellat's (BANK_SIM_PROTOCOL=mellat). Killing a
 * simulator is a PSP that is down (no answer).
 *
 * The worker runs on a task queue of its own, and the API server this test talks to starts payments
 * there, so that the suite's shared worker (which has only the one simulator) never takes them.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Worker } from '@temporalio/worker';
import { PspHealthStore } from '../../src/db/psp-health.ts';
import { breakerSettings } from '../../src/domain/psp-breaker.ts';
import { MellatClient } from '../../src/psps/mellat/client.ts';
import { mellatOrderId } from '../../src/psps/mellat/mapping.ts';
import { SepClient } from '../../src/psps/sep/client.ts';
import type { PspClients } from '../../src/psps/clients.ts';
import { PSP_NAMES } from '../../src/psps/profiles.ts';
import { replaceMerchantRoute } from '../../src/db/psp-routes.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import { paymentWorkflowId } from '../../src/domain/payment-workflow.ts';
import { createPaymentWorker } from '../../src/main/payment-worker.ts';
import { pspTokenRequests, registry } from '../../src/observability/metrics.ts';
import { OwnSimulator } from '../support/bank.ts';
import { cli } from '../support/cli.ts';
import { apiWith, getHarness, newMerchant, testConfig, type Harness } from '../support/harness.ts';
import { request } from '../support/http.ts';
import { chooseOutcome, createdPayment, waitForStatus } from '../support/payments.ts';
import { recordFixture } from '../support/replay.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'histories');
const SEP_TERMINAL = '71000001';
const MELLAT_TERMINAL = '72000002';
/** Small breaker numbers, so the test sees it open and close within seconds. */
const BREAKER = { PSP_BREAKER_FAILURES: '3', PSP_BREAKER_WINDOW_SECONDS: '60', PSP_BREAKER_OPEN_SECONDS: '2' };

describe('PSP failover before the redirect, and the circuit breaker', function () {
  this.timeout(180_000);
  let h: Harness;
  let api: string;
  let key: string;
  let merchantId: string;
  let worker: Worker;
  let running: Promise<void>;
  const sep = new OwnSimulator({ BANK_SIM_TERMINAL_ID: SEP_TERMINAL });
  const mellat = new OwnSimulator({
    BANK_SIM_PROTOCOL: 'mellat',
    BANK_SIM_TERMINAL_ID: MELLAT_TERMINAL,
    BANK_SIM_USERNAME: 'dargah',
    BANK_SIM_PASSWORD: '',
  });
  const taskQueue = `psp-failover-${process.pid}`;

  const paymentOf = async (id: string) =>
    (await request<{ payment: Payment }>(api, 'GET', `/api/v1/payments/${id}`, { key })).body.payment;
  const health = () => new PspHealthStore(h.db, breakerSettings(testConfig(BREAKER)));
  const breakerOfSep = async () =>
    (await health().states([{ mode: 'test', psp: 'sep', terminal_id: SEP_TERMINAL }]))[0]!;
  const counted = async (psp: string, outcome: string) =>
    (await pspTokenRequests.get()).values.find((v) => v.labels.psp === psp && v.labels.outcome === outcome)?.value ?? 0;
  /**
   * The customer presses Pay and, at the bank's page, pays: answers our answer to the last step. A
   * cold worker may not answer within the API's bound on a Temporal call (the generic 503 page): the
   * customer presses again, as payAtBank does; the page that says no bank answered is answered as it is.
   */
  const pressPay = async (p: Payment) => {
    let res = await chooseOutcome(api, p.id, 'success');
    for (
      let retry = 0;
      res.status === 503 && !/No money was taken|مبلغی از حساب شما کسر نشده/.test(res.text) && retry < 10;
      retry++
    ) {
      await new Promise((r) => setTimeout(r, 1_000));
      res = await chooseOutcome(api, p.id, 'success');
    }
    return res;
  };

  before(async () => {
    h = await getHarness();
    await Promise.all([sep.start(), mellat.start()]);
    const psps: PspClients = {
      test: {
        sep: new SepClient({ baseUrl: sep.url, terminalId: SEP_TERMINAL, password: '', timeoutMs: 3_000 }),
        mellat: new MellatClient({
          baseUrl: mellat.url,
          terminalId: MELLAT_TERMINAL,
          userName: 'dargah',
          password: '',
          timeoutMs: 3_000,
        }),
      },
      live: {},
    };
    const config = {
      ...testConfig({ ...BREAKER, TEMPORAL_TASK_QUEUE: taskQueue }),
      PUBLIC_BASE_URL: h.config.PUBLIC_BASE_URL,
    };
    worker = await createPaymentWorker({
      config,
      db: h.db,
      temporal: h.temporal.client,
      logger: h.logger,
      bundle: h.bundle,
      psps,
    });
    running = worker.run();
    api = await apiWith({ TEMPORAL_TASK_QUEUE: taskQueue });
    ({ key, merchantId } = await newMerchant());
    // The merchant's test route: SEP first, then "Mellat". The CLI refuses `mellat` here (the
    // deployment's configuration has no Mellat terminal): the test's worker has one, so the route is written directly.
    await replaceMerchantRoute(
      h.db,
      merchantId,
      'test',
      [
        {
          position: 0,
          priority: 0,
          psp: 'sep',
          terminal_id: SEP_TERMINAL,
          weight: 1,
          min_amount: null,
          max_amount: null,
        },
        {
          position: 1,
          priority: 1,
          psp: 'mellat',
          terminal_id: MELLAT_TERMINAL,
          weight: 1,
          min_amount: null,
          max_amount: null,
        },
      ],
      new Date(),
    );
    await h.db.deleteFrom('psp_health').where('terminal_id', 'in', [SEP_TERMINAL, MELLAT_TERMINAL]).execute();
  });

  after(async () => {
    worker?.shutdown();
    await running?.catch(() => undefined);
    await Promise.all([sep.stop(), mellat.stop()]);
  });

  it('a payment whose first PSP does not answer goes to the next before the customer is sent anywhere; the record, resource, events and search attributes name it; it is paid, verified and settled there', async () => {
    await sep.kill();
    const p = await createdPayment(api, key);
    assert.equal(p.psp, null, 'no PSP before the token');
    const answered = await pressPay(p);
    assert.equal(answered.status, 303, `the customer came back from the bank: ${answered.text}`);
    const paid = await waitForStatus(api, key, p.id, 'paid');
    assert.deepEqual(paid.psp, { name: 'mellat', terminal_id: MELLAT_TERMINAL });
    const verified = await request<{ payment: Payment }>(api, 'POST', `/api/v1/payments/${p.id}/verify`, {
      key,
      body: { amount: p.amount },
    });
    assert.equal(verified.status, 200, verified.text);
    assert.deepEqual(verified.body.payment.psp, { name: 'mellat', terminal_id: MELLAT_TERMINAL });
    // Every bank operation of the payment at the PSP that took it, none at the other.
    const kinds = (await mellat.operations(mellatOrderId(p.id))).map((o) => o.kind);
    assert.ok(
      kinds.includes('token') && kinds.includes('confirm') && kinds.includes('settle'),
      `mellat did ${kinds.join(', ')}`,
    );
    const row = await h.db
      .selectFrom('payments')
      .select(['psp', 'psp_terminal_id'])
      .where('id', '=', p.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(row, { psp: 'mellat', psp_terminal_id: MELLAT_TERMINAL });
    const events = await h.db.selectFrom('events').select(['type', 'body']).where('object_id', '=', p.id).execute();
    const paidEvent = events.find((e) => e.type === 'payment.paid');
    assert.deepEqual((JSON.parse(paidEvent?.body ?? '{}') as { data: { payment: Payment } }).data.payment.psp, {
      name: 'mellat',
      terminal_id: MELLAT_TERMINAL,
    });
    const handle = h.temporal.client.workflow.getHandle(paymentWorkflowId(p.id));
    const { searchAttributes } = await handle.describe();
    assert.deepEqual(
      [searchAttributes.PaymentPsp, searchAttributes.PaymentPspTerminal],
      [['mellat'], [MELLAT_TERMINAL]],
    );
    // SEP was asked twice (the bounded retry), and failed twice: two failures on its breaker.
    assert.equal((await breakerOfSep()).failures, 2);
    recordFixture(FIXTURES, 'RECORD_HISTORIES', 'psp-failover', await handle.fetchHistory());
  });

  it('the breaker opens after PSP_BREAKER_FAILURES failures; the next payments skip that PSP without asking it', async () => {
    const failedAtFirst = await counted('sep', 'failed');
    const skippedAtFirst = await counted('sep', 'skipped');
    const second = await createdPayment(api, key);
    assert.equal((await pressPay(second)).status, 303);
    const opened = await breakerOfSep();
    assert.equal(opened.state, 'open', 'the third failure within the window opens it');
    // Its first attempt was the third failure; its second attempt found the breaker open and was not sent.
    assert.equal(await counted('sep', 'failed'), failedAtFirst + 1);
    assert.equal(await counted('sep', 'skipped'), skippedAtFirst + 1);
    const failedBefore = await counted('sep', 'failed');
    const skippedBefore = await counted('sep', 'skipped');
    const third = await createdPayment(api, key);
    assert.equal((await pressPay(third)).status, 303);
    assert.deepEqual((await waitForStatus(api, key, third.id, 'paid')).psp?.name, 'mellat');
    // The open PSP went last in the route, after the one that gave the token: never asked, not even through its breaker.
    assert.equal(await counted('sep', 'failed'), failedBefore, 'SEP was not asked');
    assert.equal(await counted('sep', 'skipped'), skippedBefore);
    assert.equal((await breakerOfSep()).failures, opened.failures);
    // The gauge says it to Prometheus: 2 is open.
    assert.match(
      await registry.metrics(),
      new RegExp(`dargah_psp_breaker_state\\{psp="sep",terminal="${SEP_TERMINAL}",mode="test"\\} 2`),
    );
    const status = await cli('psps', 'status', '--json');
    assert.equal(status.code, 0, status.stderr);
    assert.ok(Array.isArray((JSON.parse(status.stdout) as { psps: unknown[] }).psps));
  });

  it('after the open period one payment probes the PSP (half-open); its success closes the breaker and the PSP takes payments again', async () => {
    await sep.start();
    await new Promise((r) => setTimeout(r, 2_100));
    assert.equal((await breakerOfSep()).state, 'half_open');
    const probe = await createdPayment(api, key);
    assert.equal((await pressPay(probe)).status, 303);
    assert.deepEqual((await waitForStatus(api, key, probe.id, 'paid')).psp, { name: 'sep', terminal_id: SEP_TERMINAL });
    const closed = await breakerOfSep();
    assert.deepEqual([closed.state, closed.failures], ['closed', 0]);
    const next = await createdPayment(api, key);
    assert.equal((await pressPay(next)).status, 303);
    assert.equal((await paymentOf(next.id)).psp?.name, 'sep');
  });

  it('when no PSP of the route gives a token the customer sees a page that says so (503, never a 500), nothing moves, and Pay works once a PSP is back', async () => {
    await Promise.all([sep.kill(), mellat.kill()]);
    const p = await createdPayment(api, key);
    const refused = await pressPay(p);
    assert.equal(refused.status, 503);
    assert.match(refused.text, /No money was taken|مبلغی از حساب شما کسر نشده/);
    const still = await paymentOf(p.id);
    assert.deepEqual([still.status, still.psp], ['created', null]);
    await mellat.start();
    assert.equal((await pressPay(p)).status, 303);
    assert.equal((await waitForStatus(api, key, p.id, 'paid')).psp?.name, 'mellat');
  });

  it('a payment restricted to cards is never sent to Mellat, whose verify does not name the card: with SEP down its Pay finds no bank; with SEP back it is paid there', async () => {
    // SEP is down (the test before killed it), Mellat is up.
    const p = await createdPayment(api, key, { allowed_cards: ['6037991234567893'] });
    const refused = await pressPay(p);
    assert.equal(refused.status, 503, refused.text);
    assert.equal((await paymentOf(p.id)).psp, null);
    assert.deepEqual(await mellat.operations(mellatOrderId(p.id)), [], 'Mellat was never asked');
    await sep.start();
    await new Promise((r) => setTimeout(r, 2_100)); // past SEP's open period, should its breaker have opened
    assert.equal((await pressPay(p)).status, 303);
    // The simulator's page pays with its default card, the allowed one.
    assert.deepEqual((await waitForStatus(api, key, p.id, 'paid')).psp, { name: 'sep', terminal_id: SEP_TERMINAL });
  });

  it('the shared breaker in MySQL counts concurrent failures once each and lets exactly one of many concurrent callers probe', async () => {
    const terminal = { mode: 'test' as const, psp: 'sep', terminal_id: `concurrent-${process.pid}-${Date.now()}` };
    let now = Date.now();
    const store = new PspHealthStore(
      h.db,
      { failures: 30, windowMs: 60_000, openMs: 1_000, probeTimeoutMs: 10_000 },
      () => now,
    );
    await Promise.all(Array.from({ length: 29 }, () => store.recordFailure(terminal, 'no answer')));
    const [counted29] = await store.states([terminal]);
    assert.deepEqual(
      [counted29?.state, counted29?.failures],
      ['closed', 29],
      'every one of 29 concurrent failures counted',
    );
    await Promise.all(Array.from({ length: 3 }, () => store.recordFailure(terminal, 'no answer')));
    assert.equal((await store.states([terminal]))[0]?.state, 'open');
    assert.deepEqual(await store.admit(terminal), { admitted: false, probe: false });
    now += 1_000;
    const admissions = await Promise.all(Array.from({ length: 12 }, () => store.admit(terminal)));
    assert.deepEqual(
      admissions.filter((a) => a.admitted),
      [{ admitted: true, probe: true }],
      'one probe among 12 callers',
    );
    await store.recordSuccess(terminal);
    const [closed] = await store.states([terminal]);
    assert.deepEqual([closed?.state, closed?.failures], ['closed', 0]);
  });

  it('the operator CLI: routing set refuses unknown or unconfigured PSPs and writes nothing; routing show answers the route', async () => {
    const { merchantId: other } = await newMerchant();
    const unknown = await cli('routing', 'set', '--merchant', other, '--mode', 'test', '--psps', 'sep,bogus');
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown PSP "bogus"/);
    // The suite configures no live PSP but SEP (LIVE_BANK is per API server, not the CLI's): no live Mellat.
    const unconfigured = await cli('routing', 'set', '--merchant', other, '--mode', 'live', '--psps', 'mellat');
    assert.equal(unconfigured.code, 2);
    assert.match(unconfigured.stderr, /mellat is not configured for live payments/);
    // Test mode's default route: every simulator the suite runs, one per PSP of the registry, in its order.
    const shown = JSON.parse((await cli('routing', 'show', '--merchant', other, '--json')).stdout) as {
      routes: { test: { source: string; entries: { psp: string }[] } };
    };
    assert.equal(shown.routes.test.source, 'default');
    assert.deepEqual(
      shown.routes.test.entries.map((e) => e.psp),
      PSP_NAMES,
    );
    const set = await cli(
      'routing',
      'set',
      '--merchant',
      other,
      '--mode',
      'test',
      '--psps',
      'sep',
      '--amounts',
      'sep:1000-5000000',
      '--json',
    );
    assert.equal(set.code, 0, set.stderr);
    const after = JSON.parse(
      (await cli('routing', 'show', '--merchant', other, '--mode', 'test', '--json')).stdout,
    ) as { routes: { test: { source: string; entries: { psp: string; min_amount: number; max_amount: number }[] } } };
    assert.equal(after.routes.test.source, 'merchant');
    assert.deepEqual(
      after.routes.test.entries.map((e) => [e.psp, e.min_amount, e.max_amount]),
      [['sep', 1000, 5_000_000]],
    );
  });
});
