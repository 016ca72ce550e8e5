/**
 * The Jibit identity connector (src/adapters/identity/jibit/) against the conformance corpus
 * (test/fixtures/identity/jibit/, docs/identity.md), not against our simulator: every answer file is
 * served, as the corpus holds it, by a loopback stand-in of the test's own to the call that gets it,
 * and the connector's answer (an account, a refusal with the code, the provider unavailable) is the
 * one the file's outcome says; every request the connector sends is held against the corpus's request
 * (path, method, the body's or query's fields in order, the bearer token). No card number is ever in
 * an error's message.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import {
  identityProviders,
  identityProvidersFor,
  IdentityRefusalError,
  IdentityUnavailableError,
} from '../../../src/adapters/identity/identity-provider.ts';
import { JibitIdentityClient } from '../../../src/adapters/identity/jibit/client.ts';
import { IDENTITY_INPUT_CODE, maskCard } from '../../../src/adapters/identity/jibit/mapping.ts';
import { loadConfig } from '../../../src/config.ts';
import { jibitCorpusMessage, loadJibitCorpus, type JibitCorpusMessage } from '../../support/identity-corpus-jibit.ts';

const corpus = loadJibitCorpus();
const tokenRequest = jibitCorpusMessage('token-request');
const tokenAnswer = jibitCorpusMessage('token-answer-ok');
const cardRequest = jibitCorpusMessage('card-to-iban-request');
const ibanRequest = jibitCorpusMessage('iban-inquiry-request');
const CARD = cardRequest.message.query!.number!;
const IBAN = ibanRequest.message.query!.value!;
const ACCESS_TOKEN = String(tokenAnswer.message.json!.accessToken);

interface Received {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A loopback stand-in of Jibit: tokens as token-answer-ok.json; each inquiry the next corpus answer queued. */
class CorpusProvider {
  readonly received: Received[] = [];
  private readonly queue: JibitCorpusMessage[] = [];
  private server: Server | undefined;
  /** Answers nothing at all (a hung provider) while true. */
  silent = false;
  url = '';

  answerWith(...names: string[]): this {
    for (const name of names) this.queue.push(jibitCorpusMessage(name));
    return this;
  }

  /** A corpus answer changed by the test (its JSON body replaced). */
  answerWithChanged(name: string, json: Record<string, unknown>): this {
    const m = jibitCorpusMessage(name);
    this.queue.push({ ...m, message: { ...m.message, json } });
    return this;
  }

  get inquiries(): Received[] {
    return this.received.filter((r) => r.method === 'GET');
  }

  get tokenRequests(): Received[] {
    return this.received.filter((r) => r.method === 'POST');
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://jibit');
        this.received.push({
          method: req.method ?? '',
          path: url.pathname,
          query: url.searchParams,
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        if (this.silent) return;
        const answer = req.method === 'POST' ? tokenAnswer : this.queue.shift();
        if (answer === undefined) return void res.writeHead(404).end();
        res.writeHead(answer.message.status!, { 'content-type': 'application/json; charset=utf-8' });
        res.end(answer.message.json === null ? '' : JSON.stringify(answer.message.json));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.url = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
    return this;
  }

  stop(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

const clientOf = (provider: CorpusProvider, timeoutMs = 2_000) =>
  new JibitIdentityClient({
    baseUrl: provider.url,
    apiKey: String(tokenRequest.message.json!.apiKey),
    secretKey: String(tokenRequest.message.json!.secretKey),
    timeoutMs,
  });

/** The inquiry an answer file answers: the card's (its path /v1/cards) or the IBAN's. */
const ask = (client: JibitIdentityClient, m: JibitCorpusMessage) => {
  // The card or IBAN the answer is about (the answer's own `number` or `value`), else the requests'.
  const about = m.message.json ?? {};
  return m.http.path === '/v1/cards'
    ? client.cardToIban(typeof about.number === 'string' ? about.number : CARD)
    : client.ibanOwner(typeof about.value === 'string' ? about.value : IBAN);
};

/** What a rejection is, and that its message says no full card. */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof Error);
    assert.ok(!error.message.includes(CARD), `no card number in "${error.message}"`);
    return error;
  }
  assert.fail('expected a rejection');
}

describe('the Jibit identity conformance corpus', () => {
  it('has every message the connector sends or reads, each from at least two independent sources with their paths, disagreements written down', () => {
    const names = corpus.map((m) => m.name);
    for (const needed of [
      'token-request',
      'token-answer-ok',
      'card-to-iban-request',
      'card-to-iban-answer-ok',
      'card-to-iban-answer-joint',
      'card-to-iban-answer-refused',
      'iban-inquiry-request',
      'iban-inquiry-answer-ok',
      'iban-inquiry-answer-refused',
      'answer-unavailable',
      'answer-forbidden',
      'server-error',
    ]) {
      assert.ok(names.includes(needed), `the corpus has ${needed}.json`);
    }
    for (const m of corpus) {
      assert.equal(m.provider, 'jibit', m.name);
      const repos = new Set(m.sources.map((s) => s.repo));
      assert.ok(repos.size >= 2, `${m.name}: two independent sources (${[...repos].join(', ')})`);
      for (const s of m.sources) {
        assert.match(s.path, /\S/, `${m.name}: a source names its path`);
        assert.match(s.note, /\S/, `${m.name}: a source says what it shows`);
        if (s.commit !== undefined) assert.match(s.commit, /^[0-9a-f]{40}$/, m.name);
      }
      assert.notEqual(m.disagreements.trim(), '', m.name);
    }
  });

  it('its IBANs have valid ISO 13616 check digits', async () => {
    const { isValidSheba } = await import('../../../src/domain/business-documents.ts');
    const ibans = JSON.stringify(corpus).match(/IR[0-9]{24}/g) ?? [];
    assert.ok(ibans.length > 0);
    for (const iban of ibans) assert.ok(isValidSheba(iban), iban);
  });
});

describe('the Jibit identity connector against the corpus', function () {
  this.timeout(20_000);
  let provider: CorpusProvider;
  beforeEach(async () => {
    provider = await new CorpusProvider().start();
  });
  afterEach(() => provider.stop());

  it("sends the token request and the card's inquiry as the corpus's requests, with the token the answer gave", async () => {
    provider.answerWith('card-to-iban-answer-ok');
    await clientOf(provider).cardToIban(CARD);
    const [token] = provider.tokenRequests;
    assert.equal(token?.path, tokenRequest.http.path);
    const body = JSON.parse(token.body) as Record<string, unknown>;
    assert.deepEqual(Object.keys(body), tokenRequest.message.order);
    assert.deepEqual(body, tokenRequest.message.json);
    assert.match(String(token.headers['content-type']), /application\/json/);
    const [inquiry] = provider.inquiries;
    assert.equal(inquiry?.path, cardRequest.http.path);
    assert.deepEqual([...inquiry.query.keys()], cardRequest.message.order);
    assert.deepEqual(Object.fromEntries(inquiry.query), cardRequest.message.query);
    assert.equal(inquiry.headers.authorization, `Bearer ${ACCESS_TOKEN}`);
  });

  it("sends the IBAN's inquiry as the corpus's request", async () => {
    provider.answerWith('iban-inquiry-answer-ok');
    await clientOf(provider).ibanOwner(IBAN);
    const [inquiry] = provider.inquiries;
    assert.equal(inquiry?.path, ibanRequest.http.path);
    assert.deepEqual([...inquiry.query.keys()], ibanRequest.message.order);
    assert.deepEqual(Object.fromEntries(inquiry.query), ibanRequest.message.query);
    assert.equal(inquiry.headers.authorization, `Bearer ${ACCESS_TOKEN}`);
  });

  for (const m of corpus.filter((c) => c.direction === 'answer' && c.operation !== 'token')) {
    it(`${m.name}: ${m.outcome}${m.code === undefined ? '' : ` (${m.code})`}`, async () => {
      if (m.outcome === 'account') {
        provider.answerWith(m.name);
        assert.deepEqual(await ask(clientOf(provider), m), m.expected);
      } else if (m.outcome === 'refused') {
        provider.answerWith(m.name);
        const error = await rejection(ask(clientOf(provider), m));
        assert.ok(error instanceof IdentityRefusalError, `${m.name}: ${error.message}`);
        assert.equal(error.code, m.code);
      } else if (m.outcome === 'unavailable') {
        provider.answerWith(m.name);
        const error = await rejection(ask(clientOf(provider), m));
        assert.ok(error instanceof IdentityUnavailableError, `${m.name}: ${error.message}`);
      } else if (m.outcome === 'token_refused') {
        // Once: a new token, the inquiry again, and its answer.
        provider.answerWith(m.name, 'card-to-iban-answer-ok');
        const client = clientOf(provider);
        assert.deepEqual(await client.cardToIban(CARD), jibitCorpusMessage('card-to-iban-answer-ok').expected);
        assert.equal(provider.tokenRequests.length, 2, 'a new token was asked for');
        assert.equal(provider.inquiries.length, 2);
        // Twice in a row: our credentials are refused, the provider is unavailable (not the card refused).
        provider.answerWith(m.name, m.name);
        const error = await rejection(client.cardToIban(CARD));
        assert.ok(error instanceof IdentityUnavailableError, error.message);
      } else {
        assert.fail(`no test for the outcome ${m.outcome}`);
      }
    });
  }

  it('keeps its token for the next inquiries', async () => {
    provider.answerWith('card-to-iban-answer-ok', 'iban-inquiry-answer-ok');
    const client = clientOf(provider);
    await client.cardToIban(CARD);
    await client.ibanOwner(IBAN);
    assert.equal(provider.tokenRequests.length, 1);
  });

  it('takes an answer about another card than the one asked, or without an IBAN or owner, as the provider unavailable', async () => {
    const ok = jibitCorpusMessage('card-to-iban-answer-ok');
    const variants = [
      { ...ok.message.json, number: '6104331234567890' },
      { ...ok.message.json, ibanInfo: { ...(ok.message.json!.ibanInfo as object), iban: 'IR00' } },
      { ...ok.message.json, ibanInfo: { ...(ok.message.json!.ibanInfo as object), owners: [] } },
    ];
    for (const json of variants) {
      provider.answerWithChanged('card-to-iban-answer-ok', json);
      const error = await rejection(clientOf(provider).cardToIban(CARD));
      assert.ok(error instanceof IdentityUnavailableError, error.message);
    }
  });

  it('gives up on a provider that does not answer within its timeout: unavailable, the card masked', async () => {
    provider.silent = true;
    const started = Date.now();
    const error = await rejection(clientOf(provider, 300).cardToIban(CARD));
    assert.ok(error instanceof IdentityUnavailableError);
    assert.ok(Date.now() - started < 5_000);
  });

  it('says the card masked (first 6, last 4) where it says it', async () => {
    provider.answerWith('card-to-iban-answer-refused');
    const error = await rejection(clientOf(provider).cardToIban(CARD));
    assert.ok(error.message.includes(maskCard(CARD)), error.message);
    assert.equal(maskCard(CARD), `${CARD.slice(0, 6)}******${CARD.slice(-4)}`);
  });

  it('refuses a card that is not 16 digits and an IBAN that is not IR and 24 digits without asking the provider', async () => {
    const client = clientOf(provider);
    for (const bad of ['', '6037-9912-3456-7893', '603799123456789', `${CARD}0`]) {
      const error = await rejection(client.cardToIban(bad));
      assert.ok(error instanceof IdentityRefusalError);
      assert.equal(error.code, IDENTITY_INPUT_CODE.CARD);
    }
    for (const bad of ['', 'ir110170000000123456789001', 'IR11017000000012345678900']) {
      const error = await rejection(client.ibanOwner(bad));
      assert.ok(error instanceof IdentityRefusalError);
      assert.equal(error.code, IDENTITY_INPUT_CODE.IBAN);
    }
    assert.equal(provider.received.length, 0);
  });
});

describe('identityProviders', () => {
  it('makes the test-mode provider from SANDBOX_IDENTITY_* (the simulator by default) and the live one only once IDENTITY_BASE_URL is set', () => {
    const defaults = identityProviders(loadConfig({}));
    assert.equal(defaults.test?.name, 'jibit');
    assert.equal(defaults.live, undefined);
    const both = identityProviders(
      loadConfig({ IDENTITY_BASE_URL: 'https://napi.jibit.ir/ide', IDENTITY_API_KEY: 'k', IDENTITY_SECRET_KEY: 's' }),
    );
    assert.equal(both.live?.name, 'jibit');
    assert.equal(identityProviders(loadConfig({ SANDBOX_IDENTITY_URL: '' })).test, undefined);
  });

  it('identityProvidersFor makes them once per configuration (the clients keep their tokens across requests)', () => {
    const config = loadConfig({});
    assert.equal(identityProvidersFor(config).test, identityProvidersFor(config).test);
    assert.notEqual(identityProvidersFor(loadConfig({})).test, identityProvidersFor(config).test);
  });
});
