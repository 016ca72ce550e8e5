/**
 * A payment routed to Mellat, end to end through the gateway (docs/psps/mellat.md,
 * docs/psps/routing.md): the operator routes a merchant's test payments to `mellat` with the CLI;
 * the customer's Pay answers our page with a form that POSTs RefId to the Mellat simulator's page
 * (its own process, BANK_SIM_PROTOCOL=mellat); the simulator's form back to our return route is
 * read by Mellat's connector; the workflow verifies (bpVerifyRequest) and, at the merchant's verify,
 * settles (bpSettleRequest) at Mellat alone: nothing reaches the SEP simulator.
 */
import assert from 'node:assert/strict';
import { chooseOnSimulator } from '../../../src/adapters/bank-customer.ts';
import { mellatOrderId } from '../../../src/psps/mellat/mapping.ts';
import type { Payment } from '../../../src/domain/payment-schemas.ts';
import { paymentWorkflowId } from '../../../src/domain/payment-workflow.ts';
import { bankAdmin, bankOperations, mellatSimulatorUrl } from '../../support/bank.ts';
import { cli } from '../../support/cli.ts';
import { getHarness, newMerchant } from '../../support/harness.ts';
import { request } from '../../support/http.ts';
import { bankRedirectForm, createdPayment, pressPay, waitForStatus } from '../../support/payments.ts';

describe('a payment routed to Mellat, through the gateway', function () {
  this.timeout(60_000);

  it('the route sends it to Mellat: a form POST to its page, its callback read by its connector, verified and settled there once', async () => {
    const h = await getHarness();
    const { key, merchantId } = await newMerchant();
    const set = await cli('routing', 'set', '--merchant', merchantId, '--mode', 'test', '--psps', 'mellat');
    assert.equal(set.code, 0, set.stderr);
    const created = await createdPayment(h.baseUrl, key, { amount: 125_000 });

    // Pay: our page with a form to the Mellat page, RefId in it (a POST, so no 303 with the token in its address).
    const pay = await pressPay(h.baseUrl, created.id);
    assert.equal(pay.status, 200);
    const form = bankRedirectForm(await pay.text());
    assert.ok(
      form !== undefined && form.url.endsWith('/pgwchannel/startpay.mellat'),
      `the form posts to Mellat's page: ${form?.url}`,
    );
    assert.match(form.fields.RefId ?? '', /^[0-9A-Za-z]+$/);

    // At Mellat's page the customer pays; the page's form comes back to our return route.
    const back = await chooseOnSimulator(mellatSimulatorUrl(), form, 'success', 5_000);
    assert.equal(back.SaleOrderId, mellatOrderId(created.id));
    const returned = await fetch(`${h.baseUrl}/pay/${created.id}/return`, {
      method: 'POST',
      body: new URLSearchParams(back).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      redirect: 'manual',
    });
    assert.equal(returned.status, 303);

    const paid = await waitForStatus(h.baseUrl, key, created.id, 'paid');
    assert.deepEqual(paid.psp, { name: 'mellat', terminal_id: h.config.SANDBOX_MELLAT_TERMINAL_ID });
    assert.equal(paid.reference_id, back.SaleReferenceId);
    // Behpardakht's verify answers the code alone: the payment records no RRN and no card, none made up.
    assert.deepEqual([paid.amount, paid.rrn, paid.card_pan], [125_000, null, null]);

    const verified = await request<{ payment: Payment }>(h.baseUrl, 'POST', `/api/v1/payments/${created.id}/verify`, {
      key,
      body: { amount: 125_000 },
    });
    assert.equal(verified.status, 200, verified.text);
    assert.equal(verified.body.payment.status, 'verified');

    // Mellat did it, once each; SEP's simulator never heard of the payment.
    const atMellat = await bankAdmin<{ operations: { kind: string }[] }>(
      `/admin/transactions?res_num=${mellatOrderId(created.id)}`,
      mellatSimulatorUrl(),
    );
    const moved = atMellat.operations.map((op) => op.kind).filter((kind) => kind !== 'token');
    assert.deepEqual(moved.sort(), ['confirm', 'settle']);
    assert.deepEqual(await bankOperations(created.id), []);

    // Operators find it by PSP in Temporal.
    const description = await h.temporal.client.workflow.getHandle(paymentWorkflowId(created.id)).describe();
    assert.deepEqual(description.searchAttributes.PaymentPsp, ['mellat']);
  });
});
