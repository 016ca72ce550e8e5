/**
 * The dashboard's settlements area in real Chromium against the real stack: a
 * merchant signed up in the dashboard and taken live, live payments paid
 * through the bank simulator, settlements made by the settlement workflow on
 * the real worker (one paid, one the bank refused, one carried), then the
 * pages, the filters and the CSV, in both languages.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { getHarness, liveBankApi, type Harness } from '../support/harness.ts';
import { client } from '../support/http.ts';
import { assertLedgerBalanced } from '../support/ledger.ts';
import { screenshot } from '../support/browser.ts';
import { goLive, verifiedLivePayment } from '../support/live.ts';
import { bankFault } from '../support/bank.ts';
import { SETTLEMENT_IBAN, settleNow } from '../support/settlement.ts';
import {
  assertAccessible,
  assertLanguage,
  assertNoScript,
  assertStrictHeaders,
  dashboardBrowser,
  persian,
  rials,
  signInInBrowser,
  signUpInBrowser,
  type Lang,
} from '../support/dashboard.ts';
import { tehranDay } from '../../src/domain/calendar.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import type { Refund } from '../../src/domain/refund-schemas.ts';
import type { Balance, Settlement } from '../../src/domain/settlement-schemas.ts';
import { getSettlement, getSettlementLinesPage, setSettlementIban } from '../../src/settlements/service.ts';
import { tenantOf } from '../../src/domain/merchant.ts';
import { approveTypedIban, REFUND_IBAN } from '../support/refunds.ts';

/** What the tests read of a table row in the page (the suite is typed without the DOM's library). */
interface Row {
  getAttribute(name: string): string | null;
  querySelector(selector: string): { textContent: string | null } | null;
}

/** The Tehran day `days` after the instant's. */
const dayAfter = (at: string, days: number) => tehranDay(new Date(Date.parse(at) + days * 86_400_000));

describe('merchant dashboard: settlements', function () {
  this.timeout(300_000);
  const dashboard = dashboardBrowser();
  let h: Harness;
  let base: string;
  /** The merchant whose settlements the pages show, signed up in the dashboard. */
  const shop = { email: '', merchantId: '', liveKey: '' };
  let payments: Payment[];
  let refund: Refund;
  let paid: Settlement;
  let failed: Settlement;

  before(async function () {
    this.timeout(300_000);
    h = await getHarness();
    base = dashboard.base;
    const { page } = await dashboard.phone();
    shop.email = await signUpInBrowser(
      page,
      { base, mailbox: dashboard.mailbox },
      'fa',
      `Settled shop ${randomUUID().slice(0, 8)}`,
    );
    shop.merchantId = (
      await h.db.selectFrom('users').select('merchant_id').where('email', '=', shop.email).executeTakeFirstOrThrow()
    ).merchant_id;
    shop.liveKey = await goLive(shop.merchantId);
    await setSettlementIban(h.db, shop.merchantId, SETTLEMENT_IBAN);
    const liveApi = await liveBankApi();
    const api = client(liveApi, shop.liveKey);

    // Paid: two payments less their 1 % fees and a refund of 500,000.
    payments = [
      await verifiedLivePayment(liveApi, shop.liveKey, 2_000_000),
      await verifiedLivePayment(liveApi, shop.liveKey, 1_000_000),
    ];
    const refunded = await api.post<{ refund: Refund }>(`/payments/${payments[0]!.id}/refunds`, {
      destination_iban: REFUND_IBAN,
      amount: 500_000,
    });
    assert.equal(refunded.status, 201, refunded.text);
    // A typed IBAN is held until the operator approves it; settlement deducts it from then on.
    refund = await approveTypedIban(refunded.body.refund);
    const first = await settleNow(shop.merchantId);
    assert.deepEqual(first.outcome, { result: 'paid', settlement_id: first.id, net: 2_470_000 });

    // Failed: the bank refuses the payout of a third payment; its net stays in payout.
    payments.push(await verifiedLivePayment(liveApi, shop.liveKey, 1_000_000));
    await bankFault({ operation: 'payout', fault: 'unknown', times: 1 });
    const second = await settleNow(shop.merchantId);
    await bankFault(null);
    assert.deepEqual(second.outcome, { result: 'failed', settlement_id: second.id, net: 990_000 });

    // Carried: a refund of a settled payment with nothing to settle against it.
    const late = await api.post<{ refund: Refund }>(`/payments/${payments[1]!.id}/refunds`, {
      destination_iban: REFUND_IBAN,
      amount: 100_000,
    });
    assert.equal(late.status, 201, late.text);
    await approveTypedIban(late.body.refund);
    assert.deepEqual((await settleNow(shop.merchantId)).outcome, { result: 'carried', net: -100_000 });

    await assertLedgerBalanced(h.db, 'after the three settlement runs', { merchantIds: [shop.merchantId] });
    const read = async (id: string) =>
      (await client(base, shop.liveKey).get<{ settlement: Settlement }>(`/settlements/${id}`)).body.settlement;
    [paid, failed] = [await read(first.id), await read(second.id)];
  });

  /** What every page must pass, and its screenshots at 390 and 1280 px. */
  async function checkPage(page: Page, lang: Lang, name: string): Promise<void> {
    await assertLanguage(page, lang);
    await assertNoScript(page, name);
    await assertAccessible(page, name);
    // Nothing wider than the phone: tables become cards instead of scrolling sideways.
    const overflow = await page.evaluate<number>(
      'document.documentElement.scrollWidth - document.documentElement.clientWidth',
    );
    assert.ok(overflow <= 0, `${name}: the page is ${overflow} px wider than the 390 px phone`);
    await screenshot(page, `dashboard-${lang}-390-${name}`);
    const wide = await dashboard.desktopOf(page);
    await wide.goto(page.url());
    await assertAccessible(wide, `${name} at 1280 px`);
    await screenshot(wide, `dashboard-${lang}-1280-${name}`);
  }

  /** The list's rows: id, status and the cells' texts. */
  const listRows = (page: Page) =>
    page.locator('#settlements tbody tr').evaluateAll((rows: Row[]) =>
      rows.map((r) => {
        // Runs in the page: everything it uses is written inside it, and no function in it has a name (the compiler would wrap it in a helper the page lacks).
        const [gross, fees, refunds, net, iban] = ['gross', 'fees', 'refunds', 'net', 'iban'].map(
          (c) => r.querySelector(`.${c}`)?.textContent?.trim() ?? '',
        );
        return {
          id: r.getAttribute('data-id') ?? '',
          status: r.getAttribute('data-status') ?? '',
          gross,
          fees,
          refunds,
          net,
          iban,
        };
      }),
    );

  for (const lang of ['fa', 'en'] as const) {
    const number = (n: number) => (lang === 'fa' ? persian(String(n)) : String(n));

    it(`(${lang}) the live balance as GET /balance has it, the settlements with their figures, the filters, a settlement's lines, and its CSV`, async () => {
      const { page } = await dashboard.phone();
      await signInInBrowser(page, base, shop.email);

      // Test mode, the default: why there is nothing, and the way to live.
      const first = await page.goto(`${base}/dashboard/settlements?lang=${lang}`);
      assertStrictHeaders(first!.headers(), 'settlements page');
      assert.ok(await page.locator('#test-settlements').isVisible());
      assert.equal(await page.locator('#settlements').count(), 0);
      assert.equal(
        await page.locator('nav.nav a[aria-current="page"]').innerText(),
        lang === 'fa' ? 'تسویه‌ها' : 'Settlements',
      );
      await checkPage(page, lang, 'settlements-test');
      await Promise.all([page.waitForURL(/mode=live/), page.click('#show-live')]);

      // The balance: the API's figures, and exactly what the three runs leave.
      const balance = (await client(base, shop.liveKey).get<{ balance: Balance }>('/balance')).body.balance;
      assert.deepEqual(
        { available: balance.available, pending: balance.pending, held: balance.held, in_payout: balance.in_payout },
        { available: -100_000, pending: 0, held: 0, in_payout: 990_000 },
      );
      const figure = (id: string) => page.locator(`#balance-${id} dd`).innerText();
      assert.equal(await figure('available'), rials(-100_000, lang));
      assert.equal(await figure('pending'), rials(0, lang));
      assert.equal(await figure('held'), rials(0, lang));
      assert.equal(await figure('in-payout'), rials(990_000, lang));
      assert.ok(await page.locator('#carried-note').isVisible(), 'a negative balance says it is carried');

      // The list: newest first, to the rial, the IBAN masked.
      assert.deepEqual(await listRows(page), [
        {
          id: failed.id,
          status: 'failed',
          gross: rials(1_000_000, lang),
          fees: rials(10_000, lang),
          refunds: rials(0, lang),
          net: rials(990_000, lang),
          iban: 'IR16…7890',
        },
        {
          id: paid.id,
          status: 'paid',
          gross: rials(3_000_000, lang),
          fees: rials(30_000, lang),
          refunds: rials(500_000, lang),
          net: rials(2_470_000, lang),
          iban: 'IR16…7890',
        },
      ]);
      await checkPage(page, lang, 'settlements');

      // Filters: a status; a range of Tehran days (both ends included) that holds both, and ones that hold neither.
      await page.selectOption('#status', 'paid');
      await Promise.all([page.waitForURL(/status=paid/), page.click('#filter-form button[type=submit]')]);
      assert.deepEqual(
        (await listRows(page)).map((r) => r.id),
        [paid.id],
      );
      const day = tehranDay(new Date(paid.created_at));
      const filtered = async (status: string, from: string, to: string) => {
        await page.selectOption('#status', status);
        await page.fill('#from', from);
        await page.fill('#to', to);
        await Promise.all([
          page.waitForURL((url) => url.search.endsWith(`status=${status}&from=${from}&to=${to}`)),
          page.click('#filter-form button[type=submit]'),
        ]);
        return (await listRows(page)).map((r) => r.id);
      };
      assert.deepEqual(await filtered('', dayAfter(paid.created_at, 0), dayAfter(failed.created_at, 0)), [
        failed.id,
        paid.id,
      ]);
      assert.equal(await page.inputValue('#from'), day, 'the form keeps its filters');
      assert.deepEqual(await filtered('failed', day, dayAfter(failed.created_at, 0)), [failed.id]);
      assert.deepEqual(await filtered('', dayAfter(failed.created_at, 1), dayAfter(failed.created_at, 2)), []);
      assert.equal(
        await page.locator('#no-settlements').innerText(),
        lang === 'fa' ? 'هیچ تسویه‌ای با این فیلترها نیست.' : 'No settlement matches these filters.',
      );
      assert.deepEqual(await filtered('', dayAfter(paid.created_at, -3), dayAfter(paid.created_at, -1)), []);

      // The paid settlement: its figures and its lines, each leading to its payment.
      await page.goto(`${base}/dashboard/settlements?mode=live`);
      await Promise.all([
        page.waitForURL(new RegExp(`/dashboard/settlements/${paid.id}$`)),
        page.click(`#settlements tr[data-id="${paid.id}"] a`),
      ]);
      assert.equal(await page.locator('#net').innerText(), rials(2_470_000, lang));
      assert.equal(await page.locator('#status').innerText(), lang === 'fa' ? 'واریز شد' : 'Paid');
      const detail = (id: string) => page.locator(`#detail-${id} dd`).innerText();
      assert.equal(await detail('gross'), rials(3_000_000, lang));
      assert.equal(await detail('fees'), rials(30_000, lang));
      assert.equal(await detail('refunds'), rials(500_000, lang));
      assert.equal(await detail('payment-count'), number(2));
      assert.equal(await detail('refund-count'), number(1));
      assert.equal(await detail('iban'), 'IR16 0120 0000 0000 1234 5678 90');
      const lines = await page.locator('#lines tbody tr').evaluateAll((rows: Row[]) =>
        rows.map((r) => {
          // In the page, like listRows.
          const cells = ['line-amount', 'line-fee', 'line-net'].map(
            (c) => r.querySelector(`.${c}`)?.textContent?.trim() ?? '',
          );
          return [r.getAttribute('data-kind') ?? '', r.getAttribute('data-id') ?? '', ...cells].join(' | ');
        }),
      );
      const [p1, p2] = [payments[0]!, payments[1]!];
      const expected: [string, string, number, number, number][] = [
        ...[p1, p2]
          .sort((a, b) => a.id.localeCompare(b.id))
          .map((p): [string, string, number, number, number] => ['payment', p.id, p.amount, p.fee, p.amount - p.fee]),
        ['refund', refund.id, -500_000, 0, -500_000],
      ];
      assert.deepEqual(
        lines,
        expected.map(([kind, id, amount, fee, net]) =>
          [kind, id, rials(amount, lang), rials(fee, lang), rials(net, lang)].join(' | '),
        ),
      );
      await checkPage(page, lang, 'settlement');

      // The CSV: the API's rows, downloaded with the session.
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-lines')]);
      assert.equal(download.suggestedFilename(), `settlement-${paid.id}.csv`);
      const csv = await readFile(await download.path());
      const fromApi = await fetch(`${base}/api/v1/settlements/${paid.id}/lines.csv`, {
        headers: { authorization: `Bearer ${shop.liveKey}` },
      });
      assert.equal(csv.toString('utf8'), await fromApi.text());
      assert.deepEqual(csv.toString('utf8').trim().split('\r\n'), [
        'kind,object_id,payment_id,amount,fee,net,iban',
        ...expected.map(([kind, id, amount, fee, net]) =>
          [kind, id, kind === 'refund' ? p1.id : id, amount, fee, net, ''].join(','),
        ),
      ]);
      const response = await page.request.get(`${base}/dashboard/settlements/${paid.id}/lines.csv`);
      assert.equal(response.headers()['content-type'], 'text/csv; charset=utf-8');
      assert.equal(response.headers()['cache-control'], 'no-store');

      // A refund's line leads to its payment's page.
      await Promise.all([
        page.waitForURL(new RegExp(`/dashboard/payments/${p1.id}`)),
        page.click(`#lines tr[data-kind="refund"] a`),
      ]);
      assert.equal(await page.locator('#amount').innerText(), rials(p1.amount, lang));

      // The failed settlement says the bank refused it, and why.
      await page.goto(`${base}/dashboard/settlements/${failed.id}`);
      assert.equal(await page.locator('#status').innerText(), lang === 'fa' ? 'ناموفق' : 'Failed');
      assert.match(
        await page.locator('#settlement-note').innerText(),
        lang === 'fa' ? /بانک این واریز را نپذیرفت/ : /The bank refused this transfer/,
      );
      assert.equal(await page.locator('#settlement-failure').innerText(), failed.failure!.message);
      assert.deepEqual(
        await page
          .locator('#lines tbody tr')
          .evaluateAll((rows: Row[]) => rows.map((r) => r.getAttribute('data-id') ?? '')),
        [payments[2]!.id],
      );
      await checkPage(page, lang, 'settlement-failed');
    });
  }

  it("a settlement's lines page by page, in the order the CSV has them", async () => {
    const all = (await getSettlement(h.db, tenantOf(shop.merchantId, 'live'), paid.id)).lines;
    const first = await getSettlementLinesPage(h.db, tenantOf(shop.merchantId, 'live'), paid.id, { limit: 2 });
    assert.deepEqual(first.lines, all.slice(0, 2));
    assert.deepEqual(first.next, { kind: all[1]!.kind, object_id: all[1]!.object_id });
    const second = await getSettlementLinesPage(h.db, tenantOf(shop.merchantId, 'live'), paid.id, {
      limit: 2,
      after: first.next ?? undefined,
    });
    assert.deepEqual([second.lines, second.next], [all.slice(2), null]);

    // The page after the second line: the last one, a link back to the first page, none further.
    const { page } = await dashboard.phone();
    await signInInBrowser(page, base, shop.email);
    await page.goto(`${base}/dashboard/settlements/${paid.id}?after=${all[1]!.kind}:${all[1]!.object_id}`);
    assert.deepEqual(
      await page
        .locator('#lines tbody tr')
        .evaluateAll((rows: Row[]) => rows.map((r) => r.getAttribute('data-id') ?? '')),
      [all[2]!.object_id],
    );
    assert.equal(await page.locator('#next-page').count(), 0);
    assert.equal(await page.locator('.pager a').getAttribute('href'), `/dashboard/settlements/${paid.id}`);
  });

  it("another merchant's settlement, its CSV and a made-up id are 404; signed out, the CSV is the sign-in page", async () => {
    const { page } = await dashboard.phone();
    const other = await signUpInBrowser(
      page,
      { base, mailbox: dashboard.mailbox },
      'en',
      `Other shop ${randomUUID().slice(0, 8)}`,
    );
    await signInInBrowser(page, base, other);
    for (const path of [
      `/dashboard/settlements/${paid.id}`,
      `/dashboard/settlements/${paid.id}/lines.csv`,
      `/dashboard/settlements/${randomUUID()}`,
      '/dashboard/settlements/not-an-id',
    ]) {
      const response = await page.goto(`${base}${path}`);
      assert.equal(response?.status(), 404, path);
      assert.equal(await page.locator('main h1').innerText(), 'Not found', path);
    }
    // Its own live list: nothing of the first merchant's, and a zero balance.
    await page.goto(`${base}/dashboard/settlements?mode=live`);
    assert.ok(await page.locator('#no-settlements').isVisible());
    assert.equal(await page.locator('#balance-available dd').innerText(), rials(0, 'en'));

    const signedOut = await fetch(`${base}/dashboard/settlements/${paid.id}/lines.csv`, { redirect: 'manual' });
    assert.equal(signedOut.status, 303);
    assert.match(signedOut.headers.get('location') ?? '', /\/dashboard\/sign-in$/);
  });
});
