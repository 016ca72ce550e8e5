/**
 * A forged "failed" or "canceled" return (docs/SECURITY.md, "Threats and their tests"): the
 * return route takes no CSRF token, and the bank token it checks is in the bank page's address
 * that anyone with the payment's URL gets from its Pay button. Where the PSP answers an inquiry
 * (Behpardakht's bpInquiryRequest), the workflow records such a return only on the PSP's own
 * answer: a payment the customer has not finished stays `created`, and the customer can still pay.
 * SEP has no inquiry (docs/BANK.md#a-failed-or-canceled-return): a return of the payment's own bank
 * session (its signed return address, or its token) is recorded as it says, and whoever forged it only
 * ends a payment whose page they hold; a customer who pays after it is never charged for good: that
 * late sale is confirmed and reversed at once. A return with neither ends nothing
 * (test/payments/stranger-return.test.ts). Against the real stack: the API, the worker, the bank
 * simulators' processes.
 */
import assert from 'node:assert/strict';
import { getHarness, newMerchant, type Harness } from '../support/harness.ts';
import {
  bankPageOf,
  bankRedirectForm,
  chooseOutcome,
  createdPayment,
  forgeBankReturn,
  pressPay,
  returnsAnswered,
  waitForStatus,
  walkBankPage,
  walkPostedBankPage,
} from '../support/payments.ts';
import { bankOperations } from '../support/bank.ts';
import { cli } from '../support/cli.ts';
import { request, waitFor } from '../support/http.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import { mellatOrderId } from '../../src/psps/mellat/mapping.ts';

describe('a forged failed or canceled return: on the bank’s word where it answers an inquiry, else only from its own bank session', function () {
  this.timeout(120_000);
  let h: Harness;
  let key: string;

  const statusOf = async (id: string, as = key) =>
    (await request<{ payment: Payment }>(h.baseUrl, 'GET', `/api/v1/payments/${id}`, { key: as })).body.payment;
  /** Forges `state`'s return and waits until the workflow has answered it (under its lock, before any later return). */
  const forgedAndAnswered = async (p: Payment, bankPage: string, state: 'Failed' | 'CanceledByUser') => {
    const res = await forgeBankReturn(h.baseUrl, p.id, bankPage, state);
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), `/pay/${p.id}/result`);
    await waitFor(`the workflow to answer the forged return of ${p.id}`, async () =>
      (await returnsAnswered(h.temporal.client, p.id)) >= 1 ? true : undefined,
    );
  };

  before(async () => {
    h = await getHarness();
    ({ key } = await newMerchant());
  });

  for (const [state, status, code] of [
    ['Failed', 'failed', 'card_declined'],
    ['CanceledByUser', 'canceled', 'canceled_by_customer'],
  ] as const) {
    it(`SEP, no inquiry: a ${state} return with the payment's bank token is recorded ${status} without asking SEP; the customer's later payment is confirmed and reversed at once`, async () => {
      const p = await createdPayment(h.baseUrl, key);
      const bankPage = await bankPageOf(h.baseUrl, p.id);
      await forgedAndAnswered(p, bankPage, state);
      const after = await statusOf(p.id);
      assert.equal(after.status, status);
      assert.equal(after.failure?.code, code);
      // The payment's workflow ended with it: the customer's late return pays nothing, and its sale is
      // confirmed and reversed at SEP at once (docs/BANK.md#a-paid-return-for-an-ended-payment).
      assert.equal((await walkBankPage(bankPage, 'success')).status, 303);
      const kinds = await waitFor(`SEP to reverse the late sale of ${p.id}`, async () => {
        const done = (await bankOperations(p.id)).map((o) => o.kind).filter((k) => k !== 'token');
        return done.includes('reverse') ? done : undefined;
      });
      assert.deepEqual(kinds, ['confirm', 'reverse'], 'no inquiry; the late sale confirmed, then reversed');
      assert.equal((await statusOf(p.id)).status, status, 'a payment that ended is never paid');
    });
  }

  it('SEP: a Failed return with another bank token changes nothing, and the customer then pays', async () => {
    const p = await createdPayment(h.baseUrl, key);
    const bankPage = await bankPageOf(h.baseUrl, p.id);
    const forgedPage = new URL(bankPage);
    const token = forgedPage.searchParams.get('token') ?? '';
    // Another token of the same shape: one character changed.
    forgedPage.searchParams.set('token', `${token.slice(0, -1)}${token.endsWith('a') ? 'b' : 'a'}`);
    const res = await forgeBankReturn(h.baseUrl, p.id, forgedPage.toString(), 'Failed');
    assert.equal(res.status, 303);
    await waitFor(`the workflow to answer the forged return of ${p.id}`, async () =>
      (await returnsAnswered(h.temporal.client, p.id)) >= 1 ? true : undefined,
    );
    assert.equal((await statusOf(p.id)).status, 'created', "not this payment's bank session");
    assert.equal((await walkBankPage(bankPage, 'success')).status, 303);
    await waitForStatus(h.baseUrl, key, p.id, 'paid');
  });

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
    const mellatFields = (id: string, amount: number) => ({
      RefId: 'F0F0F0F0F0F0F0F0',
      ResCode: '0',
      SaleOrderId: mellatOrderId(id),
      SaleReferenceId: '123456789012',
      CardHolderPan: '610433******1234',
      FinalAmount: String(amount),
    });
    assert.equal(
      (await post(atSep.id, mellatFields(atSep.id, atSep.amount))).status,
      400,
      "SEP's connector reads a SEP payment's return",
    );

    // A payment of a merchant the operator routed to Mellat.
    const routed = await newMerchant();
    const set = await cli('routing', 'set', '--merchant', routed.merchantId, '--mode', 'test', '--psps', 'mellat');
    assert.equal(set.code, 0, set.stderr);
    const p = await createdPayment(h.baseUrl, routed.key);
    const pay = await pressPay(h.baseUrl, p.id);
    const form = bankRedirectForm(await pay.text());
    assert.ok(form !== undefined, "Pay answers the form to Mellat's page");
    const forged = mellatFields(p.id, p.amount);
    assert.equal(
      (await post(p.id, { ...forged, SaleOrderId: '42' })).status,
      400,
      "another payment's order id is no return of this payment",
    );
    assert.equal((await post(p.id, forged)).status, 303);
    await waitFor(`the workflow to answer the forged return of ${p.id}`, async () =>
      (await returnsAnswered(h.temporal.client, p.id)) >= 1 ? true : undefined,
    );
    assert.equal(
      (await statusOf(p.id, routed.key)).status,
      'created',
      'not the token the bank gave this payment: nothing confirmed',
    );
    assert.equal((await walkPostedBankPage(h.baseUrl, p.id, form, 'success')).status, 303);
    assert.deepEqual((await waitForStatus(h.baseUrl, routed.key, p.id, 'paid')).psp?.name, 'mellat');
  });

  it('Mellat, with an inquiry: a forged canceled return naming a sale leaves the payment created (Behpardakht knows no such sale); the customer then pays it', async () => {
    const routed = await newMerchant();
    const set = await cli('routing', 'set', '--merchant', routed.merchantId, '--mode', 'test', '--psps', 'mellat');
    assert.equal(set.code, 0, set.stderr);
    const p = await createdPayment(h.baseUrl, routed.key);
    const form = bankRedirectForm(await (await pressPay(h.baseUrl, p.id)).text());
    assert.ok(form?.fields.RefId !== undefined, "Pay answers the form to Mellat's page, with its RefId");
    // A SaleReferenceId no sale has: the inquiry of that sale (bpInquiryRequest) answers 42, no such sale.
    const res = await fetch(`${h.baseUrl}/pay/${p.id}/return`, {
      method: 'POST',
      body: new URLSearchParams({
        RefId: form.fields.RefId,
        ResCode: '17',
        SaleOrderId: mellatOrderId(p.id),
        SaleReferenceId: '987654321012',
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://attacker.example' },
      redirect: 'manual',
    });
    assert.equal(res.status, 303);
    await waitFor(`the workflow to answer the forged return of ${p.id}`, async () =>
      (await returnsAnswered(h.temporal.client, p.id)) >= 1 ? true : undefined,
    );
    assert.equal(
      (await statusOf(p.id, routed.key)).status,
      'created',
      'Behpardakht knows no such sale: nothing recorded',
    );
    assert.equal((await walkPostedBankPage(h.baseUrl, p.id, form, 'success')).status, 303);
    await waitForStatus(h.baseUrl, routed.key, p.id, 'paid');
  });

  it("Mellat: a canceled return that names no sale (no SaleReferenceId, as Behpardakht's cancel posts) is recorded as it says: there is no sale to ask about", async () => {
    const routed = await newMerchant();
    const set = await cli('routing', 'set', '--merchant', routed.merchantId, '--mode', 'test', '--psps', 'mellat');
    assert.equal(set.code, 0, set.stderr);
    const p = await createdPayment(h.baseUrl, routed.key);
    const form = bankRedirectForm(await (await pressPay(h.baseUrl, p.id)).text());
    assert.ok(form?.fields.RefId !== undefined);
    const res = await fetch(`${h.baseUrl}/pay/${p.id}/return`, {
      method: 'POST',
      body: new URLSearchParams({
        RefId: form.fields.RefId,
        ResCode: '17',
        SaleOrderId: mellatOrderId(p.id),
        SaleReferenceId: '',
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      redirect: 'manual',
    });
    assert.equal(res.status, 303);
    const ended = await waitForStatus(h.baseUrl, routed.key, p.id, 'canceled');
    assert.equal(ended.failure?.code, 'canceled_by_customer');
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
