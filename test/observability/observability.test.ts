/**
 * Metrics, traces and the operator's view of one payment, against the real
 * stack: the API and worker entry points run as their own processes (with
 * their own metrics ports, task queue and an OTLP receiver), a payment goes
 * create → the bank simulator → verify with one rate-limited create and one
 * webhook delivery, and then both /metrics endpoints must show exactly that.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { getHarness, newMerchant } from '../support/harness.ts';
import { client, waitFor } from '../support/http.ts';
import { cli } from '../support/cli.ts';
import { chooseOutcome, createPayment, waitForStatus } from '../support/payments.ts';
import { startReceiver, type Receiver } from '../support/receiver.ts';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver.ts';
import { freePort } from '../../src/main/ports.ts';
import {
  scrape,
  startEntryPoint,
  valueOf,
  waitUntilOk,
  type GatewayProcess,
  type Sample,
} from '../support/processes.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';

describe('observability (metrics, traces, payments show)', function () {
  this.timeout(180_000);
  const processes: GatewayProcess[] = [];
  let otlp: OtlpReceiver;
  let receiver: Receiver;
  let apiUrl: string;
  let apiMetrics: string;
  let workerMetrics: string;
  let payment: Payment;
  let env: NodeJS.ProcessEnv;
  let api: Sample[];
  let worker: Sample[];

  before(async () => {
    const h = await getHarness();
    otlp = await startOtlpReceiver();
    receiver = await startReceiver();
    const [port, apiMetricsPort, workerMetricsPort, sdkPort] = [
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    apiUrl = `http://127.0.0.1:${port}`;
    apiMetrics = `http://127.0.0.1:${apiMetricsPort}/metrics`;
    workerMetrics = `http://127.0.0.1:${workerMetricsPort}/metrics`;
    env = {
      ...process.env,
      DATABASE_URL: h.config.DATABASE_URL,
      TEMPORAL_ADDRESS: h.config.TEMPORAL_ADDRESS,
      // A task queue of their own: the suite's in-process worker never takes their tasks.
      TEMPORAL_TASK_QUEUE: `obs-${randomBytes(4).toString('hex')}`,
      PORT: String(port),
      PUBLIC_BASE_URL: apiUrl,
      API_METRICS_PORT: String(apiMetricsPort),
      WORKER_METRICS_PORT: String(workerMetricsPort),
      TEMPORAL_SDK_METRICS_PORT: String(sdkPort),
      TEMPORAL_UI_URL: 'http://temporal-ui.example:8080/',
      BANK_RECONFIRM_AFTER_SECONDS: '1',
      TEST_PAYMENTS_PER_MINUTE: '1',
      WEBHOOK_ALLOW_LOOPBACK_IN_TEST: 'true',
      WEBHOOK_RETRY_SCHEDULE_SECONDS: '0,1,1,2',
      LOG_LEVEL: 'info',
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '200',
    };
    const workerProcess = startEntryPoint('obs-worker', 'src/main/worker.ts', env);
    processes.push(workerProcess);
    const apiProcess = startEntryPoint('obs-api', 'src/main/api.ts', env);
    processes.push(apiProcess);
    await waitUntilOk(`${apiUrl}/readyz`, apiProcess);
    await waitUntilOk(apiMetrics, apiProcess);
    await waitUntilOk(workerMetrics, workerProcess);

    const merchant = await newMerchant();
    const merchantApi = client(apiUrl, merchant.key);
    const endpoint = await merchantApi.post<{ secret: string }>('/webhook_endpoints', {
      url: receiver.url,
      events: ['payment.verified'],
    });
    assert.equal(endpoint.status, 201, endpoint.text);
    receiver.secrets.push(endpoint.body.secret);

    const created = await createPayment(apiUrl, merchant.key);
    assert.equal(created.status, 201, created.text);
    payment = created.body.payment;
    // The merchant's second test payment this minute: 429 rate_limited (TEST_PAYMENTS_PER_MINUTE=1).
    const refused = await createPayment(apiUrl, merchant.key);
    assert.equal(refused.status, 429, refused.text);
    // The worker may still be starting its pollers: the Pay button answers 503 until the token comes.
    let paid = await chooseOutcome(apiUrl, payment.id, 'success');
    for (let retry = 0; paid.status === 503 && retry < 20; retry++) {
      await new Promise((r) => setTimeout(r, 1_000));
      paid = await chooseOutcome(apiUrl, payment.id, 'success');
    }
    assert.equal(paid.status, 303, paid.text);
    await waitForStatus(apiUrl, merchant.key, payment.id, 'paid');
    const verified = await merchantApi.post<{ payment: Payment }>(`/payments/${payment.id}/verify`, {
      amount: payment.amount,
    });
    assert.equal(verified.status, 200, verified.text);
    await receiver.waitForDeliveries((d) => d.event.type === 'payment.verified');

    // The worker counts the attempt after its row is written, just after the receiver answered.
    await waitFor('the delivery to be counted', async () =>
      valueOf(await scrape(workerMetrics), 'dargah_webhook_delivery_attempts_total') >= 1 ? true : undefined,
    );
    api = await scrape(apiMetrics);
    worker = await scrape(workerMetrics);
  });

  after(async () => {
    for (const p of processes) await p.stop();
    await receiver?.close();
    await otlp?.close();
  });

  it('the API counts requests by route template, status and error code, with no id in any label', () => {
    assert.equal(
      valueOf(api, 'dargah_http_requests_total', { route: '/api/v1/payments', method: 'POST', status: '201' }),
      1,
    );
    assert.equal(
      valueOf(api, 'dargah_http_requests_total', { route: '/api/v1/payments', method: 'POST', status: '429' }),
      1,
    );
    assert.equal(
      valueOf(api, 'dargah_http_requests_total', {
        route: '/api/v1/payments/:id/verify',
        method: 'POST',
        status: '200',
      }),
      1,
    );
    assert.equal(
      valueOf(api, 'dargah_http_request_duration_seconds_count', {
        route: '/api/v1/payments/:id/verify',
        method: 'POST',
      }),
      1,
    );
    assert.equal(valueOf(api, 'dargah_rate_limit_refusals_total', { route: '/api/v1/payments' }), 1);
    assert.equal(valueOf(api, 'dargah_rate_limit_refusals_total'), 1);
    assert.equal(valueOf(api, 'dargah_payment_requests_total', { operation: 'create', code: 'ok' }), 1);
    assert.equal(valueOf(api, 'dargah_payment_requests_total', { operation: 'create', code: 'rate_limited' }), 1);
    assert.equal(valueOf(api, 'dargah_payment_requests_total', { operation: 'verify', code: 'ok' }), 1);
    // The hosted pages' routes are templates too.
    assert.ok(
      api.some((s) => s.name === 'dargah_http_requests_total' && s.labels.route === '/pay/:id'),
      'the payment page is counted by its template',
    );
    assert.ok(valueOf(api, 'dargah_mysql_pool_size') > 0);
    assert.ok(api.some((s) => s.name === 'dargah_mysql_pool_connections' && s.labels.state === 'in_use'));
    assert.ok(api.some((s) => s.name === 'dargah_mysql_pool_waiting'));
    for (const sample of [...api, ...worker]) {
      for (const value of Object.values(sample.labels))
        assert.ok(!value.includes(payment.id), `${sample.name} has the payment id in a label`);
      if (sample.labels.route !== undefined)
        assert.ok(
          sample.labels.route === 'unmatched' || /^\/[a-z0-9/_:.-]*$/i.test(sample.labels.route),
          `route label ${sample.labels.route}`,
        );
    }
  });

  it('the worker counts one created → paid, one paid → verified, one delivery succeeded, and serves the Temporal SDK metrics', () => {
    assert.equal(valueOf(worker, 'dargah_payment_transitions_total', { from: 'created', to: 'paid', mode: 'test' }), 1);
    assert.equal(
      valueOf(worker, 'dargah_payment_transitions_total', { from: 'paid', to: 'verified', mode: 'test' }),
      1,
    );
    assert.equal(valueOf(worker, 'dargah_payment_transitions_total'), 2);
    assert.equal(valueOf(worker, 'dargah_payment_paid_to_verified_seconds_count', { mode: 'test' }), 1);
    assert.equal(valueOf(worker, 'dargah_webhook_delivery_attempts_total', { outcome: 'succeeded', attempt: '1' }), 1);
    assert.equal(valueOf(worker, 'dargah_webhook_delivery_attempts_total'), 1);
    assert.equal(valueOf(worker, 'dargah_webhook_oldest_undelivered_seconds'), 0);
    // Records past their bound, one series per waiting state the sweep or the operator handles (docs/RELIABILITY.md#waiting-states).
    for (const [record, state] of [
      ['refund', 'pending'],
      ['settlement', 'failed'],
      ['payment', 'paid'],
      ['webhook_event', 'recorded'],
    ]) {
      assert.ok(
        worker.some((s) => s.name === 'dargah_stuck_records' && s.labels.record === record && s.labels.state === state),
        `dargah_stuck_records{record=${record},state=${state}}`,
      );
    }
    assert.ok(worker.some((s) => s.name === 'dargah_mysql_pool_connections'));
    // The SDK runtime's exporter, appended to the same endpoint.
    assert.ok(
      worker.some(
        (s) => s.name === 'temporal_worker_task_slots_available' && s.labels.worker_type === 'WorkflowWorker',
      ),
      'workflow task slots',
    );
    assert.ok(
      worker.some(
        (s) => s.name === 'temporal_worker_task_slots_available' && s.labels.worker_type === 'ActivityWorker',
      ),
      'activity task slots',
    );
    assert.ok(
      worker.some((s) => s.name.startsWith('temporal_workflow_task_schedule_to_start_latency')),
      'schedule-to-start latency',
    );
    assert.ok(
      worker.some((s) => s.name.startsWith('temporal_long_request')),
      'poll latency',
    );
  });

  it('one trace joins the create request, the workflow start, the workflow, its activities and their MySQL queries', async () => {
    const trace = await waitFor(
      'the create request and its workflow in one trace',
      async () => {
        const http = otlp.spans.find(
          (s) => s.name === 'POST /api/v1/payments' && s.attributes['http.response.status_code'] === 201,
        );
        if (http === undefined) return undefined;
        const spans = otlp.spans.filter((s) => s.traceId === http.traceId);
        const has = (match: (s: ReceivedSpan) => boolean) => spans.some(match);
        return has((s) => s.name === 'StartWorkflow:paymentFlowWorkflow') &&
          has((s) => s.name.startsWith('StartActivity:') && s.service === 'dargah-worker') &&
          has((s) => s.name.startsWith('RunActivity:')) &&
          has((s) => s.name.startsWith('mysql ') && s.service === 'dargah-worker')
          ? { http, spans }
          : undefined;
      },
      30_000,
    );
    assert.equal(trace.http.service, 'dargah-api');
    assert.match(String(trace.http.attributes['dargah.request_id']), /^req_[0-9a-f]{32}$/);
    assert.equal(trace.http.attributes['http.route'], '/api/v1/payments');
    // Every span of the trace descends from the HTTP span (no orphan: the parents are all in it or are the workflow's own, still open).
    const start = trace.spans.find((s) => s.name === 'StartWorkflow:paymentFlowWorkflow')!;
    assert.equal(start.parentSpanId, trace.http.spanId);
    const activity = trace.spans.find((s) => s.name.startsWith('RunActivity:'))!;
    assert.ok(
      trace.spans.some((s) => s.name.startsWith('StartActivity:') && s.spanId === activity.parentSpanId),
      'the activity runs under the workflow span that scheduled it',
    );
    assert.ok(
      trace.spans.some((s) => s.name.startsWith('mysql ') && s.service === 'dargah-api'),
      "the API's insert of the record is in the trace",
    );
    // The verify request's trace reaches its Update and the worker's work under it (the PSP's capabilities
    // read and the verified record written; SEP's verify at the return captured, so no bank call).
    await waitFor(
      "the verify request, its Update and the worker's MySQL work in one trace",
      async () => {
        const http = otlp.spans.find((s) => s.name === 'POST /api/v1/payments/:id/verify');
        if (http === undefined) return undefined;
        const spans = otlp.spans.filter((s) => s.traceId === http.traceId);
        return spans.some((s) => s.name.startsWith('StartWorkflowUpdate:')) &&
          spans.some((s) => s.name.startsWith('mysql ') && s.service === 'dargah-worker')
          ? true
          : undefined;
      },
      30_000,
    );
  });

  it('payments show prints the record, the workflow and its pending activities, the events with each attempt, and the Temporal UI link', async () => {
    // The CLI reads its environment as the processes do; the UI's base URL is the operator's.
    process.env.TEMPORAL_UI_URL = 'http://temporal-ui.example:8080/';
    const [shown, text] = await Promise.all([
      cli('payments', 'show', payment.id, '--json'),
      cli('payments', 'show', payment.id),
    ]).finally(() => delete process.env.TEMPORAL_UI_URL);
    assert.equal(shown.code, 0, shown.stderr);
    const view = JSON.parse(shown.stdout) as {
      payment: { id: string; status: string; amount: number };
      workflow: { id: string; status: string; run_id: string; pending_activities: unknown[]; ui: string };
      refunds_workflow: { id: string; status: string };
      events: { type: string; attempts: { attempt: number; succeeded: boolean; response_status: number }[] }[];
    };
    assert.equal(view.payment.id, payment.id);
    assert.equal(view.payment.status, 'verified');
    assert.equal(view.workflow.status, 'COMPLETED', "a verified payment's workflow ends at verify");
    assert.deepEqual(
      view.refunds_workflow,
      { id: `refunds-${payment.id}`, status: 'NOT_FOUND', pending_activities: [], ui: null },
      'no refund: no refunds workflow',
    );
    assert.ok(Array.isArray(view.workflow.pending_activities));
    assert.equal(
      view.workflow.ui,
      `http://temporal-ui.example:8080/namespaces/default/workflows/payment-${payment.id}/${view.workflow.run_id}/history`,
    );
    assert.deepEqual(
      view.events.map((e) => e.type),
      ['payment.created', 'payment.paid', 'payment.verified'],
    );
    const verifiedEvent = view.events.find((e) => e.type === 'payment.verified')!;
    assert.deepEqual(
      verifiedEvent.attempts.map((a) => [a.attempt, a.succeeded, a.response_status]),
      [[1, true, 200]],
    );

    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, new RegExp(`payment ${payment.id} \\(test\\): verified`));
    assert.match(text.stdout, /workflow payment-\S+ run \S+: COMPLETED/);
    assert.match(text.stdout, /workflow refunds-\S+: NOT_FOUND/);
    assert.match(text.stdout, /attempt 1 to \S+ at \S+: succeeded, status 200/);
    assert.match(text.stdout, /Temporal UI: http:\/\/temporal-ui\.example:8080\/namespaces\/default\/workflows\//);

    const missing = await cli('payments', 'show', 'pay_doesnotexist');
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /no payment pay_doesnotexist/);
    const usage = await cli('payments', 'show');
    assert.equal(usage.code, 2);
  });
});
