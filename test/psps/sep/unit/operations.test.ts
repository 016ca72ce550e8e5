/**
 * Every call the SEP connector can make is one SEP's conformance corpus shows (docs/psps/sep.md):
 * each public operation of SepClient is called against a loopback PSP that records the paths, and
 * a path (or a page address) that no corpus file shows fails. A new method on SepClient fails too,
 * until this test calls it: so no operation SEP does not have (a settle, an inquiry by ResNum, a
 * refund, a report) can come back unnoticed. Also the corpus itself: every file well formed and
 * sourced, and the capabilities SepClient declares those the corpus supports.
 */
import assert from 'node:assert/strict';
import { SepClient } from '../../../../src/psps/sep/client.ts';
import { SEP_CONNECTOR } from '../../../../src/psps/sep/index.ts';
import { CorpusPsp } from '../../../support/corpus-psp.ts';
import { corpusFields, corpusMessage, loadCorpus } from '../../../support/psp-corpus.ts';

const corpus = loadCorpus('sep');
const ok = corpusFields(corpusMessage('sep', 'return-ok'));

/**
 * SepClient's methods, each one a test calls below, and its private helpers. `call` is the JSON
 * transport the payouts adapter (src/adapters/payout.ts) shares for the bank's Paya transfer, which
 * is no IPG operation of SEP: it takes any path, and its users are not SEP's protocol.
 */
const OPERATIONS = ['requestToken', 'pageUrl', 'confirm', 'reverse'] as const;
const HELPERS = ['constructor', 'terminalId', 'credentials', 'byRef', 'operation', 'call'];

describe("SEP connector: every outgoing call is one SEP's corpus shows", function () {
  this.timeout(20_000);
  const psp = new CorpusPsp();

  before(() => psp.start());
  after(() => psp.stop());

  it('SepClient has no method this test does not call: a new operation must come with its corpus messages', () => {
    const methods = Object.getOwnPropertyNames(SepClient.prototype).filter((name) => !HELPERS.includes(name));
    assert.deepEqual(methods.sort(), [...OPERATIONS].sort());
    for (const absent of ['settle', 'inquire', 'refund', 'dailyReport'])
      assert.equal(absent in SepClient.prototype, false, `SEP has no ${absent} operation`);
  });

  it('calls only the paths the corpus requests show, by the method they show', async () => {
    const client = new SepClient({ baseUrl: psp.url, terminalId: ok.TerminalId!, password: '', timeoutMs: 5_000 });
    for (const message of corpus.filter((m) => m.direction === 'answer'))
      psp.answers.set(message.http.path, () => ({
        json: corpusMessage('sep', `${message.operation}-answer-ok`).message,
      }));
    const paymentId = ok.ResNum!;
    await client.requestToken(paymentId, Number(ok.Amount), `https://pay.example.ir/pay/${paymentId}/return`);
    await client.confirm(paymentId, ok.RefNum!, Number(ok.Amount));
    await client.reverse(paymentId, ok.RefNum!);
    assert.ok(SEP_CONNECTOR.parseReturn(ok, paymentId), 'reading the return calls nobody');
    const shown = new Set(
      corpus.filter((m) => m.direction === 'request').map((m) => `${m.http.method} ${m.http.path}`),
    );
    const made = psp.requests.map((r) => `${r.method} ${r.path}`);
    assert.deepEqual(made, [
      'POST /onlinepg/onlinepg',
      'POST /verifyTxnRandomSessionkey/ipg/VerifyTransaction',
      'POST /verifyTxnRandomSessionkey/ipg/ReverseTransaction',
    ]);
    for (const call of made) assert.ok(shown.has(call), `${call}: no corpus request shows it`);
    // The customer's way to the page: a redirect the corpus shows.
    const page = new URL(client.pageUrl('tok'));
    const redirects = corpus
      .filter((m) => m.direction === 'redirect' && m.http.method === 'GET')
      .map((m) => m.http.path);
    assert.ok(redirects.includes(page.pathname), `${page.pathname}: no corpus redirect shows it`);
  });

  it("declares SEP's capabilities as the corpus and its sources show them", () => {
    const { capabilities } = new SepClient({ baseUrl: psp.url, terminalId: '1', password: '', timeoutMs: 1_000 });
    const operations = new Set(corpus.map((m) => m.operation));
    assert.deepEqual(capabilities, {
      capture: 'verify',
      reversalWindowMs: 50 * 60_000,
      unverifiedReversalMs: 30 * 60_000,
      refund: 'none',
      inquiry: false,
      dailyReport: false,
    });
    for (const absent of ['settle', 'inquiry', 'refund', 'report'])
      assert.equal(operations.has(absent), false, `the corpus shows no ${absent}: the capabilities may not claim one`);
  });
});

describe("SEP's conformance corpus", () => {
  it('has the messages of every operation Dargah uses, each with its sources and disagreements', () => {
    const names = new Set(corpus.map((m) => m.name));
    for (const needed of [
      'token-request',
      'token-answer-ok',
      'token-answer-error',
      'page-redirect-get',
      'return-ok',
      'return-query',
      'return-canceled',
      'return-failed',
      'verify-request',
      'verify-answer-ok',
      'verify-answer-not-found',
      'reverse-request',
      'reverse-answer-ok',
      'reverse-answer-error',
    ]) {
      assert.ok(names.has(needed), needed);
    }
    for (const message of corpus) {
      assert.equal(message.psp, 'sep', message.name);
      assert.ok(message.disagreements.length > 0, `${message.name}: its disagreements, or 'None.'`);
      assert.ok(message.sources.length >= 1, message.name);
    }
  });

  it('shows SEP as the references do: a Base64-like RefNum, no Token on the form return, no ResNum in the verify answer', () => {
    assert.match(ok.RefNum!, /^[A-Za-z0-9+/]{40,60}$/);
    assert.equal(Object.hasOwn(ok, 'Token'), false);
    const detail = (corpusMessage('sep', 'verify-answer-ok').message as { TransactionDetail: object })
      .TransactionDetail;
    assert.equal(Object.hasOwn(detail, 'ResNum'), false);
    assert.equal(Object.hasOwn(corpusFields(corpusMessage('sep', 'return-canceled')), 'RefNum'), false);
  });
});
