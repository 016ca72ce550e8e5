/**
 * Who may pay (docs/PAYMENTS.md#who-may-pay-cards-and-national-code), against the real stack: MySQL,
 * the Temporal dev server, the API, the suite's worker and the bank simulator as its own process,
 * whose page the customer pays on with the card typed in its card field. A payment restricted to
 * card X paid with card Y is reversed at the bank and fails `card_not_allowed`, never paid; paid with
 * X it is paid and verified. No full card number (nor its plain SHA-256) is in the workflow's history,
 * the API's answers or the record.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { bankAdmin, bankOperations } from '../support/bank.ts';
import { launchChromium, phonePage, screenshot, type PhonePage } from '../support/browser.ts';
import { getHarness, newMerchant, type Harness } from '../support/harness.ts';
import { request } from '../support/http.ts';
import { chooseOutcome, createPayment, createdPayment, paymentRequest, waitForStatus } from '../support/payments.ts';
import { historyText, recordFixture } from '../support/replay.ts';
import { closeReceivers, forPayment, merchantWithReceiver } from '../support/webhooks.ts';
import { restrictionFingerprint } from '../../src/psps/card-hash.ts';
import { cardHashKey } from '../../src/config.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import { requestHash } from '../../src/payments/idempotency.ts';
import { paymentWorkflowId } from '../../src/domain/payment-workflow.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'histories');
/** The merchant's customer's own card, and another (both Luhn-valid, neither the simulator's default). */
const CARD_X = '5022291234567897';
const CARD_Y = '6274121234567899';
const NATIONAL_CODE = '0499370899';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** Every form of the secrets that must never appear: the full numbers and their plain hashes. */
const SECRETS = [
  CARD_X,
  CARD_Y,
  NATIONAL_CODE,
  sha256(CARD_X),
  sha256(CARD_Y),
  sha256(CARD_X).toUpperCase(),
  sha256(CARD_Y).toUpperCase(),
];

function assertNoSecrets(text: string, where: string): void {
  for (const secret of SECRETS) assert.ok(!text.includes(secret), `${where} holds ${secret.slice(0, 6)}…`);
}

describe('who may pay: a payment restricted to cards and a national code', function () {
  this.timeout(120_000);
  let h: Harness;
  let key: string;
  let api: Awaited<ReturnType<typeof merchantWithReceiver>>;

  before(async () => {
    h = await getHarness();
    api = await merchantWithReceiver();
    key = api.merchant.key;
  });
  after(closeReceivers);

  const restricted = () => ({ allowed_cards: [CARD_X], national_code: NATIONAL_CODE });
  const historyOf = async (id: string) => h.temporal.client.workflow.getHandle(paymentWorkflowId(id)).fetchHistory();

  it('Luhn-checks the cards and check-digit-checks the national code: 422 validation_failed naming each bad field, and nothing written', async () => {
    const cases: { body: Record<string, unknown>; paths: string[] }[] = [
      { body: { allowed_cards: [CARD_X, '5022291234567898'] }, paths: ['allowed_cards.1'] },
      { body: { national_code: '0499370898' }, paths: ['national_code'] },
      { body: { national_code: '1111111111' }, paths: ['national_code'] },
      { body: { allowed_cards: ['502229123456789'] }, paths: ['allowed_cards.0'] },
      { body: { allowed_cards: [CARD_X, CARD_X] }, paths: ['allowed_cards'] },
      { body: { allowed_cards: [] }, paths: ['allowed_cards'] },
      { body: { allowed_cards: Array.from({ length: 6 }, () => CARD_X) }, paths: ['allowed_cards'] },
      { body: { allowed_cards: ['5022-2912-3456-7897'] }, paths: ['allowed_cards.0'] },
    ];
    for (const { body, paths } of cases) {
      const reference = `restricted-bad-${Math.random().toString(36).slice(2)}`;
      const res = await createPayment(h.baseUrl, key, { ...body, merchant_reference: reference });
      assert.equal(res.status, 422, `${JSON.stringify(body)}: ${res.text}`);
      const answer = JSON.parse(res.text) as { code: string; details: { path: string }[] };
      assert.equal(answer.code, 'validation_failed');
      for (const path of paths)
        assert.ok(
          answer.details.some((d) => d.path === path),
          `${JSON.stringify(body)}: ${path} named in ${res.text}`,
        );
      assertNoSecrets(res.text, 'the refusal');
      const written = await h.db
        .selectFrom('payments')
        .select('id')
        .where('merchant_reference', '=', reference)
        .execute();
      assert.deepEqual(written, [], 'no payment row');
    }
  });

  it('shows the restriction masked, and keeps the cards only masked and as keyed hashes (not their plain SHA-256)', async () => {
    const res = await createPayment(h.baseUrl, key, { allowed_cards: [CARD_X, CARD_Y], national_code: NATIONAL_CODE });
    assert.equal(res.status, 201, res.text);
    assertNoSecrets(res.text, 'the create answer');
    assert.deepEqual(res.body.payment.allowed_cards, ['502229******7897', '627412******7899']);
    assert.equal(res.body.payment.national_code, '049*****99');
    const read = await request<{ payment: Payment }>(h.baseUrl, 'GET', `/api/v1/payments/${res.body.payment.id}`, {
      key,
    });
    assert.deepEqual(read.body.payment.allowed_cards, ['502229******7897', '627412******7899']);
    assertNoSecrets(read.text, 'the payment resource');
    const row = await h.db
      .selectFrom('payments')
      .selectAll()
      .where('id', '=', res.body.payment.id)
      .executeTakeFirstOrThrow();
    assertNoSecrets(JSON.stringify(row), 'the payment row');
    assert.equal((JSON.parse(row.allowed_card_hashes ?? '[]') as string[]).length, 2);
    const plain = await createdPayment(h.baseUrl, key);
    assert.equal(plain.allowed_cards, null);
    assert.equal(plain.national_code, null);
  });

  it('paid with another card: reversed at the bank, failed card_not_allowed with its own event, never paid, and no card in the history', async () => {
    const p = await createdPayment(h.baseUrl, key, restricted());
    const back = await chooseOutcome(h.baseUrl, p.id, 'success', CARD_Y);
    assert.equal(back.status, 303, back.text);
    const failed = await waitForStatus(h.baseUrl, key, p.id, 'failed');
    assert.equal(failed.failure?.code, 'card_not_allowed');
    assert.equal(failed.paid_at, null);
    assert.equal(failed.card_pan, '627412******7899', 'the card that paid, masked');
    // The bank confirmed, then reversed: the simulator's ledger holds both, and the transaction reversed.
    assert.deepEqual(
      (await bankOperations(p.id)).map((o) => o.kind),
      ['confirm', 'reverse'],
    );
    const { transactions } = await bankAdmin<{ transactions: { reversed_at?: string; card_pan?: string }[] }>(
      `/admin/transactions?res_num=${p.id}`,
    );
    assert.ok(
      transactions.some((t) => t.reversed_at !== undefined && t.card_pan === '627412******7899'),
      JSON.stringify(transactions),
    );
    // Its own event, and never payment.paid or a capture in the ledger.
    const [event] = await api.rcv.waitForDeliveries(forPayment(p.id, 'payment.card_not_allowed'));
    assert.equal(event!.event.data.payment?.failure?.code, 'card_not_allowed');
    assert.deepEqual(event!.event.data.payment?.allowed_cards, ['502229******7897']);
    const events = await h.db
      .selectFrom('events')
      .select('type')
      .where('object_id', '=', p.id)
      .orderBy('created_at')
      .execute();
    assert.deepEqual(
      events.map((e) => e.type),
      ['payment.created', 'payment.card_not_allowed'],
    );
    const postings = await h.db
      .selectFrom('ledger_postings')
      .select('movement')
      .where('payment_id', '=', p.id)
      .execute();
    assert.deepEqual(postings, [], 'no capture posted');
    const history = await historyOf(p.id);
    const text = historyText(history);
    // The decoding works: the payloads are read (the masked card the bank answered).
    assert.ok(
      text.includes('627412******7899') && text.includes('"card_allowed":false'),
      'the confirm answer is read from the history',
    );
    // The payment flow workflow takes the card restriction's path with no patch marker (the lifecycle type's fixtures hold it).
    assert.ok(!text.includes('card-restriction'), 'no patch marker in the history');
    assertNoSecrets(text, "the workflow's history");
    // A verify of it is refused: it was never paid.
    const verify = await request(h.baseUrl, 'POST', `/api/v1/payments/${p.id}/verify`, {
      key,
      body: { amount: p.amount },
    });
    assert.equal(verify.status, 409, verify.text);
    assert.match(verify.text, /payment_not_paid/);
    recordFixture(FIXTURES, 'RECORD_HISTORIES', 'card-not-allowed', history);
  });

  it('paid with an allowed card: paid, then verified, and no card in the history', async () => {
    const p = await createdPayment(h.baseUrl, key, { allowed_cards: [CARD_Y, CARD_X], national_code: NATIONAL_CODE });
    assert.equal((await chooseOutcome(h.baseUrl, p.id, 'success', CARD_X)).status, 303);
    const paid = await waitForStatus(h.baseUrl, key, p.id, 'paid');
    assert.equal(paid.card_pan, '502229******7897');
    const verified = await request<{ payment: Payment }>(h.baseUrl, 'POST', `/api/v1/payments/${p.id}/verify`, {
      key,
      body: { amount: p.amount },
    });
    assert.equal(verified.status, 200, verified.text);
    assert.equal(verified.body.payment.status, 'verified');
    assert.deepEqual(verified.body.payment.allowed_cards, ['627412******7899', '502229******7897']);
    assertNoSecrets(verified.text, 'the verify answer');
    // SEP's verify at the return captured: no settle.
    assert.deepEqual(
      (await bankOperations(p.id)).map((o) => o.kind),
      ['confirm'],
    );
    const history = await historyOf(p.id);
    const text = historyText(history);
    assert.ok(
      text.includes('502229******7897') && text.includes('"card_allowed":true'),
      'the confirm answer is read from the history',
    );
    assertNoSecrets(text, "the workflow's history");
    recordFixture(FIXTURES, 'RECORD_HISTORIES', 'card-allowed', history);
  });

  it('a payment without a restriction is paid with any card, as before', async () => {
    const p = await createdPayment(h.baseUrl, key);
    assert.equal((await chooseOutcome(h.baseUrl, p.id, 'success', CARD_Y)).status, 303);
    const paid = await waitForStatus(h.baseUrl, key, p.id, 'paid');
    assert.equal(paid.card_pan, '627412******7899');
  });

  it('the same create under the same Idempotency-Key answers the same payment; its stored fingerprint holds no card', async () => {
    const idem = `card-${Math.random().toString(36).slice(2)}`;
    const body: ReturnType<typeof paymentRequest> & { allowed_cards?: string[]; national_code?: string } =
      paymentRequest(restricted());
    const first = await request<{ payment: Payment }>(h.baseUrl, 'POST', '/api/v1/payments', {
      key,
      body,
      idempotencyKey: idem,
    });
    const again = await request<{ payment: Payment }>(h.baseUrl, 'POST', '/api/v1/payments', {
      key,
      body,
      idempotencyKey: idem,
    });
    assert.equal(first.status, 201, first.text);
    assert.equal(again.body.payment.id, first.body.payment.id);
    const other = await request(h.baseUrl, 'POST', '/api/v1/payments', {
      key,
      body: { ...body, allowed_cards: [CARD_Y] },
      idempotencyKey: idem,
    });
    assert.equal(other.status, 422, 'another body under the same key is refused');
    const stored = await h.db.selectFrom('idempotency_keys').selectAll().where('idempotency_key', '=', idem).execute();
    assert.equal(stored.length, 1);
    assertNoSecrets(JSON.stringify(stored), 'the idempotency record');
    // The fingerprint is of the body with its cards and national code keyed, not of the body as sent.
    assert.notEqual(stored[0]!.request_hash, requestHash(body));
    assert.equal(stored[0]!.request_hash, requestHash(restrictionFingerprint(cardHashKey(h.config), body)));
  });

  describe('the payment page in Chromium', () => {
    let browser: Browser;
    const open: PhonePage[] = [];
    before(async () => {
      browser = await launchChromium();
    });
    after(async () => {
      for (const p of open) await p.context.close();
      await browser?.close();
    });

    for (const lang of ['fa', 'en'] as const) {
      it(`shows the allowed cards and the national code, masked (${lang})`, async () => {
        const { key: own } = await newMerchant();
        const p = await createdPayment(h.baseUrl, own, {
          allowed_cards: [CARD_X, CARD_Y],
          national_code: NATIONAL_CODE,
        });
        const phone = await phonePage(browser);
        open.push(phone);
        await phone.page.goto(`${h.baseUrl}/pay/${p.id}${lang === 'en' ? '?lang=en' : ''}`);
        const cards = (await phone.page.locator('#allowed-cards').innerText()).replace(/\s+/g, ' ');
        assert.ok(cards.includes('502229******7897') && cards.includes('627412******7899'), cards);
        assert.match(cards, lang === 'en' ? /another card is not accepted/ : /کارت دیگر پذیرفته نمی‌شود/);
        assert.ok((await phone.page.locator('#national-code').innerText()).includes('049*****99'));
        const label = await phone.page.locator('.row:has(#allowed-cards) dt').innerText();
        assert.equal(label, lang === 'en' ? 'Only with these cards' : 'فقط با این کارت‌ها');
        assertNoSecrets(await phone.page.content(), 'the payment page');
        assert.deepEqual(phone.errors, []);
        await screenshot(phone.page, `card-restriction-${lang}`);
      });
    }

    it('a payment without a restriction shows neither row', async () => {
      const p = await createdPayment(h.baseUrl, key);
      const phone = await phonePage(browser);
      open.push(phone);
      await phone.page.goto(`${h.baseUrl}/pay/${p.id}?lang=en`);
      assert.equal(await phone.page.locator('#allowed-cards').count(), 0);
      assert.equal(await phone.page.locator('#national-code').count(), 0);
    });
  });
});
