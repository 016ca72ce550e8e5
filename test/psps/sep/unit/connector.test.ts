/**
 * The SEP connector (src/psps/sep/) against SEP's conformance corpus (test/fixtures/psps/sep/,
 * docs/psps/sep.md), never against our simulator: every return the corpus shows is read by the
 * return route's parser, every answer (token, verify, reverse) is served to the client as its file
 * shows it and read to the outcome the file names, and every request the client builds has the
 * corpus request's path, field names and value types. And the verdict on a verify answer without
 * ResNum: judged by the return's RefNum, the amount and the terminal.
 */
import assert from 'node:assert/strict';
import { parseBankCallback } from '../../../../src/psps/callbacks.ts';
import { BankRefusalError, type Confirmation } from '../../../../src/psps/psp-client.ts';
import { SepClient } from '../../../../src/psps/sep/client.ts';
import { sepCallback } from '../../../../src/psps/sep/mapping.ts';
import { isGenuineConfirmation } from '../../../../src/domain/bank-confirmation.ts';
import { CorpusPsp } from '../../../support/corpus-psp.ts';
import { corpusFields, corpusMessage, loadCorpus, type CorpusMessage } from '../../../support/psp-corpus.ts';

const corpus = loadCorpus('sep');
const ok = corpusFields(corpusMessage('sep', 'return-ok'));
const PAYMENT = ok.ResNum!;
const TERMINAL = ok.TerminalId!;
const AMOUNT = Number(ok.Amount);
const REF_NUM = ok.RefNum!;

/** The JSON shape class of a value: what a field's type in a corpus request is. */
const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** Holds a request the client sent against a corpus request: its method and path, JSON, and every field a name and a type the corpus shows. */
function conforms(
  sent: { method: string; path: string; contentType: string; body: unknown },
  request: CorpusMessage,
  allowedExtra: readonly string[] = [],
): void {
  assert.equal(sent.method, request.http.method, `${request.name}: method`);
  assert.equal(sent.path, request.http.path, `${request.name}: path`);
  assert.match(sent.contentType, /application\/json/, `${request.name}: a JSON body`);
  const shown = request.message as Record<string, unknown>;
  for (const [name, value] of Object.entries(sent.body as Record<string, unknown>)) {
    if (allowedExtra.includes(name)) continue;
    assert.ok(Object.hasOwn(shown, name), `${request.name}: the client sent ${name}, which no corpus request shows`);
    assert.equal(kind(value), kind(shown[name]), `${request.name}: ${name} is a ${kind(shown[name])} in the corpus`);
  }
}

describe('SEP connector: the corpus is the protocol', function () {
  this.timeout(20_000);
  const psp = new CorpusPsp();
  let client: SepClient;

  before(async () => {
    await psp.start();
    client = new SepClient({ baseUrl: psp.url, terminalId: TERMINAL, password: '', timeoutMs: 5_000 });
  });
  after(() => psp.stop());
  beforeEach(() => {
    psp.requests.length = 0;
    psp.answers.clear();
  });

  describe('every return the corpus shows is read to its state', () => {
    for (const message of corpus.filter((m) => m.operation === 'return')) {
      it(`${message.name}: ${message.outcome} (${message.http.encoding})`, () => {
        const fields = corpusFields(message);
        const callback = sepCallback(fields, PAYMENT);
        assert.ok(callback !== undefined, `${message.name} is read`);
        assert.equal(callback.state, message.outcome);
        assert.equal(callback.ref_num, fields.RefNum ?? '');
        assert.equal(callback.res_num, PAYMENT, 'the payment of the return address');
        assert.equal(callback.token, fields.Token ?? '', 'a Token only where the return carries one');
        // The return route reads it the same way, by the payment's PSP or by the fields' own names.
        assert.deepEqual(parseBankCallback(fields, PAYMENT, 'sep'), callback);
        assert.deepEqual(parseBankCallback(fields, PAYMENT), callback);
      });
    }

    it("return-ok: SEP's RefNum is Base64-like (letters, digits, '+', '/'), never digits only", () => {
      assert.match(REF_NUM, /[+/]/, 'the corpus RefNum has the characters a digits-only reading refused');
      assert.equal(sepCallback(ok, PAYMENT)?.ref_num, REF_NUM);
    });

    it("return-query: a RefNum whose '+' a query decoded as a space has its '+' back", () => {
      const query = corpusFields(corpusMessage('sep', 'return-query'));
      const decoded = Object.fromEntries(new URLSearchParams(`Token=${query.Token}&RefNum=${query.RefNum}`));
      assert.notEqual(decoded.RefNum, query.RefNum, 'the raw query lost its +');
      assert.equal(sepCallback(decoded, PAYMENT)?.ref_num, query.RefNum);
    });

    it("another payment's ResNum, a paid state without RefNum, a malformed RefNum or token are no return of this payment", () => {
      assert.equal(sepCallback(ok, 'another-payment'), undefined);
      assert.equal(sepCallback({ ...ok, RefNum: '' }, PAYMENT), undefined);
      assert.equal(sepCallback({ ...ok, RefNum: '<script>' }, PAYMENT), undefined);
      assert.equal(sepCallback({ ...ok, Token: 'a b' }, PAYMENT), undefined);
      assert.equal(
        sepCallback({ Token: 'abcdefgh12' }, PAYMENT),
        undefined,
        'neither State nor RefNum: nothing to judge',
      );
    });

    it('reads field names in any case (the references spell RRN and Rrn, State and state)', () => {
      const lower = Object.fromEntries(Object.entries(ok).map(([k, v]) => [k.toLowerCase(), v]));
      assert.deepEqual(sepCallback(lower, PAYMENT), sepCallback(ok, PAYMENT));
    });
  });

  describe('every token answer is read to its outcome, from the request the corpus shows', () => {
    for (const message of corpus.filter((m) => m.operation === 'token' && m.direction === 'answer')) {
      it(`${message.name}: ${message.outcome}`, async () => {
        psp.answers.set('/onlinepg/onlinepg', () => ({ json: message.message }));
        const asked = client.requestToken(PAYMENT, AMOUNT, `https://pay.example.ir/pay/${PAYMENT}/return`);
        if (message.outcome === 'token') {
          const token = await asked;
          const shown = message.message as { token: string };
          assert.equal(token.token, shown.token);
          assert.equal(token.method, 'GET');
          const page = corpusMessage('sep', 'page-redirect-get');
          const url = new URL(token.url);
          assert.equal(url.pathname, page.http.path, "the customer's way to the page is the corpus's");
          assert.deepEqual([...url.searchParams.keys()], Object.keys(page.message as object));
        } else {
          await assert.rejects(asked, (e: unknown) => e instanceof BankRefusalError && e.code === message.code);
        }
        const [sent] = psp.to('/onlinepg/onlinepg');
        assert.ok(sent !== undefined);
        conforms(sent, corpusMessage('sep', 'token-request'));
      });
    }
  });

  describe('every verify answer is read to its outcome, from the request the corpus shows', () => {
    for (const message of corpus.filter((m) => m.operation === 'verify' && m.direction === 'answer')) {
      it(`${message.name}: ${message.outcome}${message.code === undefined ? '' : ` ${message.code}`}`, async () => {
        const request = corpusMessage('sep', 'verify-request');
        psp.answers.set(request.http.path, () => ({ json: message.message }));
        const answer = await client.confirm(PAYMENT, REF_NUM, AMOUNT);
        assert.equal(answer.result, message.outcome);
        if (answer.result === 'refused') assert.equal(answer.code, message.code);
        const [sent] = psp.to(request.http.path);
        assert.ok(sent !== undefined);
        conforms(sent, request);
        assert.deepEqual(sent.body, request.message, 'RefNum and TerminalNumber, as the corpus shows them');
      });
    }

    it('verify-answer-ok: confirmed without ResNum, with its RRN, masked card and HashedPan', async () => {
      const message = corpusMessage('sep', 'verify-answer-ok');
      psp.answers.set(message.http.path, () => ({ json: message.message }));
      const answer = await client.confirm(PAYMENT, REF_NUM, AMOUNT);
      const detail = (message.message as { TransactionDetail: Record<string, string> }).TransactionDetail;
      assert.deepEqual(answer, {
        result: 'confirmed',
        ref_num: REF_NUM,
        res_num: null,
        amount: AMOUNT,
        terminal: TERMINAL,
        rrn: detail.RRN!,
        card_pan: detail.MaskedPan!,
        card_sha256: detail.HashedPan,
      } satisfies Confirmation);
    });

    it('an RRN that came as a number and lost its leading zero gets it back; amounts as strings are read', async () => {
      const message = corpusMessage('sep', 'verify-answer-ok');
      const shown = message.message as { TransactionDetail: Record<string, unknown> };
      psp.answers.set(message.http.path, () => ({
        json: {
          ...shown,
          TransactionDetail: {
            ...shown.TransactionDetail,
            RRN: 12345678901,
            OrginalAmount: String(AMOUNT),
            AffectiveAmount: String(AMOUNT),
          },
        },
      }));
      const answer = await client.confirm(PAYMENT, REF_NUM, AMOUNT);
      assert.equal(answer.result === 'confirmed' && answer.rrn, '012345678901');
      assert.equal(answer.result === 'confirmed' && answer.amount, AMOUNT);
    });

    it('OrginalAmount and AffectiveAmount must both be the charged amount: either one another is another amount', async () => {
      const message = corpusMessage('sep', 'verify-answer-ok');
      const shown = message.message as { TransactionDetail: Record<string, unknown> };
      for (const changed of [{ OrginalAmount: AMOUNT - 1 }, { AffectiveAmount: AMOUNT - 1 }]) {
        psp.answers.set(message.http.path, () => ({
          json: { ...shown, TransactionDetail: { ...shown.TransactionDetail, ...changed } },
        }));
        const answer = await client.confirm(PAYMENT, REF_NUM, AMOUNT);
        assert.equal(answer.result, 'confirmed');
        assert.notEqual(answer.result === 'confirmed' && answer.amount, AMOUNT, JSON.stringify(changed));
      }
    });
  });

  describe('every reverse answer is read to its outcome, from the request the corpus shows', () => {
    for (const message of corpus.filter((m) => m.operation === 'reverse' && m.direction === 'answer')) {
      it(`${message.name}: ${message.outcome}`, async () => {
        const request = corpusMessage('sep', 'reverse-request');
        psp.answers.set(request.http.path, () => ({ json: message.message }));
        const reversing = client.reverse(PAYMENT, REF_NUM);
        if (message.outcome === 'reversed') assert.deepEqual(await reversing, { ref_num: REF_NUM, result_code: 0 });
        else await assert.rejects(reversing, (e: unknown) => e instanceof BankRefusalError && e.code === message.code);
        const [sent] = psp.to(request.http.path);
        assert.ok(sent !== undefined);
        conforms(sent, request);
      });
    }
  });

  it("a terminal's password goes with every call when it has one, and only then", async () => {
    const withPassword = new SepClient({
      baseUrl: psp.url,
      terminalId: TERMINAL,
      password: 'secret',
      timeoutMs: 5_000,
    });
    const verify = corpusMessage('sep', 'verify-answer-ok');
    psp.answers.set(verify.http.path, () => ({ json: verify.message }));
    await withPassword.confirm(PAYMENT, REF_NUM, AMOUNT);
    await client.confirm(PAYMENT, REF_NUM, AMOUNT);
    const [first, second] = psp.to(verify.http.path);
    assert.equal((first?.body as Record<string, unknown>).Password, 'secret');
    assert.equal(Object.hasOwn(second?.body as object, 'Password'), false);
    conforms(first!, corpusMessage('sep', 'verify-request'), ['Password']);
  });
});

describe('the verdict on a SEP confirmation: no ResNum, so the return’s RefNum, the amount and the terminal', () => {
  const payment = { id: PAYMENT, amount: AMOUNT };
  const confirmed = {
    result: 'confirmed' as const,
    ref_num: REF_NUM,
    res_num: null,
    amount: AMOUNT,
    rrn: '405512738806',
    card_pan: '603799******7732',
    terminal_matches: true,
  };

  it('the corpus answer to the corpus return pays', () => {
    assert.ok(isGenuineConfirmation(confirmed, payment, REF_NUM));
  });

  it('another RefNum, amount or terminal pays nothing', () => {
    assert.ok(!isGenuineConfirmation(confirmed, payment, `${REF_NUM.slice(0, -1)}A`));
    assert.ok(!isGenuineConfirmation({ ...confirmed, amount: AMOUNT + 1 }, payment, REF_NUM));
    assert.ok(!isGenuineConfirmation({ ...confirmed, terminal_matches: false }, payment, REF_NUM));
  });

  it('an answer that names a ResNum must name this payment (every answer recorded before this rule named one)', () => {
    assert.ok(isGenuineConfirmation({ ...confirmed, res_num: PAYMENT }, payment, REF_NUM));
    assert.ok(!isGenuineConfirmation({ ...confirmed, res_num: 'another-payment' }, payment, REF_NUM));
    assert.ok(
      !isGenuineConfirmation({ ...confirmed, res_num: '' }, payment, REF_NUM),
      'an empty ResNum is no ResNum of this payment, as before',
    );
  });
});
