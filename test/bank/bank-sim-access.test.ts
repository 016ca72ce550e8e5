/**
 * The bank simulator's doors (docs/SECURITY.md, "Threats and their tests"), against its own
 * process: the admin endpoints (fault switches, listings) answer only with the admin token, the
 * terminal's password is checked on every server-to-server call as a PSP checks it, and a
 * token's RedirectUrl must be one of the gateway's origins, so neither the bank's page nor
 * `callback_repeat` can be pointed at another address of the network.
 */
import assert from 'node:assert/strict';
import { BankRefusalError } from '../../src/adapters/psp/psp-client.ts';
import { SepClient } from '../../src/adapters/psp/sep/client.ts';
import { OwnSimulator } from '../support/bank.ts';

const TERMINAL = '11223344';
const PASSWORD = 'terminal-password-for-this-test';
const ADMIN_TOKEN = 'admin-token-for-this-test-only';
const GATEWAY = 'http://127.0.0.1:3999';

describe('the bank simulator: admin token, terminal password, registered redirect origins', function () {
  this.timeout(60_000);
  const bank = new OwnSimulator({ BANK_SIM_PASSWORD: PASSWORD, BANK_SIM_ADMIN_TOKEN: ADMIN_TOKEN, BANK_SIM_REDIRECT_ORIGINS: `${GATEWAY},http://localhost:*` });
  const sep = (password: string) => new SepClient({ baseUrl: bank.url, terminalId: TERMINAL, password, timeoutMs: 5_000 });

  before(() => bank.start());
  after(() => bank.stop());

  it('the admin endpoints need the admin token: without it, or with another, they do not exist', async () => {
    const attempts: Record<string, string>[] = [{}, { authorization: 'Bearer not-the-token' }, { authorization: ADMIN_TOKEN }];
    for (const headers of attempts) {
      assert.equal((await fetch(`${bank.url}/admin/transactions?res_num=x`, { headers })).status, 404);
      assert.equal((await fetch(`${bank.url}/admin/transfers`, { headers })).status, 404);
      const switched = await fetch(`${bank.url}/admin/faults`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ callback_repeat: 3 }) });
      assert.equal(switched.status, 404, 'no fault switched');
      assert.equal((await fetch(`${bank.url}/admin/faults`, { method: 'DELETE', headers })).status, 404);
    }
    const authorized = await fetch(`${bank.url}/admin/transactions?res_num=x`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    assert.equal(authorized.status, 200);
    assert.deepEqual(await authorized.json(), { transactions: [], operations: [] });
  });

  it("the terminal's password is checked on the token and on every verify-family call", async () => {
    const paymentId = `pay_ok_${Date.now()}`;
    for (const password of ['', 'wrong password']) {
      await assert.rejects(sep(password).requestToken(paymentId, 10_000, `${GATEWAY}/pay/x/return`), (e: unknown) => e instanceof BankRefusalError && e.code === 12);
    }
    const token = await sep(PASSWORD).requestToken(paymentId, 10_000, `${GATEWAY}/pay/x/return`);
    assert.equal((await sep(PASSWORD).inquire(paymentId)).standing, 'open', 'a token, no choice yet');
    // The customer pays on the bank's page; its form back to the gateway carries the reference.
    const page = await fetch(`${bank.url}/OnlinePG/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: token.token, outcome: 'success' }).toString(),
    });
    const refNum = /name="RefNum" value="([^"]+)"/.exec(await page.text())![1]!;
    for (const password of ['', 'wrong password']) {
      assert.equal((await sep(password).confirm(paymentId, refNum)).result, 'refused', `confirm with ${JSON.stringify(password)}`);
      await assert.rejects(sep(password).settle(paymentId, refNum), BankRefusalError);
      assert.equal((await sep(password).inquire(paymentId)).standing, 'open', `inquiry with ${JSON.stringify(password)}: the bank tells nothing`);
    }
    assert.equal((await sep(PASSWORD).inquire(paymentId)).standing, 'succeeded');
    const confirmed = await sep(PASSWORD).confirm(paymentId, refNum);
    assert.deepEqual([confirmed.result, confirmed.result === 'confirmed' && confirmed.amount], ['confirmed', 10_000]);
  });

  it("the inquiry answers the customer's choice by ResNum, and nothing for a payment the bank does not know", async () => {
    for (const [outcome, standing] of [['failure', 'failed'], ['cancel', 'canceled']] as const) {
      const paymentId = `pay_${outcome}_${Date.now()}`;
      const token = await sep(PASSWORD).requestToken(paymentId, 10_000, `${GATEWAY}/pay/x/return`);
      const chosen = await fetch(`${bank.url}/OnlinePG/pay`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: token.token, outcome }).toString(),
      });
      assert.equal(chosen.status, 200);
      assert.equal((await sep(PASSWORD).inquire(paymentId)).standing, standing, outcome);
    }
    assert.equal((await sep(PASSWORD).inquire(`pay_never_${Date.now()}`)).standing, 'open');
  });

  it("a RedirectUrl outside the gateway's origins is refused: the bank posts to no other address", async () => {
    for (const redirect of ['http://10.0.0.5:5432/', 'http://127.0.0.1:3306/', 'http://127.0.0.1:4000/pay/x/return', 'https://127.0.0.1:3999/pay/x/return', 'http://mysql:3306/']) {
      await assert.rejects(sep(PASSWORD).requestToken(`pay_redirect_${Date.now()}`, 10_000, redirect), (e: unknown) => e instanceof BankRefusalError && e.code === 6, redirect);
    }
    // Any port of an origin registered as host:* (a developer's local API).
    assert.ok((await sep(PASSWORD).requestToken(`pay_local_${Date.now()}`, 10_000, 'http://localhost:41234/pay/x/return')).token);
  });
});
