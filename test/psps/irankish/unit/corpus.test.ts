/**
 * The IranKish connector (src/psps/irankish/) reads IranKish's messages as the conformance
 * corpus shows them (test/fixtures/psps/irankish/, docs/psps/irankish.md), not as our simulator
 * writes them: every return post is parsed, every answer is served (as the corpus file holds it, by a
 * loopback stand-in, test/support/corpus-psp.ts) to the call that gets it, and every request the
 * connector sends is held against the corpus's request: the same path, the same keys in the same order
 * with values of the same types, and an authenticationEnvelope that opens, with the private half of the
 * key the connector was given, to what the corpus says it seals.
 */
import assert from 'node:assert/strict';
import {
  constants,
  createCipheriv,
  createHash,
  generateKeyPairSync,
  privateDecrypt,
  type KeyObject,
} from 'node:crypto';
import { IRANKISH_CONNECTOR } from '../../../../src/psps/irankish/index.ts';
import { irankishOrderId, irankishReference } from '../../../../src/psps/irankish/mapping.ts';
import { BankRefusalError, BankUnavailableError } from '../../../../src/psps/psp-client.ts';
import { isGenuineConfirmation } from '../../../../src/domain/bank-confirmation.ts';
import { CorpusPsp, type RecordedRequest } from '../../../support/corpus-psp.ts';
import { corpusAnswer, corpusFields, corpusRequest, irankishCorpusMessage, loadIrankishCorpus } from '../corpus.ts';

/** The payment whose order id the corpus's requestId is. */
const PAYMENT = '0c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5';
const corpus = loadIrankishCorpus();
const tokenRequest = corpusRequest('token-request');
const request = tokenRequest.json.request as Record<string, string | number | null>;
const TERMINAL = String(request.terminalId);
const ACCEPTOR = String(request.acceptorId);
const PASSWORD = tokenRequest.envelope!.password;
const AMOUNT = Number(request.amount);
const paid = corpusFields('return-paid');
const REFERENCE = irankishReference({
  rrn: paid.retrievalReferenceNumber!,
  stan: paid.systemTraceAuditNumber!,
  token: paid.token!,
});

/** A JSON value's type as the corpus compares it. */
const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const typesOf = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, typeOf(v)]));

/** RSA with PKCS#1 v1.5 padding opened by hand (Node refuses that padding to privateDecrypt). */
function openPkcs1(privateKey: KeyObject, data: Buffer): Buffer {
  const block = privateDecrypt({ key: privateKey, padding: constants.RSA_NO_PADDING }, data);
  assert.deepEqual([block[0], block[1]], [0, 2], 'PKCS#1 v1.5 encryption padding');
  const end = block.indexOf(0, 2);
  assert.ok(end >= 10, 'at least eight bytes of padding');
  return block.subarray(end + 1);
}

describe('the IranKish connector against its corpus', function () {
  this.timeout(20_000);
  const bank = new CorpusPsp();
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const settings = () => ({
    URL: bank.url,
    PAGE_URL: '',
    TERMINAL_ID: TERMINAL,
    ACCEPTOR_ID: ACCEPTOR,
    PASSWORD,
    PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
  });
  const client = () => IRANKISH_CONNECTOR.client(settings(), 2_000);
  const serve = (path: string, name: string) => bank.answers.set(path, () => ({ json: corpusAnswer(name).json }));
  const tested = new Set<string>();
  const use = (name: string) => {
    tested.add(name);
    return irankishCorpusMessage(name);
  };

  before(async () => {
    await bank.start();
  });
  after(async () => {
    await bank.stop();
  });
  beforeEach(() => {
    bank.answers.clear();
    bank.requests.length = 0;
  });

  it('has files of the shape every corpus has, each citing at least two sources of more than one repository', () => {
    assert.ok(corpus.length >= 14);
    for (const message of corpus) {
      assert.ok(message.sources.length >= 2, `${message.name}: two sources at least`);
      const repos = new Set(message.sources.map((s) => ('repo' in s ? s.repo : s.document)));
      assert.ok(repos.size >= 2, `${message.name}: sources of two repositories at least`);
      assert.notEqual(message.disagreements, '', message.name);
    }
  });

  it("sends the corpus's token request: the path, the keys in order, the types, an envelope that opens to the corpus's text", async () => {
    const corpusMessage = use('token-request');
    serve(corpusMessage.http.path, 'token-answer-ok');
    const before = Math.floor(Date.now() / 1000);
    await client().requestToken(PAYMENT, AMOUNT, String(request.revertUri));
    const [sent] = bank.to(corpusMessage.http.path) as [RecordedRequest];
    assert.equal(sent.method, 'POST');
    assert.match(sent.contentType, /application\/json/);
    const body = sent.body as { request: Record<string, unknown>; authenticationEnvelope: Record<string, string> };
    assert.deepEqual(Object.keys(body), tokenRequest.order);
    assert.deepEqual(Object.keys(body.request), tokenRequest.requestOrder);
    assert.deepEqual(typesOf(body.request), typesOf(request));
    assert.deepEqual(
      { ...body.request, requestTimestamp: 0 },
      { ...request, requestTimestamp: 0 },
      "the corpus's values for its payment, terminal, acceptor and return address",
    );
    assert.ok(Math.abs(Number(body.request.requestTimestamp) - before) <= 5, 'requestTimestamp: now, in Unix seconds');
    assert.equal(request.requestId, irankishOrderId(PAYMENT));
    const envelope = body.authenticationEnvelope;
    assert.deepEqual(Object.keys(envelope).sort(), Object.keys(tokenRequest.json.authenticationEnvelope!).sort());
    assert.match(envelope.iv!, /^[0-9a-f]{32}$/);
    assert.match(envelope.data!, /^[0-9a-f]{512}$/, 'a 2048-bit RSA block, hex');
    const opened = openPkcs1(privateKey, Buffer.from(envelope.data!, 'hex'));
    assert.equal(opened.length, 48, 'the AES key and the SHA-256 of the ciphertext');
    const cipher = createCipheriv('aes-128-cbc', opened.subarray(0, 16), Buffer.from(envelope.iv!, 'hex'));
    const sealed = Buffer.concat([cipher.update(Buffer.from(tokenRequest.envelope!.text, 'hex')), cipher.final()]);
    assert.deepEqual(createHash('sha256').update(sealed).digest(), opened.subarray(16));
    assert.ok(!JSON.stringify(sent.body).includes(PASSWORD), 'the password never travels');
  });

  it("reads the corpus's token answer to the page's form post of tokenIdentity, as page-redirect.json shows it", async () => {
    serve('/api/v3/tokenization/make', use('token-answer-ok').name);
    const redirect = use('page-redirect');
    const token = await client().requestToken(PAYMENT, AMOUNT, 'http://callback.test/return');
    const answer = corpusAnswer('token-answer-ok').json.result as Record<string, string>;
    assert.equal(token.token, answer.token);
    assert.equal(token.method, redirect.http.method);
    assert.equal(token.url, `${bank.url}${redirect.http.path}`);
    assert.deepEqual(token.fields, corpusFields('page-redirect'));
  });

  it("refuses the token on the corpus's refusal, with IranKish's code; an answer without a token, a 500 or no JSON are not a token", async () => {
    serve('/api/v3/tokenization/make', use('token-answer-refused').name);
    await assert.rejects(
      client().requestToken(PAYMENT, AMOUNT, 'http://callback.test/return'),
      (e: unknown) => e instanceof BankRefusalError && e.code === irankishCorpusMessage('token-answer-refused').code,
    );
    bank.answers.set('/api/v3/tokenization/make', () => ({
      json: { ...corpusAnswer('token-answer-ok').json, result: null },
    }));
    await assert.rejects(client().requestToken(PAYMENT, AMOUNT, 'http://callback.test/return'), BankRefusalError);
    bank.answers.set('/api/v3/tokenization/make', () => ({ status: 500 }));
    await assert.rejects(client().requestToken(PAYMENT, AMOUNT, 'http://callback.test/return'), BankUnavailableError);
    bank.answers.set('/api/v3/tokenization/make', () => ({ status: 200 }));
    await assert.rejects(client().requestToken(PAYMENT, AMOUNT, 'http://callback.test/return'), BankUnavailableError);
  });

  it("reads the corpus's returns: paid (its RRN, STAN and token its reference), canceled, failed; another payment's is not this one's", () => {
    for (const name of ['return-paid', 'return-canceled', 'return-failed']) {
      const message = use(name);
      const fields = corpusFields(name);
      assert.ok(IRANKISH_CONNECTOR.recognisesReturn(fields), `${name}: recognised as IranKish's`);
      const callback = IRANKISH_CONNECTOR.parseReturn(fields, PAYMENT);
      assert.equal(callback?.state, message.outcome, name);
      assert.equal(callback.res_num, PAYMENT);
      assert.equal(callback.ref_num, message.outcome === 'OK' ? REFERENCE : '', name);
      assert.equal(IRANKISH_CONNECTOR.parseReturn(fields, 'ffffffff-0000-4000-8000-000000000000'), undefined, name);
    }
    // Field names in any case (mmdm95/sim-fa-payment's RequestId).
    const { requestId, ...rest } = paid;
    assert.equal(IRANKISH_CONNECTOR.parseReturn({ ...rest, RequestId: requestId! }, PAYMENT)?.ref_num, REFERENCE);
    // A paid return without its RRN or STAN names no transaction to confirm.
    assert.equal(IRANKISH_CONNECTOR.parseReturn({ ...paid, systemTraceAuditNumber: '' }, PAYMENT), undefined);
  });

  it("sends the corpus's confirmation with the return's RRN, STAN and token, and reads its answer to a genuine confirmation", async () => {
    const corpusMessage = use('verify-request');
    serve(corpusMessage.http.path, use('verify-answer-ok').name);
    const confirmation = await client().confirm(PAYMENT, REFERENCE, AMOUNT);
    const [sent] = bank.to(corpusMessage.http.path) as [RecordedRequest];
    assert.deepEqual(Object.keys(sent.body as object), corpusRequest('verify-request').order);
    assert.deepEqual(sent.body, corpusRequest('verify-request').json);
    assert.equal(confirmation.result, 'confirmed');
    assert.ok(
      confirmation.result === 'confirmed' &&
        isGenuineConfirmation(
          { ...confirmation, terminal_matches: confirmation.terminal === TERMINAL },
          { id: PAYMENT, amount: AMOUNT },
          REFERENCE,
        ),
      'a genuine confirmation of this payment',
    );
    assert.ok(
      confirmation.result === 'confirmed' &&
        !isGenuineConfirmation(
          { ...confirmation, terminal_matches: true },
          { id: PAYMENT, amount: AMOUNT + 1 },
          REFERENCE,
        ),
      'not of a payment of another amount',
    );
  });

  it('reads a repeated confirmation (duplicateVerify) as confirmed, a refusal as refused with its code, another order as not this payment', async () => {
    serve('/api/v3/confirmation/purchase', use('verify-answer-verified-before').name);
    assert.equal((await client().confirm(PAYMENT, REFERENCE, AMOUNT)).result, 'confirmed');
    serve('/api/v3/confirmation/purchase', use('verify-answer-refused').name);
    assert.deepEqual(await client().confirm(PAYMENT, REFERENCE, AMOUNT), {
      result: 'refused',
      code: 25,
      description: corpusAnswer('verify-answer-refused').json.description,
    });
    const ok = corpusAnswer('verify-answer-ok').json;
    bank.answers.set('/api/v3/confirmation/purchase', () => ({
      json: { ...ok, result: { ...(ok.result as object), requestId: '111' } },
    }));
    const other = await client().confirm(PAYMENT, REFERENCE, AMOUNT);
    assert.ok(other.result === 'confirmed' && other.res_num === 'order:111');
    bank.answers.set('/api/v3/confirmation/purchase', () => ({ status: 503 }));
    await assert.rejects(client().confirm(PAYMENT, REFERENCE, AMOUNT), BankUnavailableError);
    assert.equal(
      (await client().confirm(PAYMENT, 'not-a-reference', AMOUNT)).result,
      'refused',
      'a reference of no IranKish sale is refused without a call',
    );
  });

  it("sends the corpus's reversal and reads its answers: done, and reversed before (a retry) done too; another code refuses", async () => {
    const corpusMessage = use('reverse-request');
    serve(corpusMessage.http.path, use('reverse-answer-ok').name);
    assert.deepEqual(await client().reverse(PAYMENT, REFERENCE), { ref_num: REFERENCE, result_code: 0 });
    const [sent] = bank.to(corpusMessage.http.path) as [RecordedRequest];
    assert.deepEqual(Object.keys(sent.body as object), corpusRequest('reverse-request').order);
    assert.deepEqual(sent.body, corpusRequest('reverse-request').json);
    serve(corpusMessage.http.path, use('reverse-answer-reversed-before').name);
    assert.deepEqual(await client().reverse(PAYMENT, REFERENCE), { ref_num: REFERENCE, result_code: 2 });
    serve(corpusMessage.http.path, 'verify-answer-refused');
    await assert.rejects(
      client().reverse(PAYMENT, REFERENCE),
      (e: unknown) => e instanceof BankRefusalError && e.code === 25,
    );
  });

  it('every corpus file was read by a test above', () => {
    assert.deepEqual(
      corpus.map((m) => m.name).filter((name) => !tested.has(name)),
      [],
      'a corpus message no test reads is no conformance',
    );
  });
});
