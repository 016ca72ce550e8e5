/**
 * The SEP simulator (src/bank-sim, SEP's protocol) held against SEP's conformance corpus
 * (test/fixtures/psps/sep/), run in-process: it takes every request the corpus shows, as each
 * reference sends it (JSON, camelCase names, a form body, TerminalNumber as a string), and answers
 * with the field names, types and value shapes of the corpus's answers and returns. It answers
 * none of the calls SEP does not have, gives back a payment nobody verifies after SEP's own time
 * (-6), and refuses a reversal after SEP's window.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulator, type SimulatorOptions } from '../../../../src/bank-sim/server.ts';
import { corpusFields, corpusMessage, type CorpusMessage } from '../../../support/psp-corpus.ts';

const tokenRequest = corpusMessage('sep', 'token-request').message as Record<string, unknown>;
const TERMINAL = String(tokenRequest.TerminalId);
const REDIRECT = new URL(String(tokenRequest.RedirectUrl));
const VERIFY = corpusMessage('sep', 'verify-request').http.path;
const REVERSE = corpusMessage('sep', 'reverse-request').http.path;

const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** `actual` has `expected`'s field names and each field's JSON type, nested objects too; `subset`: only names the corpus shows. */
function sameShape(
  actual: unknown,
  expected: CorpusMessage,
  subset = false,
  at = expected.name,
  shown: unknown = expected.message,
): void {
  assert.equal(kind(actual), kind(shown), `${at}: a ${kind(shown)}`);
  if (kind(shown) !== 'object') return;
  const a = actual as Record<string, unknown>;
  const e = shown as Record<string, unknown>;
  if (subset)
    for (const name of Object.keys(a)) assert.ok(Object.hasOwn(e, name), `${at}: ${name} is in no corpus message`);
  else assert.deepEqual(Object.keys(a).sort(), Object.keys(e).sort(), `${at}: the corpus's field names`);
  for (const name of Object.keys(a))
    if (Object.hasOwn(e, name)) sameShape(a[name], expected, subset, `${at}.${name}`, e[name]);
}

/** The return form the simulator's page shows the customer: its hidden fields. */
const returnFields = (html: string): Record<string, string> =>
  Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
      m[1]!,
      m[2]!.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c))),
    ]),
  );

/** The value shapes of SEP's return (the corpus's return-ok.json and its sources). */
const RETURN_SHAPES: Record<string, RegExp> = {
  RefNum: /^[A-Za-z0-9+/]{50}$/,
  RRN: /^[0-9]{12}$/,
  TraceNo: /^[0-9]{6}$/,
  Status: /^[0-9]$/,
  MID: /^[0-9]+$/,
  TerminalId: /^[0-9]+$/,
  Amount: /^[0-9]+$/,
  SecurePan: /^[0-9]{6}\*+[0-9]{4}$/,
  HashedCardNumber: /^[0-9a-f]{64}$/,
};

describe('SEP simulator: the shapes of the corpus', function () {
  this.timeout(30_000);
  const dirs: string[] = [];
  const servers: { close: () => void }[] = [];

  /** A simulator of the corpus's terminal, listening on loopback. */
  async function simulator(extra: Partial<SimulatorOptions> = {}): Promise<string> {
    const dir = mkdtempSync(join(tmpdir(), 'sep-shape-'));
    dirs.push(dir);
    const { server } = createSimulator({
      protocol: 'sep',
      stateFile: join(dir, 'ledger.jsonl'),
      terminalId: TERMINAL,
      password: '',
      redirectOrigins: [REDIRECT.origin],
      delaySeconds: 0,
      ...extra,
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  after(() => {
    for (const server of servers) server.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const postJson = async (base: string, path: string, body: unknown) =>
    (
      await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    ).json();
  const postForm = async (base: string, path: string, fields: Record<string, string>) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });

  /** A payment the customer finishes with `outcome` on the simulator's page: its token and the return fields. */
  async function paid(
    base: string,
    outcome: 'success' | 'cancel' | 'failure',
    resNum: string,
  ): Promise<{ token: string; fields: Record<string, string> }> {
    const answer = (await postJson(base, '/onlinepg/onlinepg', { ...tokenRequest, ResNum: resNum })) as {
      token: string;
    };
    const page = await fetch(`${base}/OnlinePG/SendToken?token=${answer.token}`);
    assert.equal(page.status, 200);
    const chosen = await postForm(base, '/OnlinePG/pay', { token: answer.token, outcome });
    return { token: answer.token, fields: returnFields(await chosen.text()) };
  }

  it("answers the corpus's token request as the corpus's token answers, and the corpus's errors", async () => {
    const base = await simulator();
    sameShape(await postJson(base, '/onlinepg/onlinepg', tokenRequest), corpusMessage('sep', 'token-answer-ok'));
    // Parbad's camelCase names and 'Action' in another case are the same request.
    const camel = Object.fromEntries(
      Object.entries({ ...tokenRequest, ResNum: 'camel-case-res-num' }).map(([k, v]) => [
        k[0]!.toLowerCase() + k.slice(1),
        v,
      ]),
    );
    sameShape(await postJson(base, '/onlinepg/onlinepg', camel), corpusMessage('sep', 'token-answer-ok'));
    sameShape(
      await postJson(base, '/onlinepg/onlinepg', { ...tokenRequest, TerminalId: '99999999' }),
      corpusMessage('sep', 'token-answer-error'),
    );
  });

  it("returns a paid customer with the corpus's form: its field names, a Base64-like RefNum, a 12-digit RRN, no Token", async () => {
    const base = await simulator();
    const { fields } = await paid(base, 'success', 'paid-shape');
    const ok = corpusMessage('sep', 'return-ok');
    assert.deepEqual(Object.keys(fields).sort(), Object.keys(corpusFields(ok)).sort());
    for (const [name, shape] of Object.entries(RETURN_SHAPES)) assert.match(fields[name] ?? '', shape, name);
    assert.equal(fields.State, 'OK');
    assert.equal(fields.ResNum, 'paid-shape');
  });

  it('returns a customer who canceled or failed with the fields of the corpus’s cancel and failure returns, no RefNum', async () => {
    const base = await simulator();
    const union = {
      ...corpusFields(corpusMessage('sep', 'return-canceled')),
      ...corpusFields(corpusMessage('sep', 'return-failed')),
    };
    for (const [outcome, state] of [
      ['cancel', 'CanceledByUser'],
      ['failure', 'Failed'],
    ] as const) {
      const { fields } = await paid(base, outcome, `${outcome}-shape`);
      for (const name of Object.keys(fields))
        assert.ok(Object.hasOwn(union, name), `${outcome}: ${name} is in no corpus return`);
      assert.equal(fields.State, state);
      assert.equal(fields.RefNum ?? '', '');
    }
  });

  it("answers the corpus's verify and reverse requests, as each reference sends them, with the corpus's answers", async () => {
    const base = await simulator();
    const first = await paid(base, 'success', 'verify-json');
    const verify = { ...(corpusMessage('sep', 'verify-request').message as object), RefNum: first.fields.RefNum };
    const verified = (await postJson(base, VERIFY, verify)) as {
      TransactionDetail: Record<string, unknown>;
      ResultCode: number;
    };
    sameShape(verified, corpusMessage('sep', 'verify-answer-ok'));
    assert.equal(verified.ResultCode, 0);
    assert.equal(
      Object.hasOwn(verified.TransactionDetail, 'ResNum'),
      false,
      'SEP names no ResNum in its verify answer',
    );
    assert.equal(verified.TransactionDetail.RefNum, first.fields.RefNum);
    // A repeat: SEP's "repeated request" (2), with no field the corpus does not show.
    const repeated = (await postJson(base, VERIFY, verify)) as { ResultCode: number };
    assert.equal(repeated.ResultCode, 2);
    sameShape(repeated, corpusMessage('sep', 'verify-answer-ok'), true);
    // Reversed, then verified again: "the transaction is reversed" (5), as the corpus's answer.
    sameShape(await postJson(base, REVERSE, verify), corpusMessage('sep', 'reverse-answer-ok'));
    sameShape(await postJson(base, VERIFY, verify), corpusMessage('sep', 'verify-answer-reversed'));

    // hossein-225's form body with TerminalNumber as a string; Parbad's camelCase names.
    const second = await paid(base, 'success', 'verify-form');
    const form = await postForm(base, VERIFY, { TerminalNumber: TERMINAL, RefNum: second.fields.RefNum! });
    sameShape(await form.json(), corpusMessage('sep', 'verify-answer-ok'));
    const third = await paid(base, 'success', 'verify-camel');
    sameShape(
      await postJson(base, VERIFY, { refNum: third.fields.RefNum, terminalNumber: TERMINAL }),
      corpusMessage('sep', 'verify-answer-ok'),
    );

    sameShape(
      await postJson(base, VERIFY, { ...verify, RefNum: 'AAAAunknownRefNumAAAA' }),
      corpusMessage('sep', 'verify-answer-not-found'),
    );
    sameShape(
      await postJson(base, REVERSE, { ...verify, RefNum: 'AAAAunknownRefNumAAAA' }),
      corpusMessage('sep', 'reverse-answer-error'),
    );
  });

  it('answers 404 to every call SEP does not have', async () => {
    const base = await simulator();
    for (const call of ['SettleTransaction', 'InquiryTransaction', 'RefundTransaction', 'TransactionReport']) {
      const res = await fetch(`${base}/verifyTxnRandomSessionkey/ipg/${call}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ RefNum: 'x', ResNum: 'x', TerminalNumber: Number(TERMINAL) }),
      });
      assert.equal(res.status, 404, call);
    }
  });

  it("gives back by itself a payment nobody verified in SEP's time: a late verify answers -6, as the corpus's", async () => {
    const base = await simulator({ autoReverseSeconds: 1 });
    const { fields } = await paid(base, 'success', 'never-verified');
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    const late = (await postJson(base, VERIFY, { RefNum: fields.RefNum, TerminalNumber: Number(TERMINAL) })) as {
      ResultCode: number;
    };
    sameShape(late, corpusMessage('sep', 'verify-answer-late'));
    assert.equal(late.ResultCode, -6);
  });

  it("refuses a reversal after SEP's window from the verify", async () => {
    const base = await simulator({ reversalWindowSeconds: 1 });
    const { fields } = await paid(base, 'success', 'reversed-late');
    const body = { RefNum: fields.RefNum, TerminalNumber: Number(TERMINAL) };
    assert.equal(((await postJson(base, VERIFY, body)) as { ResultCode: number }).ResultCode, 0);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const late = (await postJson(base, REVERSE, body)) as { ResultCode: number };
    assert.equal(late.ResultCode, -6);
    sameShape(late, corpusMessage('sep', 'reverse-answer-error'));
  });
});
