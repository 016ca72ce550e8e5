/**
 * The identity simulator (src/bank-sim/jibit-identity.ts) held against the Jibit corpus, in process:
 * it takes the corpus's requests as they are and answers with the corpus answers' shapes (the same
 * fields, the same codes for the same situations); it holds an account, with an IBAN of valid check
 * digits and an owner's name, for every test card the PSP simulators' pages print; and its fault
 * switch breaks the inquiries as the connector sees it.
 */
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { IdentityRefusalError, IdentityUnavailableError } from '../../../src/adapters/identity/identity-provider.ts';
import { JibitIdentityClient } from '../../../src/adapters/identity/jibit/client.ts';
import {
  createIdentitySimulator,
  IDENTITY_TEST_ACCOUNTS,
  IDENTITY_UNKNOWN_CARD,
  IDENTITY_UNKNOWN_IBAN,
  JIBIT_IDENTITY_DEFAULTS,
} from '../../../src/bank-sim/jibit-identity.ts';
import { SIMULATOR_PROTOCOLS } from '../../../src/bank-sim/protocols.ts';
import { isValidSheba } from '../../../src/domain/business-documents.ts';
import { jibitCorpusMessage } from '../../support/identity-corpus-jibit.ts';

const ADMIN = 'identity-shape-admin';
const tokenRequest = jibitCorpusMessage('token-request');
const keys = (o: unknown) => Object.keys((o as object | null) ?? {}).sort();

describe('the identity simulator against the Jibit corpus', function () {
  this.timeout(20_000);
  let server: Server;
  let base = '';
  const client = (overrides: Partial<{ apiKey: string; secretKey: string }> = {}) =>
    new JibitIdentityClient({
      baseUrl: `${base}/ide`,
      apiKey: JIBIT_IDENTITY_DEFAULTS.apiKey,
      secretKey: JIBIT_IDENTITY_DEFAULTS.secretKey,
      timeoutMs: 1_000,
      ...overrides,
    });
  const fault = (body: object) =>
    fetch(`${base}/admin/faults`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  before(async () => {
    ({ server } = createIdentitySimulator({
      apiKey: JIBIT_IDENTITY_DEFAULTS.apiKey,
      secretKey: JIBIT_IDENTITY_DEFAULTS.secretKey,
      adminToken: ADMIN,
    }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  });
  afterEach(() => fetch(`${base}/admin/faults`, { method: 'DELETE', headers: { authorization: `Bearer ${ADMIN}` } }));
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("takes the corpus's requests as they are and answers with the corpus answers' fields", async () => {
    // The corpus's token request carries the simulator's default keys.
    assert.deepEqual(tokenRequest.message.json, {
      apiKey: JIBIT_IDENTITY_DEFAULTS.apiKey,
      secretKey: JIBIT_IDENTITY_DEFAULTS.secretKey,
    });
    const tokenRes = await fetch(`${base}/ide${tokenRequest.http.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(tokenRequest.message.json),
    });
    assert.equal(tokenRes.status, 200);
    const token = (await tokenRes.json()) as Record<string, unknown>;
    assert.deepEqual(keys(token), keys(jibitCorpusMessage('token-answer-ok').message.json));
    const auth = { authorization: `Bearer ${String(token.accessToken)}` };
    for (const [request, answer] of [
      ['card-to-iban-request', 'card-to-iban-answer-ok'],
      ['iban-inquiry-request', 'iban-inquiry-answer-ok'],
    ] as const) {
      const r = jibitCorpusMessage(request);
      const res = await fetch(`${base}/ide${r.http.path}?${new URLSearchParams(r.message.query).toString()}`, {
        headers: auth,
      });
      const body = (await res.json()) as Record<string, unknown>;
      const expected = jibitCorpusMessage(answer).message.json!;
      assert.equal(res.status, jibitCorpusMessage(answer).message.status, request);
      assert.deepEqual(keys(body), keys(expected), request);
      assert.deepEqual(keys(body.ibanInfo), keys(expected.ibanInfo), request);
      assert.deepEqual(body.ibanInfo, expected.ibanInfo, `${request}: the corpus's account is the simulator's`);
    }
    // Refusals in the corpus's shape and codes; a token it did not give is refused as the corpus's forbidden.
    for (const [query, path, answer] of [
      [{ number: IDENTITY_UNKNOWN_CARD, iban: 'true' }, '/v1/cards', 'card-to-iban-answer-refused'],
      [{ value: IDENTITY_UNKNOWN_IBAN }, '/v1/ibans', 'iban-inquiry-answer-refused'],
    ] as const) {
      const res = await fetch(`${base}/ide${path}?${new URLSearchParams(query).toString()}`, { headers: auth });
      const expected = jibitCorpusMessage(answer).message;
      assert.equal(res.status, expected.status);
      const body = (await res.json()) as Record<string, unknown>;
      assert.deepEqual(keys(body), keys(expected.json));
      assert.equal(body.code, expected.json!.code);
    }
    const forbidden = await fetch(`${base}/ide/v1/cards?number=${IDENTITY_UNKNOWN_CARD}&iban=true`, {
      headers: { authorization: 'Bearer not-a-token' },
    });
    const expected = jibitCorpusMessage('answer-forbidden').message;
    assert.equal(forbidden.status, expected.status);
    assert.equal(((await forbidden.json()) as Record<string, unknown>).code, expected.json!.code);
  });

  it('holds an account for every test card the PSP simulators’ pages print, each IBAN with valid check digits and a Persian owner', async () => {
    const pageCards = new Set(Object.values(SIMULATOR_PROTOCOLS).map((p) => p.page.defaultCard));
    const c = client();
    for (const card of pageCards) {
      const account = IDENTITY_TEST_ACCOUNTS.find((a) => a.card === card);
      assert.ok(account !== undefined, `an account for ${card}`);
      const answer = await c.cardToIban(card);
      assert.equal(answer.iban, account.iban);
      assert.ok(isValidSheba(answer.iban), answer.iban);
      assert.match(answer.owner_name, /^[\u0600-\u06FF ]+$/u);
      const owner = await c.ibanOwner(answer.iban);
      assert.deepEqual(owner, { owner_name: answer.owner_name, bank: answer.bank, active: true });
    }
    for (const a of IDENTITY_TEST_ACCOUNTS) assert.ok(isValidSheba(a.iban), a.iban);
  });

  it('refuses an unknown card and an unknown IBAN, and says a blocked account is not active', async () => {
    const c = client();
    const card = await c.cardToIban(IDENTITY_UNKNOWN_CARD).catch((e: unknown) => e);
    assert.ok(card instanceof IdentityRefusalError && card.code === 'card.not_valid');
    const iban = await c.ibanOwner(IDENTITY_UNKNOWN_IBAN).catch((e: unknown) => e);
    assert.ok(iban instanceof IdentityRefusalError && iban.code === 'iban.not_found');
    const blocked = IDENTITY_TEST_ACCOUNTS.find((a) => a.status !== 'ACTIVE')!;
    assert.equal((await c.ibanOwner(blocked.iban)).active, false);
  });

  it('gives no token for other keys: the connector finds the provider unavailable', async () => {
    const error = await client({ secretKey: 'another' })
      .cardToIban(IDENTITY_TEST_ACCOUNTS[0]!.card!)
      .catch((e: unknown) => e);
    assert.ok(error instanceof IdentityUnavailableError);
  });

  it('its fault switch: down, timeout and error make the provider unavailable, unknown refuses every card, times counts calls', async () => {
    const card = IDENTITY_TEST_ACCOUNTS[0]!.card!;
    const c = client();
    await c.cardToIban(card); // a token first, so each switch meets an inquiry
    for (const kind of ['down', 'timeout', 'error']) {
      assert.equal((await fault({ operation: 'identity', fault: kind, times: 1 })).status, 200);
      const error = await c.cardToIban(card).catch((e: unknown) => e);
      assert.ok(error instanceof IdentityUnavailableError, `${kind}: ${String(error)}`);
      assert.equal((await c.cardToIban(card)).iban, IDENTITY_TEST_ACCOUNTS[0]!.iban, `${kind} answered once`);
    }
    await fault({ operation: 'identity', fault: 'unknown' });
    const refused = await c.cardToIban(card).catch((e: unknown) => e);
    assert.ok(refused instanceof IdentityRefusalError && refused.code === 'card.not_valid');
    assert.equal((await fault({ operation: 'identity', fault: 'clear' })).status, 200);
    assert.equal((await c.cardToIban(card)).iban, IDENTITY_TEST_ACCOUNTS[0]!.iban);
    assert.equal((await fault({ operation: 'identity', fault: 'in_progress' })).status, 400);
    const noToken = await fetch(`${base}/admin/faults`, { method: 'POST', body: '{}' });
    assert.equal(noToken.status, 404);
  });
});
