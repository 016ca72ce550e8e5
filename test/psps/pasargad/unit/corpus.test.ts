/**
 * The Pasargad (PEP) connector (src/psps/pasargad/) reads PEP's messages as the conformance
 * corpus shows them (test/fixtures/psps/pasargad/, docs/psps/pasargad.md), not as our simulator writes
 * them: every return's query is parsed, every answer is served (as the corpus file holds it, by a
 * loopback stand-in, changed only to the payment's own invoice where PEP echoes it) to the call that
 * gets it, and every request the connector sends is held against the corpus's request: the same path,
 * JSON, field names in the same order, values of the same types, the bearer token getToken gave.
 */
import assert from 'node:assert/strict';
import { PasargadClient } from '../../../../src/psps/pasargad/client.ts';
import { PASARGAD_CODE, pasargadOrderId, pasargadReturn } from '../../../../src/psps/pasargad/mapping.ts';
import { PASARGAD_CONNECTOR } from '../../../../src/psps/pasargad/index.ts';
import { BankRefusalError, BankUnavailableError } from '../../../../src/psps/psp-client.ts';
import { isGenuineConfirmation } from '../../../../src/domain/bank-confirmation.ts';
import { PasargadCorpusBank, type ReceivedCall } from '../corpus-bank.ts';
import {
  corpusAnswer,
  corpusData,
  corpusFields,
  corpusRequest,
  isJsonRequest,
  loadPasargadCorpus,
  pasargadCorpusMessage,
} from '../corpus.ts';

const PAYMENT = '0c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5';
const INVOICE = pasargadOrderId(PAYMENT);
const corpus = loadPasargadCorpus();
const auth = corpusRequest('auth-request');
const purchase = corpusRequest('token-request');
const TERMINAL = String(purchase.json.terminalNumber);
const BEARER = String(corpusAnswer('auth-answer-ok').json!.token);
const AMOUNT = Number(corpusData('inquiry-answer-paid').amount);
const REFERENCE = corpusFields('return-paid').referenceNumber!;
const URL_ID = String(corpusData('token-answer-ok').urlId);

const path = (name: string) => pasargadCorpusMessage(name).http.path;
/** An answer whose data names this test's payment (PEP echoes the invoice it was given). */
const ours = (json: Record<string, unknown>) => ({
  ...json,
  data: { ...(json.data as Record<string, unknown>), invoice: INVOICE },
});
const typeOf = (v: unknown) => (v === null ? 'null' : typeof v);

describe('the Pasargad conformance corpus', () => {
  it('has every message the protocol has, each from at least two independent sources, its disagreements written down', () => {
    const names = corpus.map((m) => m.name);
    for (const needed of [
      'auth-request',
      'auth-answer-ok',
      'auth-answer-refused',
      'token-request',
      'token-answer-ok',
      'token-answer-refused',
      'page-redirect',
      'return-paid',
      'return-failed',
      'return-canceled',
      'inquiry-request',
      'inquiry-answer-paid',
      'inquiry-answer-reversed',
      'confirm-request',
      'confirm-answer-ok',
      'confirm-answer-refused',
      'confirm-answer-confirmed-before',
      'reverse-request',
      'reverse-answer-ok',
      'reverse-answer-refused',
      'server-error',
    ]) {
      assert.ok(names.includes(needed), `the corpus has ${needed}.json`);
    }
    for (const m of corpus) {
      const repos = new Set(m.sources.map((s) => ('repo' in s ? s.repo : s.document)));
      assert.ok(repos.size >= 2, `${m.name}: two independent sources (${[...repos].join(', ')})`);
      assert.notEqual(m.disagreements, '', m.name);
    }
    for (const m of corpus.filter(isJsonRequest))
      assert.deepEqual(Object.keys(m.message.json), m.message.order, `${m.name}: the body in its order`);
  });

  it('names no operation of the retired RSA-signed API, and no verify but confirm-transactions', () => {
    const paths = corpus.filter((m) => m.http.encoding === 'json').map((m) => m.http.path);
    assert.deepEqual([...new Set(paths)].sort(), [
      '/api/payment/confirm-transactions',
      '/api/payment/payment-inquiry',
      '/api/payment/purchase',
      '/api/payment/reverse-transactions',
      '/token/getToken',
    ]);
  });
});

describe('the Pasargad connector against the corpus', () => {
  let bank: PasargadCorpusBank;
  let pep: PasargadClient;

  beforeEach(async () => {
    bank = await new PasargadCorpusBank().start();
    pep = new PasargadClient({
      baseUrl: bank.url,
      terminalId: TERMINAL,
      userName: String(auth.json.username),
      password: String(auth.json.password),
      timeoutMs: 5_000,
    });
  });
  afterEach(() => bank.stop());

  /** The calls received, each checked against its corpus request: path, JSON, order, types, bearer and operation key. */
  const sent = (names: string[], operationKey: string): ReceivedCall[] => {
    assert.deepEqual(
      bank.received.map((c) => c.path),
      names.map(path),
    );
    names.forEach((name, i) => {
      const call = bank.received[i]!;
      const request = corpusRequest(name);
      assert.match(String(call.headers['content-type']), /^application\/json/, name);
      assert.equal(call.headers['x-operation-key'], operationKey, name);
      assert.deepEqual(Object.keys(call.json ?? {}), request.order, `${name}: its fields in the corpus's order`);
      for (const [k, v] of Object.entries(request.json))
        assert.equal(typeOf(call.json![k]), typeOf(v), `${name}: ${k} is a ${typeOf(v)}`);
      if (request.headers?.authorization !== undefined)
        assert.equal(call.headers.authorization, `Bearer ${BEARER}`, `${name}: the bearer token getToken gave`);
      else assert.equal(call.headers.authorization, undefined, `${name}: no bearer`);
    });
    return bank.received;
  };

  it("the token: getToken with the terminal's user name and password, then the purchase with the corpus request's fields, order and types; the answer's url is the page, by a GET", async () => {
    bank.answer(path('auth-request'), 'auth-answer-ok').answer(path('token-request'), 'token-answer-ok');
    const token = await pep.requestToken(PAYMENT, AMOUNT, 'http://callback.test/return');
    const [login, buy] = sent(['auth-request', 'token-request'], `token:${PAYMENT}`);
    assert.deepEqual(login!.json, auth.json);
    assert.deepEqual(
      { ...buy!.json, invoiceDate: undefined },
      { ...purchase.json, invoice: INVOICE, invoiceDate: undefined },
    );
    assert.match(
      String(buy!.json!.invoiceDate),
      /^20[0-9]{2}\/[01][0-9]\/[0-3][0-9] [0-2][0-9]:[0-5][0-9]:[0-5][0-9]$/,
    );
    const answer = corpusData('token-answer-ok');
    assert.equal(token.token, answer.urlId);
    assert.equal(token.url, answer.url);
    assert.equal(token.method, pasargadCorpusMessage('page-redirect').http.method);
    assert.equal(new URL(token.url).pathname, path('page-redirect'));
    assert.deepEqual(token.fields, corpusFields('page-redirect'));
  });

  it("the page under PAGE_URL where the purchase's url is under the base address (the simulator behind compose)", async () => {
    bank.answer(path('auth-request'), 'auth-answer-ok').answer(path('token-request'), 'token-answer-ok', (json) => ({
      ...json,
      data: { urlId: URL_ID, url: `${bank.url}/${URL_ID}` },
    }));
    const paged = new PasargadClient({ ...pep.endpoint, pageBaseUrl: 'http://page.test:3105' });
    assert.equal(
      (await paged.requestToken(PAYMENT, AMOUNT, 'http://callback.test/return')).url,
      `http://page.test:3105/${URL_ID}`,
    );
  });

  it('a refused purchase or getToken is a BankRefusalError with its code; a server error BankUnavailableError; no secret in any error', async () => {
    bank.answer(path('auth-request'), 'auth-answer-ok').answer(path('token-request'), 'token-answer-refused');
    await assert.rejects(
      pep.requestToken(PAYMENT, AMOUNT, 'http://callback.test/return'),
      (e: unknown) => e instanceof BankRefusalError && e.code === corpusAnswer('token-answer-refused').json!.resultCode,
    );
    const refusedLogin = await new PasargadCorpusBank().start();
    try {
      refusedLogin.answer(path('auth-request'), 'auth-answer-refused');
      const other = new PasargadClient({ ...pep.endpoint, baseUrl: refusedLogin.url });
      await assert.rejects(other.requestToken(PAYMENT, AMOUNT, 'http://callback.test/return'), (e: unknown) => {
        assert.ok(e instanceof BankRefusalError && e.code === PASARGAD_CODE.NOT_AUTHORIZED, String(e));
        assert.ok(!e.message.includes(String(auth.json.password)), 'the password is in no error');
        return true;
      });
    } finally {
      await refusedLogin.stop();
    }
    const down = await new PasargadCorpusBank().start();
    try {
      down.answer(path('auth-request'), 'auth-answer-ok').answer(path('token-request'), 'server-error');
      const other = new PasargadClient({ ...pep.endpoint, baseUrl: down.url });
      await assert.rejects(other.requestToken(PAYMENT, AMOUNT, 'http://callback.test/return'), (e: unknown) => {
        assert.ok(e instanceof BankUnavailableError, String(e));
        assert.ok(!e.message.includes(BEARER) && !e.message.includes(String(auth.json.password)));
        return true;
      });
    } finally {
      await down.stop();
    }
  });

  it("reads the corpus's returns: paid (its referenceNumber the reference), failed, canceled; another payment's invoice is not this payment's", () => {
    const paid = { ...corpusFields('return-paid'), invoiceId: INVOICE };
    assert.deepEqual(PASARGAD_CONNECTOR.parseReturn(paid, PAYMENT), {
      state: 'OK',
      ref_num: REFERENCE,
      res_num: PAYMENT,
      token: '',
    });
    assert.equal(
      PASARGAD_CONNECTOR.parseReturn({ ...corpusFields('return-failed'), invoiceId: INVOICE }, PAYMENT)?.state,
      'Failed',
    );
    assert.equal(
      PASARGAD_CONNECTOR.parseReturn({ ...corpusFields('return-canceled'), invoiceId: INVOICE }, PAYMENT)?.state,
      pasargadCorpusMessage('return-canceled').outcome,
    );
    assert.equal(
      PASARGAD_CONNECTOR.parseReturn(corpusFields('return-paid'), PAYMENT),
      undefined,
      "the corpus's invoice is not this payment's",
    );
    for (const name of ['return-paid', 'return-failed', 'return-canceled']) {
      assert.ok(PASARGAD_CONNECTOR.recognisesReturn(corpusFields(name)), name);
      assert.equal(pasargadReturn(corpusFields(name))?.state, pasargadCorpusMessage(name).outcome, name);
    }
  });

  it("the return's confirm: payment-inquiry, nothing confirmed at PEP; a paid answer is a confirmation the workflow takes for this payment and return", async () => {
    bank.answer(path('auth-request'), 'auth-answer-ok').answer(path('inquiry-request'), 'inquiry-answer-paid', ours);
    const confirmation = await pep.confirm(PAYMENT, REFERENCE, AMOUNT);
    const [, inquiry] = sent(['auth-request', 'inquiry-request'], `confirm:${PAYMENT}`);
    assert.deepEqual(inquiry!.json, { invoiceId: INVOICE });
    const data = corpusData('inquiry-answer-paid');
    assert.deepEqual(confirmation, {
      result: 'confirmed',
      ref_num: data.referenceNumber,
      res_num: PAYMENT,
      amount: data.amount,
      terminal: TERMINAL,
      rrn: data.referenceNumber,
      card_pan: data.cardNumber,
    });
    assert.ok(confirmation.result === 'confirmed');
    assert.ok(
      isGenuineConfirmation({ ...confirmation, terminal_matches: true }, { id: PAYMENT, amount: AMOUNT }, REFERENCE),
    );
    assert.ok(
      !isGenuineConfirmation(
        { ...confirmation, terminal_matches: true },
        { id: PAYMENT, amount: AMOUNT + 1 },
        REFERENCE,
      ),
    );
  });

  it("the return's confirm of a sale PEP gave back is refused with its status; of the corpus's own invoice, names that order", async () => {
    bank
      .answer(path('auth-request'), 'auth-answer-ok')
      .answer(path('inquiry-request'), 'inquiry-answer-reversed', ours)
      .answer(path('inquiry-request'), 'inquiry-answer-paid');
    assert.deepEqual(await pep.confirm(PAYMENT, REFERENCE, AMOUNT), {
      result: 'refused',
      code: PASARGAD_CODE.REVERSED,
      description: 'reversed: the money was given back',
    });
    const other = await pep.confirm(PAYMENT, REFERENCE, AMOUNT);
    assert.ok(
      other.result === 'confirmed' && other.res_num === `order:${String(corpusData('inquiry-answer-paid').invoice)}`,
    );
  });

  it("the merchant's verify: the inquiry for the urlId, then confirm-transactions of the invoice and urlId, held to the amount and reference", async () => {
    bank
      .answer(path('auth-request'), 'auth-answer-ok')
      .answer(path('inquiry-request'), 'inquiry-answer-paid', ours)
      .answer(path('confirm-request'), 'confirm-answer-ok', ours);
    assert.deepEqual(await pep.settle(PAYMENT, REFERENCE, AMOUNT), { ref_num: REFERENCE, result_code: 0 });
    const [, , confirm] = sent(['auth-request', 'inquiry-request', 'confirm-request'], `settle:${PAYMENT}`);
    assert.equal(confirm!.json!.urlId, corpusData('inquiry-answer-paid').url, "the inquiry's url is the urlId");
    assert.deepEqual(confirm!.json, { ...corpusRequest('confirm-request').json, invoice: INVOICE });
  });

  it('a confirm answered "confirmed before" is done; refused, or naming another amount, is a BankRefusalError; a sale PEP gave back is refused before any confirm; a server error is BankUnavailableError', async () => {
    const settleWith = async (inquiry: string, confirm: string | undefined, change = ours) => {
      const b = await new PasargadCorpusBank().start();
      try {
        b.answer(path('auth-request'), 'auth-answer-ok').answer(path('inquiry-request'), inquiry, ours);
        if (confirm !== undefined) b.answer(path('confirm-request'), confirm, change);
        const client = new PasargadClient({ ...pep.endpoint, baseUrl: b.url });
        return await client.settle(PAYMENT, REFERENCE, AMOUNT).finally(() => {
          if (confirm === undefined) assert.equal(b.callsTo(path('confirm-request')).length, 0, 'no confirm');
        });
      } finally {
        await b.stop();
      }
    };
    assert.deepEqual(await settleWith('inquiry-answer-paid', 'confirm-answer-confirmed-before'), {
      ref_num: REFERENCE,
      result_code: PASARGAD_CODE.ALREADY_VERIFIED,
    });
    await assert.rejects(
      settleWith('inquiry-answer-paid', 'confirm-answer-refused'),
      (e: unknown) =>
        e instanceof BankRefusalError && e.code === corpusAnswer('confirm-answer-refused').json!.resultCode,
    );
    await assert.rejects(
      settleWith('inquiry-answer-paid', 'confirm-answer-ok', (json) => {
        const changed = ours(json);
        return { ...changed, data: { ...changed.data, amount: AMOUNT + 1000 } };
      }),
      (e: unknown) => e instanceof BankRefusalError && e.code === PASARGAD_CODE.NOT_THIS_PAYMENT,
    );
    await assert.rejects(
      settleWith('inquiry-answer-reversed', undefined),
      (e: unknown) => e instanceof BankRefusalError && e.code === PASARGAD_CODE.REVERSED,
    );
    await assert.rejects(settleWith('inquiry-answer-paid', 'server-error'), BankUnavailableError);
  });

  it('the reversal: the inquiry for the urlId, then reverse-transactions of the invoice and urlId; refused is a BankRefusalError; a sale already given back is reversed before, without a call', async () => {
    bank
      .answer(path('auth-request'), 'auth-answer-ok')
      .answer(path('inquiry-request'), 'inquiry-answer-paid', ours)
      .answer(path('reverse-request'), 'reverse-answer-ok');
    assert.deepEqual(await pep.reverse(PAYMENT, REFERENCE), { ref_num: REFERENCE, result_code: 0 });
    const [, , reverse] = sent(['auth-request', 'inquiry-request', 'reverse-request'], `reverse:${PAYMENT}`);
    assert.deepEqual(reverse!.json, { ...corpusRequest('reverse-request').json, invoice: INVOICE });

    const refused = await new PasargadCorpusBank().start();
    try {
      refused
        .answer(path('auth-request'), 'auth-answer-ok')
        .answer(path('inquiry-request'), 'inquiry-answer-paid', ours)
        .answer(path('reverse-request'), 'reverse-answer-refused');
      await assert.rejects(
        new PasargadClient({ ...pep.endpoint, baseUrl: refused.url }).reverse(PAYMENT, REFERENCE),
        (e: unknown) =>
          e instanceof BankRefusalError && e.code === corpusAnswer('reverse-answer-refused').json!.resultCode,
      );
    } finally {
      await refused.stop();
    }
    const given = await new PasargadCorpusBank().start();
    try {
      given
        .answer(path('auth-request'), 'auth-answer-ok')
        .answer(path('inquiry-request'), 'inquiry-answer-reversed', ours);
      assert.deepEqual(await new PasargadClient({ ...pep.endpoint, baseUrl: given.url }).reverse(PAYMENT, REFERENCE), {
        ref_num: REFERENCE,
        result_code: PASARGAD_CODE.REVERSED,
      });
      assert.equal(given.callsTo(path('reverse-request')).length, 0);
    } finally {
      await given.stop();
    }
  });
});
