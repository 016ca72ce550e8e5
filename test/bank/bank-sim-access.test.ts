/**
 * The bank simulator's doors (docs/SECURITY.md, "Threats and their tests"), against its own
 * process: the admin endpoints (fault switches, listings) answer only with the admin token, the
 * terminal's password is checked on every server-to-server call as a PSP checks it, the calls SEP
 * does not have are not there (docs/psps/sep.md), and a
 * token's RedirectUrl must be one of the gateway's origins, so neither the bank's page nor
 * `callback_repeat` can be pointed at another address of the network.
 */
import assert from 'node:assert/strict';
import { BankRefusalError } from '../../src/psps/psp-client.ts';
import { SepClient } from '../../src/psps/sep/client.ts';
import { OwnSimulator } from '../support/bank.ts';

const TERMINAL = '11223344';
const PASSWORD = 'terminal-password-for-this-test';
const ADMIN_TOKEN = 'admin-token-for-this-test-only';
const GATEWAY = 'http://127.0.0.1:3999';

describe('the bank simulator: admin token, terminal password, registered redirect origins', function () {
  this.timeout(60_000);
  const bank = new OwnSimulator({
    BANK_SIM_PASSWORD: PASSWORD,
    BANK_SIM_ADMIN_TOKEN: ADMIN_TOKEN,
    BANK_SIM_REDIRECT_ORIGINS: `${GATEWAY},http://localhost:*`,
  });
  const sep = (password: string) =>
    new SepClient({ baseUrl: bank.url, terminalId: TERMINAL, password, timeoutMs: 5_000 });

  before(() => bank.start());
  after(() => bank.stop());

  it('the admin endpoints need the admin token: without it, or with another, they do not exist', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer not-the-token' },
      { authorization: ADMIN_TOKEN },
    ];
    for (const headers of attempts) {
      assert.equal((await fetch(`${bank.url}/admin/transactions?res_num=x`, { headers })).status, 404);
      assert.equal((await fetch(`${bank.url}/admin/transfers`, { headers })).status, 404);
      const switched = await fetch(`${bank.url}/admin/faults`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ callback_repeat: 3 }),
      });
      assert.equal(switched.status, 404, 'no fault switched');
      assert.equal((await fetch(`${bank.url}/admin/faults`, { method: 'DELETE', headers })).status, 404);
    }
    const authorized = await fetch(`${bank.url}/admin/transactions?res_num=x`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    assert.equal(authorized.status, 200);
    assert.deepEqual(await authorized.json(), { transactions: [], operations: [] });
  });

  it("the terminal's password is checked on the token and on every verify-family call", async () => {
    const paymentId = `pay_ok_${Date.now()}`;
    for (const password of ['', 'wrong password']) {
      await assert.rejects(
        sep(password).requestToken(paymentId, 10_000, `${GATEWAY}/pay/x/return`),
        (e: unknown) => e instanceof BankRefusalError && e.code === 12,
      );
    }
    const token = await sep(PASSWORD).requestToken(paymentId, 10_000, `${GATEWAY}/pay/x/return`);
    // The customer pays on the bank's page; its form back to the gateway carries the reference.
    const page = await fetch(`${bank.url}/OnlinePG/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: token.token, outcome: 'success' }).toString(),
    });
    const refNum = /name="RefNum" value="([^"]+)"/.exec(await page.text())![1]!;
    for (const password of ['', 'wrong password']) {
      assert.equal(
        (await sep(password).confirm(paymentId, refNum)).result,
        'refused',
        `confirm with ${JSON.stringify(password)}`,
      );
      await assert.rejects(
        sep(password).reverse(paymentId, refNum),
        BankRefusalError,
        `reverse with ${JSON.stringify(password)}`,
      );
    }
    const confirmed = await sep(PASSWORD).confirm(paymentId, refNum);
    assert.deepEqual([confirmed.result, confirmed.result === 'confirmed' && confirmed.amount], ['confirmed', 10_000]);
  });

  it('answers none of the calls SEP does not have (settle, inquiry, refund, report): SEP would answer them 404', async () => {
    for (const call of ['SettleTransaction', 'InquiryTransaction', 'RefundTransaction', 'TransactionReport']) {
      const res = await fetch(`${bank.url}/verifyTxnRandomSessionkey/ipg/${call}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ RefNum: 'x', ResNum: 'x', TerminalNumber: Number(TERMINAL), Password: PASSWORD }),
      });
      assert.equal(res.status, 404, call);
    }
  });

  it("a RedirectUrl outside the gateway's origins is refused: the bank posts to no other address", async () => {
    for (const redirect of [
      'http://10.0.0.5:5432/',
      'http://127.0.0.1:3306/',
      'http://127.0.0.1:4000/pay/x/return',
      'https://127.0.0.1:3999/pay/x/return',
      'http://mysql:3306/',
    ]) {
      await assert.rejects(
        sep(PASSWORD).requestToken(`pay_redirect_${Date.now()}`, 10_000, redirect),
        (e: unknown) => e instanceof BankRefusalError && e.code === 8,
        redirect,
      );
    }
    // Any port of an origin registered as host:* (a developer's local API).
    assert.ok(
      (await sep(PASSWORD).requestToken(`pay_local_${Date.now()}`, 10_000, 'http://localhost:41234/pay/x/return'))
        .token,
    );
  });
});
