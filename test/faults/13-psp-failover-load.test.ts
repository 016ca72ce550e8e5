/**
 * A PSP outage under load (docs/RELIABILITY.md#psp-outage): 200 customers press Pay on the real API
 * and a worker process whose test mode has two PSPs, each a bank simulator process of this test's
 * own, routed SEP first and Mellat second. While they come, SEP's token service goes down (it
 * refuses at once), then hangs (never answers), then recovers. Every customer reaches a working
 * bank page, Mellat's while SEP is out; the breaker opens within PSP_BREAKER_FAILURES failures, the
 * next payments skip SEP without asking it, and once SEP is back the breaker half-opens after its
 * open period, closes on the probe's success, and SEP takes payments again. Then some payments are
 * paid and verified at both PSPs, and the ledger balances. The figures go to
 * test-artifacts/reliability.json (`psp_outage`).
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { PspHealthStore } from '../../src/db/psp-health.ts';
import { breakerSettings } from '../../src/domain/psp-breaker.ts';
import { mellatOrderId } from '../../src/psps/mellat/mapping.ts';
import { replaceMerchantRoute } from '../../src/db/psp-routes.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import { bankFault, bankFaults, OwnSimulator } from '../support/bank.ts';
import { client, waitFor } from '../support/http.ts';
import { assertLedgerBalanced } from '../support/ledger.ts';
import { chooseOnLanding, createPayment, payToBankPage, waitForStatus, type PayLanding } from '../support/payments.ts';
import {
  faultApi,
  faultMerchant,
  getFaultStack,
  inParallel,
  recordFigures,
  WorkerProcess,
} from '../support/faults/fault-stack.ts';
import { untilAnswered } from '../support/faults/checks.ts';

const PAYMENTS = 200;
const SEP_TERMINAL = '81000001';
const MELLAT_TERMINAL = '82000002';
/** Short settings, so the outage, the open period and the recovery fit in a couple of minutes. */
const SETTINGS = {
  BANK_TIMEOUT_MS: '1500',
  PSP_BREAKER_FAILURES: '5',
  PSP_BREAKER_WINDOW_SECONDS: '60',
  PSP_BREAKER_OPEN_SECONDS: '5',
};
const FAILURES = Number(SETTINGS.PSP_BREAKER_FAILURES);
const OPEN_MS = Number(SETTINGS.PSP_BREAKER_OPEN_SECONDS) * 1000;
/** Customers pressing Pay at once, at most, and how often a new one arrives. */
const IN_FLIGHT = 6;
const ARRIVAL_MS = 150;
/** Paid and verified afterwards, of each group (SEP before, Mellat during, SEP after the outage). */
const PAID_PER_GROUP = 6;

interface Customer {
  payment: Payment;
  startedAt: number;
  ms: number;
  landing: PayLanding;
}

describe('fault: the first PSP of the route goes down, then hangs, then recovers, while 200 customers press Pay', () => {
  const sep = new OwnSimulator({ BANK_SIM_TERMINAL_ID: SEP_TERMINAL });
  const mellat = new OwnSimulator({
    BANK_SIM_PROTOCOL: 'mellat',
    BANK_SIM_TERMINAL_ID: MELLAT_TERMINAL,
    BANK_SIM_USERNAME: 'dargah',
    BANK_SIM_PASSWORD: '',
  });
  let worker: WorkerProcess | undefined;
  after(async () => {
    await worker?.kill('SIGTERM');
    await Promise.all([sep.stop(), mellat.stop()]);
  });

  it('every customer reaches a working bank page; the breaker opens, skips SEP, half-opens and closes; SEP takes payments again; the ledger balances', async () => {
    const s = await getFaultStack();
    await Promise.all([sep.start(), mellat.start()]);
    const taskQueue = 'faults-psp-outage';
    worker = await WorkerProcess.start('worker-psp-outage', {
      ...s.workerEnv,
      ...SETTINGS,
      TEMPORAL_TASK_QUEUE: taskQueue,
      SANDBOX_SEP_URL: sep.url,
      SANDBOX_SEP_TERMINAL_ID: SEP_TERMINAL,
      SANDBOX_SEP_PASSWORD: '',
      SANDBOX_MELLAT_URL: mellat.url,
      SANDBOX_MELLAT_TERMINAL_ID: MELLAT_TERMINAL,
      SANDBOX_MELLAT_USERNAME: 'dargah',
      SANDBOX_MELLAT_PASSWORD: '',
    });
    const api = await faultApi({ TEMPORAL_TASK_QUEUE: taskQueue });
    const merchant = await faultMerchant();
    await replaceMerchantRoute(
      s.db,
      merchant.merchantId,
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
    const payments = await inParallel(
      Array.from({ length: PAYMENTS }, (_, i) => i),
      IN_FLIGHT,
      async (i) => {
        const { res } = await untilAnswered(() =>
          createPayment(
            api,
            merchant.key,
            { amount: 100_000 + i * 1_000, merchant_reference: `psp-outage-${i}` },
            `psp-outage-${i}`,
          ),
        );
        assert.equal(res.status, 201, res.text);
        return res.body.payment;
      },
    );

    // SEP's breaker as every process sees it (psp_health), watched every 50 ms: when each state was first seen after a mark.
    const health = new PspHealthStore(
      s.db,
      breakerSettings({
        ...s.baseConfig,
        PSP_BREAKER_FAILURES: FAILURES,
        PSP_BREAKER_WINDOW_SECONDS: 60,
        PSP_BREAKER_OPEN_SECONDS: OPEN_MS / 1000,
        BANK_TIMEOUT_MS: 1500,
      }),
    );
    const sepBreaker = async () => (await health.states([{ mode: 'test', psp: 'sep', terminal_id: SEP_TERMINAL }]))[0]!;
    const seen: { state: string; at: number; failures: number; opened_at: string | null }[] = [];
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const b = await sepBreaker();
        if (seen.at(-1)?.state !== b.state)
          seen.push({ state: b.state, at: Date.now(), failures: b.failures, opened_at: b.opened_at });
        await sleep(50);
      }
    })();
    const firstSeen = (state: string, after: number) => seen.find((e) => e.state === state && e.at >= after);
    const untilSeen = (state: string, after: number) =>
      waitFor(`SEP's breaker ${state}`, async () => firstSeen(state, after), 60_000, 50);
    const sepAnswered = async () => (await bankFaults(sep.url)).answered.token ?? {};

    // The customers: one arrives every ARRIVAL_MS, at most IN_FLIGHT at once, each pressing Pay once.
    const customers: Customer[] = [];
    /** The customers between Pay and the bank's page, by payment, with when they pressed. */
    const pressing = new Map<string, number>();
    const arrivalsStarted = Date.now();
    const arrivals = inParallel(payments, IN_FLIGHT, async (payment, i) => {
      await sleep(Math.max(0, i * ARRIVAL_MS - (Date.now() - arrivalsStarted)));
      const startedAt = Date.now();
      pressing.set(payment.id, startedAt);
      const landing = await payToBankPage(api, payment.id);
      customers.push({ payment, startedAt, ms: Date.now() - startedAt, landing });
      pressing.delete(payment.id);
    });
    const done = (n: number) =>
      waitFor(`${n} customers at a bank page`, async () => (customers.length >= n ? true : undefined), 120_000, 20);

    // Before the outage: SEP gives the tokens.
    await done(20);
    // SEP's token service goes down: it closes every connection without an answer.
    const switchingDownAt = Date.now();
    await bankFault({ operation: 'token', fault: 'down' }, sep.url);
    const downAt = Date.now();
    const opened = await untilSeen('open', downAt);
    // The next payments skip SEP without asking it: once the customers who pressed Pay before it opened
    // are served (their requests may still have been on their way), SEP's count stands still while
    // new customers come, up to the end of the open period (after which one probe may go).
    await waitFor(
      'the customers from before the opening to be served',
      async () => ([...pressing.values()].every((t) => t > opened.at) ? true : undefined),
      30_000,
      20,
    );
    const askedAfterOpening = (await sepAnswered()).down ?? 0;
    const skippingFrom = Date.now();
    const skippers = () => customers.filter((c) => c.startedAt >= skippingFrom);
    await waitFor(
      'five customers to skip SEP, or the open period to near its end',
      async () => (skippers().length >= 5 || Date.now() > opened.at + OPEN_MS - 1_000 ? true : undefined),
      30_000,
      20,
    );
    const askedWhileOpen = ((await sepAnswered()).down ?? 0) - askedAfterOpening;
    assert.equal(askedWhileOpen, 0, 'SEP was asked nothing while its breaker was open');
    const skippedMeanwhile = skippers();
    // Then it hangs: it takes the connection and never answers. After the open period one payment probes it, and waits.
    await bankFault({ operation: 'token', fault: 'timeout' }, sep.url);
    const hangAt = Date.now();
    await waitFor(
      'a probe to meet the hanging SEP and open the breaker again',
      async () => {
        if (((await sepAnswered()).timeout ?? 0) === 0) return undefined;
        return seen.some((e) => e.state === 'open' && e.at > hangAt) ? true : undefined;
      },
      60_000,
      50,
    );
    const sepCounts = await sepAnswered();
    // SEP recovers.
    const clearingAt = Date.now();
    await bankFault({ operation: 'token', fault: 'clear' }, sep.url);
    const clearAt = Date.now();
    const closed = await untilSeen('closed', clearAt);
    await arrivals;
    watching = false;
    await watcher;

    // Every customer reached a bank page that works, on their one press of Pay.
    const errors = customers.filter((c) => c.landing.reached === 'error');
    const seenAs = (c: Customer) => ({ ...c.landing, ms: c.ms, pressed_after_outage_ms: c.startedAt - downAt });
    assert.deepEqual(
      errors.map(seenAs),
      [],
      `${errors.length} customers saw an error; breaker: ${JSON.stringify(seen.map((e) => [e.state, e.at - downAt]))}`,
    );
    const pspOf = (c: Customer) => (c.landing.reached === 'bank_page' ? c.landing.psp : 'none');
    const within = (from: number, to: number) => customers.filter((c) => c.startedAt >= from && c.startedAt < to);
    /** The customers whose whole Pay fell between two moments. */
    const wholly = (from: number, to: number) =>
      customers.filter((c) => c.startedAt >= from && c.startedAt + c.ms <= to);
    const beforeOutage = wholly(0, switchingDownAt);
    const duringOutage = wholly(downAt, clearingAt);
    assert.ok(beforeOutage.length >= 10 && beforeOutage.every((c) => pspOf(c) === 'sep'), 'before the outage, SEP');
    assert.ok(
      duringOutage.length >= 20 && duringOutage.every((c) => pspOf(c) === 'mellat'),
      "while SEP is out, Mellat's page",
    );
    assert.ok(
      skippedMeanwhile.length >= 1 && skippedMeanwhile.every((c) => pspOf(c) === 'mellat'),
      `${skippedMeanwhile.length} customers went to Mellat while SEP was skipped`,
    );

    // The breaker opened within PSP_BREAKER_FAILURES failures. SEP received those, and at most the
    // requests already on their way (one a customer in flight) when the last of them was counted.
    assert.equal(opened.failures, FAILURES);
    const receivedWhileDown = sepCounts.down ?? 0;
    assert.ok(
      receivedWhileDown >= FAILURES && receivedWhileDown <= FAILURES + IN_FLIGHT - 1,
      `SEP received ${receivedWhileDown} token requests while down`,
    );
    // While it hung, only the probes reached it: one per open period at most.
    const probesWhileHung = sepCounts.timeout ?? 0;
    assert.ok(
      probesWhileHung >= 1 && probesWhileHung <= 1 + Math.floor((clearAt - hangAt) / OPEN_MS),
      `SEP received ${probesWhileHung} token requests while hanging`,
    );

    // After the recovery: closed only by a probe, which the breaker lets through once a whole open
    // period has passed since it last opened (half-open; the watcher may see that moment or not).
    const lastOpenedAt = [...seen].reverse().find((e) => e.state === 'open' && e.at <= closed.at)?.opened_at;
    assert.ok(
      typeof lastOpenedAt === 'string' && closed.at - Date.parse(lastOpenedAt) >= OPEN_MS,
      `closed ${closed.at - Date.parse(lastOpenedAt ?? '')} ms after it last opened`,
    );
    const afterClosed = customers.filter((c) => c.startedAt > closed.at);
    assert.ok(
      afterClosed.length >= 10 && afterClosed.every((c) => pspOf(c) === 'sep'),
      `${afterClosed.length} customers after the breaker closed, all at SEP`,
    );

    // Some of them pay, at both PSPs, and the merchant verifies: the bank's ledgers and ours agree.
    const reachedSep = (from: Customer[]) => from.filter((c) => pspOf(c) === 'sep').slice(0, PAID_PER_GROUP);
    const toPay = [...reachedSep(beforeOutage), ...duringOutage.slice(0, PAID_PER_GROUP), ...reachedSep(afterClosed)];
    await inParallel(toPay, 4, async (c) => {
      if (c.landing.reached !== 'bank_page') return;
      const back = await chooseOnLanding(api, c.payment.id, c.landing, 'success');
      assert.equal(back.status, 303, await back.text());
      await waitForStatus(api, merchant.key, c.payment.id, 'paid', 60_000);
      const verified = await client(api, merchant.key).post<{ payment: Payment }>(`/payments/${c.payment.id}/verify`, {
        amount: c.payment.amount,
      });
      assert.equal(verified.status, 200, verified.text);
      assert.equal(verified.body.payment.psp?.name, c.landing.psp);
      const bank =
        c.landing.psp === 'sep'
          ? await sep.operations(c.payment.id)
          : await mellat.operations(mellatOrderId(c.payment.id));
      // SEP's verify at the return captures (no settle); Behpardakht's verified sale is settled at the merchant's verify.
      const captured = c.landing.psp === 'sep' ? ['confirm'] : ['confirm', 'settle'];
      assert.deepEqual(
        bank
          .map((o) => o.kind)
          .filter((k) => k !== 'token')
          .sort(),
        captured,
        `${c.payment.id} at ${c.landing.psp}`,
      );
    });
    const report = await assertLedgerBalanced(s.db, 'after the PSP outage');

    const whileHung = within(hangAt, clearAt);
    recordFigures('psp_outage', {
      payments: customers.length,
      customer_visible_errors: errors.length,
      bank_pages: {
        sep: customers.filter((c) => pspOf(c) === 'sep').length,
        mellat: customers.filter((c) => pspOf(c) === 'mellat').length,
      },
      sep_token_requests_during_outage: {
        while_down: receivedWhileDown,
        while_hanging: probesWhileHung,
        total: receivedWhileDown + probesWhileHung,
      },
      sep_token_requests_while_open_before_any_probe: askedWhileOpen,
      customers_skipping_sep_meanwhile: skippedMeanwhile.length,
      breaker_failures_when_opened: opened.failures,
      outage_to_breaker_open_ms: opened.at - downAt,
      recovery_to_breaker_closed_ms: closed.at - clearAt,
      slowest_pay_to_bank_page_while_sep_hung_ms: Math.max(...whileHung.map((c) => c.ms)),
      customers_while_sep_hung: whileHung.length,
      customers_after_breaker_closed: {
        all: afterClosed.length,
        at_sep: afterClosed.filter((c) => pspOf(c) === 'sep').length,
      },
      slowest_pay_to_bank_page_ms: Math.max(...customers.map((c) => c.ms)),
      median_pay_to_bank_page_ms: [...customers.map((c) => c.ms)].sort((a, b) => a - b)[
        Math.floor(customers.length / 2)
      ],
      paid_and_verified: toPay.length,
      ledger_ok: report.ok,
      breaker_states_seen: seen.map((e) => ({ state: e.state, at_ms: e.at - downAt })),
      settings: {
        ...SETTINGS,
        customers_in_flight: IN_FLIGHT,
        arrival_every_ms: ARRIVAL_MS,
        breaker_observed_every_ms: 50,
      },
    });
  });
});
