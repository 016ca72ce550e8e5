/**
 * Public link and pay pages cannot be flooded or used up (docs/SECURITY.md, "Public pages";
 * issue 42, item 2), on the real stack: POST /l/{slug} and the Pay button counted per client address
 * (behind a trusted proxy, by X-Forwarded-For; an IPv6 client by its /64), payments started counted per link and in the
 * merchant's test-payment limit, a place of max_payments given back when its payment is canceled,
 * fails or expires, and the open payments of one link bounded. Every refusal writes nothing.
 */
import assert from 'node:assert/strict';
import type { PaymentLink } from '../../src/domain/payment-link.ts';
import { apiWith, getHarness, newMerchant, type Harness } from '../support/harness.ts';
import { client } from '../support/http.ts';
import { createdLink, openLink, postLink, startedPaymentId, type LinkFormSession } from '../support/payment-links.ts';
import { createPayment, pressPay, waitForStatus } from '../support/payments.ts';

/** Waits, when the current minute is about to end, for the next one: a test's hits must fall in one fixed window. */
async function awayFromWindowEdge(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 25_000) await new Promise((r) => setTimeout(r, left + 100));
}

let lastOctet = 0;
/** An address of the documentation range no other test uses in this run. */
const nextAddress = () => `203.0.113.${(lastOctet = (lastOctet % 250) + 1)}`;
const from = (address: string) => ({ 'x-forwarded-for': address });

describe('public link and pay pages: limits per client and per link, places given back, open payments bounded', function () {
  this.timeout(180_000);
  let h: Harness;
  let merchant: { key: string };
  let api: ReturnType<typeof client>;
  before(async () => {
    h = await getHarness();
    merchant = await newMerchant();
    api = client(h.baseUrl, merchant.key);
    lastOctet = Math.floor(Math.random() * 200);
  });

  const paymentsOf = (linkId: string) =>
    h.db.selectFrom('payments').select(['id', 'status', 'psp']).where('payment_link_id', '=', linkId).execute();
  const started = async (
    base: string,
    link: PaymentLink,
    session: LinkFormSession | undefined,
    headers: Record<string, string> = {},
  ) => startedPaymentId(await postLink(base, link.slug, session, {}, headers));
  const outcome = async (paymentId: string, what: 'cancel' | 'failure') => {
    const res = await api.post(`/test_helpers/payments/${paymentId}/bank_outcome`, { outcome: what });
    assert.equal(res.status, 200, res.text);
  };

  it('counts POST /l/{slug} and the Pay button per client address: past the limit 429 with Retry-After and nothing written; another address is served', async () => {
    const base = await apiWith({ TRUSTED_PROXIES: '127.0.0.1', PAGE_ACTIONS_PER_CLIENT_PER_MINUTE: '3' });
    const link = await createdLink(api, { title: 'Flood me' });
    const { session } = await openLink(base, link.slug);
    const [attacker, customer] = [nextAddress(), nextAddress()];
    await awayFromWindowEdge();
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) ids.push(await started(base, link, session, from(attacker)));
    const refused = await postLink(base, link.slug, session, {}, from(attacker));
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('retry-after')) >= 1, 'Retry-After');
    assert.equal((await paymentsOf(link.id)).length, 3, 'the refused POST started nothing');
    // The Pay button (which asks a PSP for a token) counts in the same place: no token for this address now.
    assert.equal((await pressPay(base, ids[0]!, from(attacker))).status, 429);
    const first = (await paymentsOf(link.id)).find((p) => p.id === ids[0])!;
    assert.deepEqual({ status: first.status, psp: first.psp }, { status: 'created', psp: null }, 'no PSP was asked');
    // Another customer is served.
    await started(base, link, session, from(customer));
    assert.equal((await paymentsOf(link.id)).length, 4);
  });

  it('counts an IPv6 client by its /64: fresh addresses of one /64 share its limit, another /64 is served', async () => {
    const base = await apiWith({ TRUSTED_PROXIES: '127.0.0.1', PAGE_ACTIONS_PER_CLIENT_PER_MINUTE: '3' });
    const link = await createdLink(api, { title: 'Flood me from a /64' });
    const { session } = await openLink(base, link.slug);
    // A /64 of the documentation range (RFC 3849) no other run uses; each request from another address of it.
    const hex = () => Math.floor(Math.random() * 0xffff).toString(16);
    const [group, subnet] = [hex(), hex()];
    const attacker = (n: number) => `2001:db8:${group}:${subnet}:${hex()}:${hex()}:${hex()}:${n.toString(16)}`;
    await awayFromWindowEdge();
    const ids: string[] = [];
    for (let i = 1; i <= 3; i += 1) ids.push(await started(base, link, session, from(attacker(i))));
    const refused = await postLink(base, link.slug, session, {}, from(attacker(4)));
    assert.equal(refused.status, 429, 'a fourth address of the same /64 is the same client');
    assert.equal((await pressPay(base, ids[0]!, from(attacker(5)))).status, 429, 'the Pay button too');
    assert.equal((await paymentsOf(link.id)).length, 3, 'the refused POST started nothing');
    // The next /64 (the neighbour of the attacker's) is another subscriber: served.
    const neighbour = `2001:db8:${group}:${((parseInt(subnet, 16) + 1) % 0x10000).toString(16)}::1`;
    await started(base, link, session, from(neighbour));
    assert.equal((await paymentsOf(link.id)).length, 4);
  });

  it("counts payments started per link, whoever starts them, and in the merchant's test-payment limit", async () => {
    const perLink = await apiWith({ TRUSTED_PROXIES: '127.0.0.1', LINK_PAYMENTS_PER_LINK_PER_MINUTE: '2' });
    const link = await createdLink(api, { title: 'One link, many addresses' });
    const { session } = await openLink(perLink, link.slug);
    await awayFromWindowEdge();
    await started(perLink, link, session, from(nextAddress()));
    await started(perLink, link, session, from(nextAddress()));
    const refused = await postLink(perLink, link.slug, session, {}, from(nextAddress()));
    assert.equal(refused.status, 429);
    assert.equal((await paymentsOf(link.id)).length, 2);

    // A fresh merchant with a test-payment limit of 2 a minute: link payments count in it as API creates do.
    const other = await newMerchant();
    const quota = await apiWith({ TEST_PAYMENTS_PER_MINUTE: '2' });
    const quotaLink = await createdLink(client(h.baseUrl, other.key), { title: 'Around the test limit' });
    const form = await openLink(quota, quotaLink.slug);
    await started(quota, quotaLink, form.session);
    await started(quota, quotaLink, form.session);
    assert.equal((await postLink(quota, quotaLink.slug, form.session, {})).status, 429);
    assert.equal((await paymentsOf(quotaLink.id)).length, 2);
    assert.equal((await createPayment(quota, other.key)).status, 429, "the same bucket as the API's creates");
  });

  it('gives a place of max_payments back when its payment is canceled, fails or expires; payments_count counts the places held', async () => {
    const link = await createdLink(api, { title: 'Two seats', max_payments: 2 });
    const { session } = await openLink(h.baseUrl, link.slug);
    const usedUp = async () => assert.equal((await postLink(h.baseUrl, link.slug, session, {})).status, 410);
    const p1 = await started(h.baseUrl, link, session);
    const p2 = await started(h.baseUrl, link, session);
    await usedUp();

    await outcome(p1, 'cancel');
    await waitForStatus(h.baseUrl, merchant.key, p1, 'canceled');
    const p3 = await started(h.baseUrl, link, session);
    await usedUp();

    await outcome(p3, 'failure');
    await waitForStatus(h.baseUrl, merchant.key, p3, 'failed');
    await started(h.baseUrl, link, session);
    await usedUp();

    const advanced = await api.post(`/test_helpers/payments/${p2}/advance`, {
      seconds: h.config.PAYMENT_TTL_SECONDS + 60,
    });
    assert.equal(advanced.status, 200, advanced.text);
    await waitForStatus(h.baseUrl, merchant.key, p2, 'expired');
    await started(h.baseUrl, link, session);
    await usedUp();

    assert.equal((await paymentsOf(link.id)).length, 5);
    const read = await api.get<{ payment_link: PaymentLink }>(`/payment_links/${link.id}`);
    assert.equal(read.body.payment_link.payments_count, 2, 'the places held now');
  });

  it('bounds the open payments of one link: past LINK_OPEN_PAYMENTS_MAX 429 and nothing written, until one ends', async () => {
    const base = await apiWith({ LINK_OPEN_PAYMENTS_MAX: '2' });
    const link = await createdLink(api, { title: 'Held open' });
    const { session } = await openLink(base, link.slug);
    const first = await started(base, link, session);
    await started(base, link, session);
    const refused = await postLink(base, link.slug, session, {});
    assert.equal(refused.status, 429);
    assert.equal((await paymentsOf(link.id)).length, 2);
    await outcome(first, 'cancel');
    await waitForStatus(h.baseUrl, merchant.key, first, 'canceled');
    await started(base, link, session);
    assert.equal((await paymentsOf(link.id)).length, 3);
  });
});
