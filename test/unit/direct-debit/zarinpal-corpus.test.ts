/**
 * The ZarinPal Payman connector (src/direct-debit/providers/zarinpal/) reads and writes the messages
 * the corpus holds (test/fixtures/direct-debit/zarinpal/, docs/psps/zarinpal-payman.md), not what our
 * simulator says: a loopback stand-in answers every call with the corpus's answer, and every request
 * the connector sends is held to the corpus's request (path, method, fields in the same order, the
 * same values); the returns are parsed as the corpus writes them; refusals and outages are told apart.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { ProviderRefusalError, ProviderUnavailableError } from '../../../src/direct-debit/providers/contract.ts';
import { ZarinpalPaymanClient } from '../../../src/direct-debit/providers/zarinpal/client.ts';
import { parsePaymanDateTime, paymanDateTime } from '../../../src/direct-debit/providers/zarinpal/mapping.ts';
import { loadPaymanCorpus, paymanCorpus, type PaymanCorpusFile } from '../../support/payman-corpus.ts';

const corpus = loadPaymanCorpus();
const request = paymanCorpus('request-request').message.json!;
const MANDATE = '6a0b1d1e-3d5b-4a57-9a55-3f0f5a0f1c11';

interface Seen {
  method: string;
  path: string;
  body: string;
}

/** A stand-in of ZarinPal answering each path with `answers[path]` (a corpus answer), recording each request. */
async function standIn(answers: Record<string, { status: number; json: unknown }>): Promise<{
  server: Server;
  base: string;
  seen: Seen[];
}> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const path = req.url ?? '/';
      seen.push({ method: req.method ?? '', path, body });
      const answer = answers[path];
      if (answer === undefined) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    server,
    seen,
    base: `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`,
  };
}

const answerOf = (name: string) => {
  const file = paymanCorpus(name);
  return { status: file.message.status ?? 200, json: file.message.json };
};

function client(base: string): ZarinpalPaymanClient {
  return new ZarinpalPaymanClient({
    baseUrl: base,
    pageBaseUrl: 'https://www.zarinpal.com',
    merchantId: String(request.merchant_id),
    timeoutMs: 2_000,
  });
}

/** The request the connector sent, held to the corpus file: method, path, the same fields in the same order. */
function assertSentAs(seen: Seen | undefined, file: PaymanCorpusFile): void {
  assert.ok(seen, `no request for ${file.http.path}`);
  assert.equal(seen.method, file.http.method);
  assert.equal(seen.path, file.http.path);
  if (file.message.json === undefined) return;
  const body = JSON.parse(seen.body) as Record<string, unknown>;
  assert.deepEqual(body, file.message.json);
  assert.deepEqual(Object.keys(body), file.message.order);
}

describe('ZarinPal Payman connector against the corpus', () => {
  it('every corpus file cites at least two independent sources and writes down where they disagree', () => {
    assert.ok(corpus.size >= 17);
    for (const [name, file] of corpus) {
      assert.equal(file.provider, 'zarinpal', name);
      assert.ok(file.sources.length >= 2, `${name}: fewer than two sources`);
      const origins = new Set(file.sources.map((s) => s.url ?? s.repo));
      assert.ok(origins.size >= 2, `${name}: its sources are one`);
      for (const source of file.sources) {
        assert.ok(source.url !== undefined || (source.repo !== undefined && source.path !== undefined), name);
        assert.ok(source.note.length > 10, name);
      }
      assert.ok(file.disagreements.length > 3, `${name}: no disagreements written`);
    }
  });

  it('asks for a mandate exactly as the corpus request, and reads its authority', async () => {
    const { server, base, seen } = await standIn({ '/pg/v4/payman/request.json': answerOf('request-answer-ok') });
    try {
      const expiresAt = parsePaymanDateTime(String(request.expire_at))!;
      assert.equal(paymanDateTime(expiresAt), request.expire_at);
      const { authority } = await client(base).requestMandate({
        mandateId: MANDATE,
        mobile: String(request.mobile),
        nationalCode: String(request.ssn),
        maxAmount: Number(request.max_amount),
        maxDailyCount: Number(request.max_daily_count),
        maxMonthlyCount: Number(request.max_monthly_count),
        expiresAt,
        returnUrl: String(request.callback_url),
      });
      assert.equal(authority, 'payman_6moa');
      assertSentAs(seen[0], paymanCorpus('request-request'));
    } finally {
      server.close();
    }
  });

  it('leaves out ssn when the merchant gave no national code', async () => {
    const { server, base, seen } = await standIn({ '/pg/v4/payman/request.json': answerOf('request-answer-ok') });
    try {
      await client(base).requestMandate({
        mandateId: MANDATE,
        mobile: '09123456789',
        nationalCode: null,
        maxAmount: 10,
        maxDailyCount: 1,
        maxMonthlyCount: 1,
        expiresAt: new Date(Date.now() + 40 * 86_400_000),
        returnUrl: 'http://callback.test/r',
      });
      assert.ok(!('ssn' in (JSON.parse(seen[0]!.body) as object)));
    } finally {
      server.close();
    }
  });

  it('reads a refused request as a final refusal with its code, an error status as unavailability', async () => {
    const refused = await standIn({ '/pg/v4/payman/request.json': answerOf('request-answer-refused') });
    const down = await standIn({ '/pg/v4/payman/request.json': { status: 502, json: {} } });
    const ask = (base: string) =>
      client(base).requestMandate({
        mandateId: MANDATE,
        mobile: '09123456789',
        nationalCode: null,
        maxAmount: 10,
        maxDailyCount: 1,
        maxMonthlyCount: 1,
        expiresAt: new Date(),
        returnUrl: 'http://callback.test/r',
      });
    try {
      await assert.rejects(ask(refused.base), (e: unknown) => e instanceof ProviderRefusalError && e.code === -9);
      await assert.rejects(ask(down.base), ProviderUnavailableError);
      // Nobody answering at all is unavailability too.
      await assert.rejects(ask('http://127.0.0.1:9'), ProviderUnavailableError);
    } finally {
      refused.server.close();
      down.server.close();
    }
  });

  it('lists the banks, and sends the customer to the signing page the corpus shows', async () => {
    const { server, base, seen } = await standIn({ '/pg/v4/payman/banksList.json': answerOf('banks-answer') });
    try {
      const banks = await client(base).banks();
      assertSentAs(seen[0], paymanCorpus('banks-request'));
      assert.deepEqual(
        banks.map((b) => [b.code, b.maxDailyCount]),
        [
          ['SABCIR', 25],
          ['SINAIR', null],
        ],
      );
      assert.equal(client(base).signingPageUrl('payman_6moa', 'SABCIR'), paymanCorpus('page-redirect').message.url);
    } finally {
      server.close();
    }
  });

  it("reads the customer's returns, and nothing else as one", () => {
    const c = client('http://unused');
    assert.deepEqual(c.parseReturn(paymanCorpus('return-ok').message.query!), {
      authority: 'payman_6moa',
      signed: true,
    });
    assert.deepEqual(c.parseReturn(paymanCorpus('return-nok').message.query!), {
      authority: 'payman_6moa',
      signed: false,
    });
    assert.deepEqual(c.parseReturn({ payman_authority: 'payman_6moa', Status: 'OK' }), {
      authority: 'payman_6moa',
      signed: true,
    });
    assert.equal(c.parseReturn({ payman_authority: 'payman_6moa', status: 'MAYBE' }), undefined);
    assert.equal(c.parseReturn({ payman_authority: '<script>', status: 'OK' }), undefined);
    assert.equal(c.parseReturn({ status: 'OK' }), undefined);
  });

  it("gets the mandate's signature as the corpus verify", async () => {
    const { server, base, seen } = await standIn({ '/pg/v4/payman/verify.json': answerOf('verify-answer-ok') });
    try {
      const signature = await client(base).signature('payman_6moa', MANDATE);
      assert.equal(signature.length, 200);
      assertSentAs(seen[0], paymanCorpus('verify-request'));
    } finally {
      server.close();
    }
  });

  it('refuses a verify answer without a signature of the documented shape, naming no body', async () => {
    const { server, base } = await standIn({
      '/pg/v4/payman/verify.json': {
        status: 200,
        json: { data: { code: 100, message: 'Success', signature: 'short' }, errors: [] },
      },
    });
    try {
      await assert.rejects(client(base).signature('payman_6moa', MANDATE), (e: unknown) => {
        assert.ok(e instanceof ProviderUnavailableError);
        assert.ok(!e.message.includes('short'));
        return true;
      });
    } finally {
      server.close();
    }
  });

  it('debits as the corpus: a payment request, then checkout with the signature; reads the reference', async () => {
    const payment = paymanCorpus('payment-request-request').message.json!;
    const checkout = paymanCorpus('checkout-request').message.json!;
    const { server, base, seen } = await standIn({
      '/pg/v4/payment/request.json': answerOf('payment-request-answer-ok'),
      '/pg/v4/payman/checkout.json': answerOf('checkout-answer-ok'),
    });
    try {
      const { authority } = await client(base).prepareDebit({
        debitId: String((payment.metadata as Record<string, unknown>).order_id),
        amount: Number(payment.amount),
        mobile: '09123456789',
        returnUrl: String(payment.callback_url),
      });
      assert.equal(authority, checkout.authority);
      assertSentAs(seen[0], paymanCorpus('payment-request-request'));
      const taken = await client(base).debit({
        debitId: MANDATE,
        authority,
        signature: String(checkout.signature),
        amount: Number(payment.amount),
      });
      assert.deepEqual(taken, { reference: '201', amount: 1_500_000 });
      assertSentAs(seen[1], paymanCorpus('checkout-request'));
    } finally {
      server.close();
    }
  });

  it('reads the reference under the names the sources disagree on, and holds the amount taken to the debit', async () => {
    for (const [data, expected] of [
      [{ code: 100, message: 'Success', ref_id: 7, amount: 1000 }, '7'],
      [{ code: 100, message: 'Success', reference_id: '8' }, '8'],
    ] as const) {
      const { server, base } = await standIn({
        '/pg/v4/payman/checkout.json': { status: 200, json: { data, errors: [] } },
      });
      try {
        const taken = await client(base).debit({ debitId: MANDATE, authority: 'A1', signature: 'S', amount: 1000 });
        assert.equal(taken.reference, expected);
      } finally {
        server.close();
      }
    }
    const other = await standIn({
      '/pg/v4/payman/checkout.json': {
        status: 200,
        json: { data: { code: 100, refrence_id: 9, amount: 999 }, errors: [] },
      },
    });
    try {
      await assert.rejects(
        client(other.base).debit({ debitId: MANDATE, authority: 'A1', signature: 'S', amount: 1000 }),
        ProviderRefusalError,
      );
    } finally {
      other.server.close();
    }
  });

  it('reads a refused checkout as a final refusal', async () => {
    const { server, base } = await standIn({ '/pg/v4/payman/checkout.json': answerOf('checkout-answer-refused') });
    try {
      await assert.rejects(
        client(base).debit({ debitId: MANDATE, authority: 'A1', signature: 'S', amount: 1000 }),
        (e: unknown) => e instanceof ProviderRefusalError && e.code === -9,
      );
    } finally {
      server.close();
    }
  });

  it('cancels the contract as the corpus cancel', async () => {
    const { server, base, seen } = await standIn({ '/pg/v4/payman/cancelContract.json': answerOf('cancel-answer-ok') });
    try {
      await client(base).cancel(String(paymanCorpus('cancel-request').message.json!.signature), MANDATE);
      assertSentAs(seen[0], paymanCorpus('cancel-request'));
    } finally {
      server.close();
    }
  });
});
