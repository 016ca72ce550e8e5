/**
 * Refunds go only to the payer (docs/PAYMENTS.md#how-a-refund-is-paid-out), against the real stack: test
 * mode's PSP is SEP (no refund operation, a reversal only of the whole payment within 50 minutes), the bank
 * simulator pays the transfers, the identity provider's simulator names each card's account, and the
 * operator decides with the CLI, as a separate process.
 */
import assert from 'node:assert/strict';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import { bankAdmin } from '../support/bank.ts';
import { cli } from '../support/cli.ts';
import { getHarness, newMerchant } from '../support/harness.ts';
import { client } from '../support/http.ts';
import { liveMerchant, verifiedLivePayment } from '../support/live.ts';
import { REFUND_IBAN, verifiedPayment, waitForRefund, type RefundBody } from '../support/refunds.ts';

/** SEP's simulator's default card (src/bank-sim/customer-page.ts) and its account at the identity simulator. */
const PAYING_CARD = '6037991234567893';
const PAYING_CARD_ACCOUNT = { iban: 'IR110170000000123456789001', owner_name: 'علی رضایی' };
/** Another card the identity simulator knows (Sadad's page's): not the one that paid. */
const OTHER_CARD = '6037997123456783';

type Transfer = { transfer_id: string; iban: string; amount: number | string };
const transfersOf = async (refundId: string) =>
  (await bankAdmin<{ transfers: Transfer[] }>('/admin/transfers')).transfers
    .filter((t) => t.transfer_id === `refund-payout:${refundId}`)
    .map((t) => [t.iban, Number(t.amount)]);

/** The payment as paid two hours ago: SEP's reversal window (50 minutes) has closed. */
async function pastReversalWindow(paymentId: string): Promise<void> {
  const h = await getHarness();
  await h.db
    .updateTable('payments')
    .set({ paid_at: new Date(Date.now() - 2 * 3_600_000) })
    .where('id', '=', paymentId)
    .execute();
}

/** The claim page of `claimUrl` (its HTML, and the form's CSRF session). */
async function openClaim(claimUrl: string, lang: 'fa' | 'en' = 'fa') {
  const res = await fetch(lang === 'en' ? `${claimUrl}&lang=en` : claimUrl, { redirect: 'manual' });
  const html = await res.text();
  const token = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1];
  const claimToken = /name="claim_token" value="([^"]+)"/.exec(html)?.[1];
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .join('; ');
  return { res, html, session: token === undefined ? undefined : { token, claimToken: claimToken ?? '', cookie } };
}

async function postClaim(
  claimUrl: string,
  session: { token: string; claimToken: string; cookie: string },
  card: string,
): Promise<{ status: number; html: string }> {
  const url = new URL(claimUrl);
  const res = await fetch(`${url.origin}${url.pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url.origin, cookie: session.cookie },
    body: new URLSearchParams({
      csrf_token: session.token,
      claim_token: session.claimToken,
      card_number: card,
    }).toString(),
    redirect: 'manual',
  });
  return { status: res.status, html: await res.text() };
}

describe('refunds go only to the payer', () => {
  it('a SEP payment past its reversal window refunded by key to a typed IBAN is held, not paid, until `cli refunds approve` pays it', async () => {
    const h = await getHarness();
    const m = await newMerchant();
    const api = client(h.baseUrl, m.key);
    const payment = await verifiedPayment(h.baseUrl, m.key, { amount: 600_000 });
    await pastReversalWindow(payment.id);

    const taken = await api.post<RefundBody>(`/payments/${payment.id}/refunds`, {
      amount: 600_000,
      destination_iban: REFUND_IBAN,
    });
    assert.equal(taken.status, 201, taken.text);
    const held = taken.body.refund;
    assert.deepEqual(
      [held.status, held.method, held.held_for, held.destination_iban, held.claim_url],
      ['awaiting_approval', 'iban_payout', 'typed_iban', REFUND_IBAN, null],
    );
    // The amount is reserved on the payment, and nothing has left: no transfer, no balance posting.
    const reserved = await api.get<{ payment: Payment }>(`/payments/${payment.id}`);
    assert.deepEqual([reserved.body.payment.status, reserved.body.payment.refunded_amount], ['refunded', 600_000]);
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(await transfersOf(held.id), [], 'a key alone pays nothing to a typed IBAN');
    assert.equal((await api.get<RefundBody>(`/refunds/${held.id}`)).body.refund.status, 'awaiting_approval');
    const postings = await h.db
      .selectFrom('ledger_postings')
      .select('cause')
      .where('refund_id', '=', held.id)
      .execute();
    assert.deepEqual(postings, []);

    const listed = await cli('refunds', 'approvals', '--json');
    assert.equal(listed.code, 0, listed.stderr);
    const approvals = (JSON.parse(listed.stdout) as { approvals: { id: string; held_for: string; amount: number }[] })
      .approvals;
    const mine = approvals.find((a) => a.id === held.id);
    assert.ok(mine, 'the held refund is in the operator list');
    assert.deepEqual([mine.held_for, mine.amount], ['typed_iban', 600_000]);

    const approved = await cli('refunds', 'approve', '--id', held.id, '--json');
    assert.equal(approved.code, 0, approved.stderr);
    const done = await waitForRefund(h.baseUrl, m.key, held.id, 'succeeded');
    assert.equal(done.destination_iban, REFUND_IBAN);
    assert.deepEqual(await transfersOf(held.id), [[REFUND_IBAN, 600_000]], 'one transfer, after the approval');
    // Approving again changes nothing; rejecting a paid refund is refused.
    assert.equal((await cli('refunds', 'approve', '--id', held.id)).code, 0);
    const late = await cli('refunds', 'reject', '--id', held.id, '--reason', 'too late');
    assert.notEqual(late.code, 0);
    assert.match(late.stderr, /succeeded/);
    assert.deepEqual(await transfersOf(held.id), [[REFUND_IBAN, 600_000]]);
  });

  it("a refund without an IBAN waits for its payer: the claim page refuses another card, and the paying card's account is paid, with its owner's name", async () => {
    const h = await getHarness();
    const m = await newMerchant();
    const api = client(h.baseUrl, m.key);
    const payment = await verifiedPayment(h.baseUrl, m.key, { amount: 900_000 });

    const taken = await api.post<RefundBody>(`/payments/${payment.id}/refunds`, { amount: 300_000 });
    assert.equal(taken.status, 201, taken.text);
    const refund = taken.body.refund;
    assert.deepEqual(
      [refund.status, refund.method, refund.destination_iban, refund.owner_name],
      ['awaiting_payer', 'payer_card', null, null],
    );
    assert.ok(refund.claim_url?.startsWith(`${h.baseUrl}/refund-claims/${refund.id}?t=`), refund.claim_url ?? '');

    // A link with another signature is no link.
    const forged = await fetch(refund.claim_url!.replace(/t=.{4}/, 't=AAAA'));
    assert.equal(forged.status, 404);

    const page = await openClaim(refund.claim_url!, 'en');
    assert.equal(page.res.status, 200);
    assert.match(page.html, /<html lang="en" dir="ltr">/);
    assert.doesNotMatch(page.html, /<script/i);
    assert.match(page.res.headers.get('content-security-policy') ?? '', /script-src 'none'|default-src 'none'/);
    assert.ok(page.session, 'the page has its form');
    const fa = await openClaim(refund.claim_url!);
    assert.match(fa.html, /<html lang="fa" dir="rtl">/);

    // Without the CSRF token: refused, nothing counted.
    const forgedPost = await postClaim(refund.claim_url!, { ...page.session, token: 'x'.repeat(43) }, PAYING_CARD);
    assert.equal(forgedPost.status, 403);

    const wrong = await postClaim(refund.claim_url!, page.session, OTHER_CARD);
    assert.equal(wrong.status, 403, wrong.html);
    assert.match(wrong.html, /data-why="wrong_card"/);
    assert.doesNotMatch(wrong.html, new RegExp(OTHER_CARD), 'the typed card is not shown back');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await api.get<RefundBody>(`/refunds/${refund.id}`)).body.refund.status, 'awaiting_payer');
    assert.deepEqual(await transfersOf(refund.id), [], 'nothing paid for a wrong card');
    const counted = await h.db
      .selectFrom('refunds')
      .select('claim_attempts')
      .where('id', '=', refund.id)
      .executeTakeFirstOrThrow();
    assert.equal(Number(counted.claim_attempts), 1);

    const right = await postClaim(refund.claim_url!, page.session, PAYING_CARD.replace(/(\d{4})/g, '$1 ').trim());
    assert.equal(right.status, 200, right.html);
    assert.match(right.html, /id="owner-name"/);
    const done = await waitForRefund(h.baseUrl, m.key, refund.id, 'succeeded');
    assert.deepEqual(
      [done.method, done.destination_iban, done.owner_name],
      ['payer_card', PAYING_CARD_ACCOUNT.iban, PAYING_CARD_ACCOUNT.owner_name],
    );
    assert.deepEqual(await transfersOf(refund.id), [[PAYING_CARD_ACCOUNT.iban, 300_000]]);

    // The card is nowhere: not on the refund's row, not in the refunds workflow's history.
    const row = await h.db.selectFrom('refunds').selectAll().where('id', '=', refund.id).executeTakeFirstOrThrow();
    assert.doesNotMatch(JSON.stringify(row), new RegExp(PAYING_CARD));
    const history = JSON.stringify(await h.temporal.client.workflow.getHandle(`refunds-${payment.id}`).fetchHistory());
    // Every payload as its JSON (histories carry them base64-encoded).
    const payloads = [...history.matchAll(/"data":"([A-Za-z0-9+/=]+)"/g)]
      .map((m) => Buffer.from(m[1]!, 'base64').toString('utf8'))
      .join('\n');
    assert.doesNotMatch(payloads, new RegExp(PAYING_CARD));
    assert.match(payloads, new RegExp(PAYING_CARD_ACCOUNT.iban), 'the history holds the account, not the card');

    // Claimed once: the page shows the refund, no form.
    const after = await openClaim(refund.claim_url!);
    assert.equal(after.session, undefined);
    const postings = await h.db
      .selectFrom('ledger_postings')
      .select('cause')
      .where('refund_id', '=', refund.id)
      .orderBy('cause')
      .execute();
    assert.deepEqual(
      postings.map((p) => p.cause),
      [`refund:${refund.id}:pending`, `refund:${refund.id}:succeeded`],
    );
  });

  it("a refund its payer never claims is rejected by the operator: it fails, its amount is back in the merchant's balance and refundable again, and the claim page takes no card", async () => {
    const h = await getHarness();
    const m = await newMerchant();
    const api = client(h.baseUrl, m.key);
    const payment = await verifiedPayment(h.baseUrl, m.key, { amount: 500_000 });
    const balanceBefore = await balanceOf(m.merchantId, 'test');
    const taken = await api.post<RefundBody>(`/payments/${payment.id}/refunds`, { amount: 200_000 });
    assert.equal(taken.status, 201, taken.text);
    const refund = taken.body.refund;
    assert.equal(refund.status, 'awaiting_payer');
    assert.equal(await balanceOf(m.merchantId, 'test'), balanceBefore - 200_000, 'the amount left the balance');
    const page = await openClaim(refund.claim_url!);
    assert.ok(page.session);

    const rejected = await cli('refunds', 'reject', '--id', refund.id, '--reason', 'customer unreachable', '--json');
    assert.equal(rejected.code, 0, rejected.stderr);
    const failed = await waitForRefund(h.baseUrl, m.key, refund.id, 'failed');
    assert.equal(failed.failure?.code, 'refund_rejected');
    assert.equal(await balanceOf(m.merchantId, 'test'), balanceBefore, 'given back to the balance');
    const refundable = await api.get<{ payment: Payment }>(`/payments/${payment.id}`);
    assert.deepEqual([refundable.body.payment.status, refundable.body.payment.refunded_amount], ['verified', 0]);

    // The customer's page, opened before, no longer pays: the claim is refused and nothing is transferred.
    const late = await postClaim(refund.claim_url!, page.session, PAYING_CARD);
    assert.notEqual(late.status, 200, late.html);
    assert.equal((await openClaim(refund.claim_url!)).session, undefined, 'no form on a failed refund');
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(await transfersOf(refund.id), []);
    assert.equal((await api.get<RefundBody>(`/refunds/${refund.id}`)).body.refund.status, 'failed');
  });

  /** The merchant's `balance` account in `mode`: the sum of its ledger entries. */
  async function balanceOf(merchantId: string, mode: 'test' | 'live'): Promise<number> {
    const h = await getHarness();
    const row = await h.db
      .selectFrom('ledger_entries')
      .select((eb) => eb.fn.sum<string>('amount').as('total'))
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode)
      .where('account', '=', 'balance')
      .executeTakeFirstOrThrow();
    return Number(row.total);
  }

  it("concurrent live refunds of one merchant's payments whose sum exceeds its balance: those the balance covers are taken, the rest held for the operator, and the balance never goes below zero", async () => {
    const h = await getHarness();
    const m = await liveMerchant();
    const api = client(h.baseUrl, m.liveKey);
    const payments: Payment[] = [];
    for (let i = 0; i < 3; i++) payments.push(await verifiedLivePayment(h.baseUrl, m.liveKey, 1_000_000));
    const before = await balanceOf(m.merchantId, 'live');
    // Each refund all but one rial of its payment (a part: no reversal), together more than the balance.
    const each = 999_999;
    assert.ok(each * 3 > before, `${each * 3} > ${before}`);
    const answers = await Promise.all(
      payments.map((p) => api.post<RefundBody>(`/payments/${p.id}/refunds`, { amount: each })),
    );
    for (const a of answers) assert.equal(a.status, 201, a.text);
    const statuses = answers.map((a) => a.body.refund.status).sort();
    const covered = Math.floor(before / each);
    assert.deepEqual(statuses, [
      ...Array<string>(3 - covered).fill('awaiting_approval'),
      ...Array<string>(covered).fill('awaiting_payer'),
    ]);
    const held = answers.filter((a) => a.body.refund.status === 'awaiting_approval').map((a) => a.body.refund);
    assert.ok(held.length > 0, 'at least one refund is beyond the balance');
    for (const r of held) assert.equal(r.held_for, 'balance');
    assert.ok((await balanceOf(m.merchantId, 'live')) >= 0, 'the balance never goes below zero');

    // The operator rejects one: it fails, and its amount is refundable again.
    const rejected = await cli('refunds', 'reject', '--id', held[0]!.id, '--reason', 'no balance', '--json');
    assert.equal(rejected.code, 0, rejected.stderr);
    const failed = await waitForRefund(h.baseUrl, m.liveKey, held[0]!.id, 'failed');
    assert.equal(failed.failure?.code, 'refund_rejected');
    const payment = await api.get<{ payment: Payment }>(`/payments/${held[0]!.payment_id}`);
    assert.deepEqual([payment.body.payment.status, payment.body.payment.refunded_amount], ['verified', 0]);
  });

  it('test mode moves no money: concurrent test refunds beyond the balance are all taken, none held for it', async () => {
    const h = await getHarness();
    const m = await newMerchant();
    const api = client(h.baseUrl, m.key);
    const payments: Payment[] = [];
    for (let i = 0; i < 3; i++) payments.push(await verifiedPayment(h.baseUrl, m.key, { amount: 1_000_000 }));
    const before = await balanceOf(m.merchantId, 'test');
    const each = 999_999;
    assert.ok(each * 3 > before, `${each * 3} > ${before}`);
    const answers = await Promise.all(
      payments.map((p) => api.post<RefundBody>(`/payments/${p.id}/refunds`, { amount: each })),
    );
    for (const a of answers) assert.equal(a.status, 201, a.text);
    assert.deepEqual(
      answers.map((a) => [a.body.refund.status, a.body.refund.held_for]),
      Array.from({ length: 3 }, () => ['awaiting_payer', null]),
    );
    // Every refund's amount left the test balance: it is below zero by what the balance did not cover.
    assert.equal(await balanceOf(m.merchantId, 'test'), before - 3 * each);
  });
});
