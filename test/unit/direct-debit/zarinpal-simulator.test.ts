/**
 * The Payman simulator (src/direct-debit/providers/zarinpal/simulator.ts) held to the corpus, in
 * process: it takes the corpus's requests as they are and answers each in the corpus answer's shape;
 * its signing page sends the customer back with the corpus return's fields. Then a mandate's life
 * against it with the connector: request → page → sign → signature → debits within its limits (a
 * repeat of a checkout answered as the first, the daily count and the amount refused) → cancel; a
 * declined one; the fault switches as the connector sees them (a checkout whose answer is lost listed
 * once in its ledger).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProviderRefusalError, ProviderUnavailableError } from '../../../src/direct-debit/providers/contract.ts';
import { ZarinpalPaymanClient } from '../../../src/direct-debit/providers/zarinpal/client.ts';
import { paymanDateTime } from '../../../src/direct-debit/providers/zarinpal/mapping.ts';
import { createPaymanSimulator } from '../../../src/direct-debit/providers/zarinpal/simulator.ts';
import { paymanCorpus, shapeOf } from '../../support/payman-corpus.ts';

const ADMIN = 'payman-shape-admin';
const request = paymanCorpus('request-request').message.json!;
const MERCHANT = String(request.merchant_id);
const DAY = 86_400_000;

async function listening(stateFile?: string): Promise<{ server: Server; base: string }> {
  const { server } = createPaymanSimulator({
    merchantId: MERCHANT,
    redirectOrigins: ['http://callback.test'],
    adminToken: ADMIN,
    ...(stateFile === undefined ? {} : { stateFile }),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { server, base: `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}` };
}

const post = async (base: string, path: string, json: unknown) => {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(json),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
};

/** The corpus's mandate request, its expiry moved 60 days out (the corpus's date is a fixed one). */
const corpusRequest = (changes: Record<string, unknown> = {}) => ({
  ...request,
  expire_at: paymanDateTime(new Date(Date.now() + 60 * DAY)),
  ...changes,
});

/** Signs (or refuses) a contract at the page as a browser would: GET the page, POST its form; the return address. */
async function answerPage(base: string, authority: string, decision: 'sign' | 'refuse'): Promise<URL> {
  const page = await fetch(`${base}/pg/StartPayman/${authority}/SABCIR`);
  assert.equal(page.status, 200);
  const csp = page.headers.get('content-security-policy') ?? '';
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /form-action 'self' http:\/\/callback\.test/);
  const html = await page.text();
  assert.ok(!/<script/i.test(html) && !/ style=/i.test(html), 'no script or inline style on the page');
  assert.match(html, /lang="fa" dir="rtl"/);
  const posted = await fetch(`${base}/pg/StartPayman/${authority}/SABCIR`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `decision=${decision}`,
    redirect: 'manual',
  });
  assert.equal(posted.status, 303);
  return new URL(posted.headers.get('location')!);
}

const client = (base: string) => new ZarinpalPaymanClient({ baseUrl: base, merchantId: MERCHANT, timeoutMs: 2_000 });

describe('ZarinPal Payman simulator against the corpus', () => {
  let dir: string;
  let sim: { server: Server; base: string };
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'payman-sim-'));
    sim = await listening(join(dir, 'state.json'));
  });
  afterEach(() => {
    sim.server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers every call in the corpus answers' shapes, and returns with the corpus return's fields", async () => {
    const requested = await post(sim.base, '/pg/v4/payman/request.json', corpusRequest());
    assert.deepEqual(shapeOf(requested.json), shapeOf(paymanCorpus('request-answer-ok').message.json));
    const refused = await post(
      sim.base,
      '/pg/v4/payman/request.json',
      corpusRequest({ expire_at: paymanDateTime(new Date(Date.now() + 10 * DAY)) }),
    );
    assert.deepEqual(shapeOf(refused.json), shapeOf(paymanCorpus('request-answer-refused').message.json));
    assert.equal((refused.json.errors as { code: number }).code, -9);
    const banks = await (await fetch(`${sim.base}/pg/v4/payman/banksList.json`)).json();
    assert.deepEqual(shapeOf(banks), shapeOf(paymanCorpus('banks-answer').message.json));

    const authority = String((requested.json.data as Record<string, unknown>).payman_authority);
    const back = await answerPage(sim.base, authority, 'sign');
    assert.equal(back.origin, 'http://callback.test');
    assert.deepEqual(
      [...back.searchParams.keys()].sort(),
      Object.keys(paymanCorpus('return-ok').message.query!).sort(),
    );
    assert.equal(back.searchParams.get('status'), 'OK');

    const verified = await post(sim.base, '/pg/v4/payman/verify.json', {
      merchant_id: MERCHANT,
      payman_authority: authority,
    });
    assert.deepEqual(shapeOf(verified.json), shapeOf(paymanCorpus('verify-answer-ok').message.json));
    const signature = String((verified.json.data as Record<string, unknown>).signature);
    assert.equal(signature.length, 200);

    const paymentBody = paymanCorpus('payment-request-request').message.json!;
    const prepared = await post(sim.base, '/pg/v4/payment/request.json', paymentBody);
    assert.deepEqual(shapeOf(prepared.json), shapeOf(paymanCorpus('payment-request-answer-ok').message.json));
    const paymentAuthority = String((prepared.json.data as Record<string, unknown>).authority);
    assert.equal(paymentAuthority.length, 36);

    const checkout = await post(sim.base, '/pg/v4/payman/checkout.json', {
      merchant_id: MERCHANT,
      authority: paymentAuthority,
      signature,
    });
    assert.deepEqual(shapeOf(checkout.json), shapeOf(paymanCorpus('checkout-answer-ok').message.json));
    const bad = await post(sim.base, '/pg/v4/payman/checkout.json', {
      merchant_id: MERCHANT,
      authority: paymentAuthority,
      signature: 'x',
    });
    assert.deepEqual(shapeOf(bad.json), shapeOf(paymanCorpus('checkout-answer-refused').message.json));

    const canceled = await post(sim.base, '/pg/v4/payman/cancelContract.json', { merchant_id: MERCHANT, signature });
    assert.deepEqual(shapeOf(canceled.json), shapeOf(paymanCorpus('cancel-answer-ok').message.json));
  });

  it("a mandate's life through the connector: signed, debited within its limits, canceled", async () => {
    const c = client(sim.base);
    const { authority } = await c.requestMandate({
      mandateId: 'm1',
      mobile: '09123456789',
      nationalCode: null,
      maxAmount: 2_000_000,
      maxDailyCount: 2,
      maxMonthlyCount: 3,
      expiresAt: new Date(Date.now() + 40 * DAY),
      returnUrl: 'http://callback.test/mandates/m1/return',
    });
    const back = await answerPage(sim.base, authority, 'sign');
    assert.deepEqual(c.parseReturn(Object.fromEntries(back.searchParams)), { authority, signed: true });
    const signature = await c.signature(authority, 'm1');
    const debit = async (id: string, amount: number) => {
      const { authority: a } = await c.prepareDebit({
        debitId: id,
        amount,
        mobile: '09123456789',
        returnUrl: 'http://callback.test/r',
      });
      return { a, taken: await c.debit({ debitId: id, authority: a, signature, amount }) };
    };
    const first = await debit('d1', 1_500_000);
    assert.equal(first.taken.amount, 1_500_000);
    // A retried checkout of the same authority is answered as the first, and takes nothing more.
    assert.deepEqual(await c.debit({ debitId: 'd1', authority: first.a, signature, amount: 1_500_000 }), first.taken);
    await assert.rejects(debit('d2', 2_000_001), ProviderRefusalError);
    await debit('d3', 1_000);
    // Two today: the daily count of the bank is used up.
    await assert.rejects(
      debit('d4', 1_000),
      (e: unknown) => e instanceof ProviderRefusalError && /daily/.test(e.message),
    );
    await c.cancel(signature, 'm1');
    await assert.rejects(c.signature(authority, 'm1'), ProviderRefusalError);
    await assert.rejects(
      debit('d5', 1_000),
      (e: unknown) => e instanceof ProviderRefusalError && /not active/.test(e.message),
    );
  });

  it('a refused page returns NOK and gives no signature; the state survives a restart', async () => {
    const c = client(sim.base);
    const mandate = {
      mandateId: 'm2',
      mobile: '09123456789',
      nationalCode: '0480123456',
      maxAmount: 10_000,
      maxDailyCount: 1,
      maxMonthlyCount: 1,
      expiresAt: new Date(Date.now() + 31 * DAY),
      returnUrl: 'http://callback.test/r',
    };
    const refused = await c.requestMandate(mandate);
    const back = await answerPage(sim.base, refused.authority, 'refuse');
    assert.equal(back.searchParams.get('status'), 'NOK');
    await assert.rejects(c.signature(refused.authority, 'm2'), ProviderRefusalError);
    const signed = await c.requestMandate(mandate);
    await answerPage(sim.base, signed.authority, 'sign');
    const signature = await c.signature(signed.authority, 'm2');
    sim.server.close();
    sim = await listening(join(dir, 'state.json'));
    assert.equal(await client(sim.base).signature(signed.authority, 'm2'), signature);
  });

  it('refuses a callback outside its allowed origins and another merchant', async () => {
    const outside = await post(
      sim.base,
      '/pg/v4/payman/request.json',
      corpusRequest({ callback_url: 'http://elsewhere.test/r' }),
    );
    assert.equal((outside.json.errors as { code: number }).code, -9);
    const other = await post(sim.base, '/pg/v4/payman/request.json', corpusRequest({ merchant_id: 'another' }));
    assert.equal((other.json.errors as { code: number }).code, -74);
  });

  it('its fault switches: down is unavailability, refuse a refusal, under the admin token only', async () => {
    const fault = (fault: string, token = ADMIN) =>
      fetch(`${sim.base}/admin/faults`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ operation: 'payment', fault }),
      });
    assert.equal((await fault('down', 'wrong')).status, 401);
    assert.equal((await fault('down')).status, 200);
    const prepare = () =>
      client(sim.base).prepareDebit({
        debitId: 'd',
        amount: 5_000,
        mobile: '09123456789',
        returnUrl: 'http://callback.test/r',
      });
    await assert.rejects(prepare(), ProviderUnavailableError);
    await fault('refuse');
    await assert.rejects(prepare(), ProviderRefusalError);
    await fault('clear');
    assert.equal((await prepare()).authority.length, 36);
  });

  it('a timeout fault: the checkout takes the money, its answer is lost, and its ledger lists it once', async () => {
    const c = client(sim.base);
    const { authority: contract } = await c.requestMandate({
      mandateId: 'm3',
      mobile: '09123456789',
      nationalCode: null,
      maxAmount: 100_000,
      maxDailyCount: 5,
      maxMonthlyCount: 5,
      expiresAt: new Date(Date.now() + 40 * DAY),
      returnUrl: 'http://callback.test/r',
    });
    await answerPage(sim.base, contract, 'sign');
    const signature = await c.signature(contract, 'm3');
    const { authority } = await c.prepareDebit({
      debitId: 'd1',
      amount: 50_000,
      mobile: '09123456789',
      returnUrl: 'http://callback.test/r',
    });
    const admin = (path: string, body?: unknown) =>
      fetch(`${sim.base}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const checkouts = async () =>
      (
        (await (await admin('/admin/checkouts')).json()) as {
          checkouts: { authority: string; contract: string; amount: number; refrence_id: number }[];
        }
      ).checkouts;
    assert.equal((await admin('/admin/faults', { operation: 'checkout', fault: 'timeout' })).status, 200);
    const lost = c.debit({ debitId: 'd1', authority, signature, amount: 50_000 }).then(
      () => 'answered',
      (error: unknown) => error,
    );
    let made: Awaited<ReturnType<typeof checkouts>> = [];
    for (let i = 0; i < 100 && made.length === 0; i++) {
      made = await checkouts();
      if (made.length === 0) await new Promise((r) => setTimeout(r, 10));
    }
    // The money moved though no answer came.
    assert.deepEqual(
      made.map((x) => [x.authority, x.contract, x.amount]),
      [[authority, contract, 50_000]],
    );
    // Clearing the switch drops the held answer (well before the client's 2 s): the caller never gets a late one.
    await admin('/admin/faults', { operation: 'checkout', fault: 'clear' });
    assert.ok((await lost) instanceof ProviderUnavailableError, 'the held call ended without an answer');
    // Asked again, the provider answers the checkout it made, and takes nothing more.
    const again = await c.debit({ debitId: 'd1', authority, signature, amount: 50_000 });
    assert.equal(again.reference, String(made[0]!.refrence_id));
    assert.equal((await checkouts()).length, 1);
  });
});
