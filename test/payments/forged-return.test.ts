/**
 * A forged "failed" or "canceled" return (docs/SECURITY.md, "Threats and their tests"): the
 * return route takes no CSRF token, and the bank token it checks is in the bank page's address
 * that anyone with the payment's URL gets from its Pay button. The workflow records such a return
 * only on the bank's own answer to an inquiry; a payment the customer has not finished stays
 * `created`, and the customer can still pay or cancel it. Against the real stack: the API, the
 * worker, the bank simulator's process.
 */
import assert from 'node:assert/strict';
import { getHarness, newMerchant, type Harness } from '../support/harness.ts';
import { bankPageOf, bankRedirectForm, chooseOnBankPage, chooseOutcome, createdPayment, forgeBankReturn, postBankReturn, pressPay, returnsAnswered, waitForStatus, walkBankPage, walkPostedBankPage } from '../support/payments.ts';
import { cli } from '../support/cli.ts';
import { request, waitFor } from '../support/http.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import { mellatOrderId } from '../../src/adapters/psp/mellat/mapping.ts';

describe('a forged failed or canceled return is recorded only on the bank’s word', function () {
  this.timeout(120_000);
  let h: Harness;
  let key: string;

  const statusOf = async (id: string, as = key) => (await request<{ payment: Payment }>(h.baseUrl, 'GET', `/api/v1/payments/${id}`, { key: as })).body.payment;
  /** Forges `state`'s return and waits until the workflow has answered it (under its lock, before any later return). */
  const forgedAndAnswered = async (p: Payment, bankPage: string, state: 'Failed' | 'CanceledByUser') => {
    const res = await forgeBankReturn(h.baseUrl, p.id, bankPage, state);
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), `/pay/${p.id}/result`);
    await waitFor(`the workflow to answer the forged return of ${p.id}`, async () => ((await returnsAnswered(h.temporal.client, p.id)) >= 1 ? true : undefined));
  };

  before(async () => {
    h = await getHarness();
    ({ key } = await newMerchant());
  });

  for (const state of ['Failed', 'CanceledByUser'] as const) {
    it(`a forged ${state} return leaves an unfinished payment created; the customer then pays it`, async () => {
      const p = await createdPayment(h.baseUrl, key);
      const bankPage = await bankPageOf(h.baseUrl, p.id);
      await forgedAndAnswered(p, bankPage, state);
      const after = await statusOf(p.id);
      assert.equal(after.status, 'created', 'the bank says the payment is still open: nothing recorded');
      assert.equal(after.failure, null);
      // The customer's browser, sent to the result page, sees "processing" with the way back to pay.
      const result = await (await fetch(`${h.baseUrl}/pay/${p.id}/result?lang=en`)).text();
      assert.match(result, new RegExp(`href="/pay/${p.id}\\?lang=en"`));
      const back = await walkBankPage(bankPage, 'success');
      assert.equal(back.status, 303);
      const paid = await waitForStatus(h.baseUrl, key, p.id, 'paid');
      assert.equal(paid.failure, null);
    });
  }

  it("a return is read by the connector of the PSP that gave the token: Mellat's fields for a SEP payment, another payment's order or a RefId not the payment's token pay nothing", async () => {
    // A SEP payment: a post in Mellat's fields is no return of it.
    const atSep = await createdPayment(h.baseUrl, key);
    await bankPageOf(h.baseUrl, atSep.id);
    const post = (id: string, fields: Record<string, string>) =>
      fetch(`${h.baseUrl}/pay/${id}/return`, {
        method: 'POST',
        body: new URLSearchParams(fields).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://attacker.example' },
        redirect: 'manual',
      });
    const mellatFields = (id: string, amount: number) => ({ RefId: 'F0F0F0F0F0F0F0F0', ResCode: '0', SaleOrderId: mellatOrderId(id), SaleReferenceId: '123456789012', CardHolderPan: '610433******1234', FinalAmount: String(amount) });
    assert.equal((await post(atSep.id, mellatFields(atSep.id, atSep.amount))).status, 400, "SEP's connector reads a SEP payment's return");

    // A payment of a merchant the operator routed to Mellat.
    const routed = await newMerchant();
    const set = await cli('routing', 'set', '--merchant', routed.merchantId, '--mode', 'test', '--psps', 'mellat');
    assert.equal(set.code, 0, set.stderr);
    const p = await createdPayment(h.baseUrl, routed.key);
    const pay = await pressPay(h.baseUrl, p.id);
    const form = bankRedirectForm(await pay.text());
    assert.ok(form !== undefined, 'Pay answers the form to Mellat\'s page');
    const forged = mellatFields(p.id, p.amount);
    assert.equal((await post(p.id, { ...forged, SaleOrderId: '42' })).status, 400, "another payment's order id is no return of this payment");
    assert.equal((await post(p.id, forged)).status, 303);
    await waitFor(`the workflow to answer the forged return of ${p.id}`, async () => ((await returnsAnswered(h.temporal.client, p.id)) >= 1 ? true : undefined));
    assert.equal((await statusOf(p.id, routed.key)).status, 'created', 'not the token the bank gave this payment: nothing confirmed');
    assert.equal((await walkPostedBankPage(h.baseUrl, p.id, form, 'success')).status, 303);
    assert.deepEqual((await waitForStatus(h.baseUrl, routed.key, p.id, 'paid')).psp?.name, 'mellat');
  });

  it('a forged Failed return after the customer paid at the bank changes nothing: the genuine return pays', async () => {
    const p = await createdPayment(h.baseUrl, key);
    const bankPage = await bankPageOf(h.baseUrl, p.id);
    const genuine = await chooseOnBankPage(bankPage, 'success');
    await forgedAndAnswered(p, bankPage, 'Failed');
    assert.equal((await statusOf(p.id)).status, 'created', 'paid at the bank, but only a confirmed RefNum pays');
    assert.equal((await postBankReturn(genuine)).status, 303);
    await waitForStatus(h.baseUrl, key, p.id, 'paid');
  });

  it('a forged Failed return, then the customer cancels at the bank: canceled by the customer, as the bank says', async () => {
    const p = await createdPayment(h.baseUrl, key);
    const bankPage = await bankPageOf(h.baseUrl, p.id);
    await forgedAndAnswered(p, bankPage, 'Failed');
    assert.equal((await walkBankPage(bankPage, 'cancel')).status, 303);
    const canceled = await waitForStatus(h.baseUrl, key, p.id, 'canceled');
    assert.equal(canceled.failure?.code, 'canceled_by_customer');
  });

  for (const [outcome, status, code] of [
    ['failure', 'failed', 'card_declined'],
    ['cancel', 'canceled', 'canceled_by_customer'],
  ] as const) {
    it(`a genuine ${outcome} at the bank still ends the payment ${status}`, async () => {
      const p = await createdPayment(h.baseUrl, key);
      assert.equal((await chooseOutcome(h.baseUrl, p.id, outcome)).status, 303);
      const ended = await waitForStatus(h.baseUrl, key, p.id, status);
      assert.equal(ended.failure?.code, code);
    });
  }
});
