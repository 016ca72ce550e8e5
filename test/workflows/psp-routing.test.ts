/**
 * The payment workflow's PSP failover (docs/psps/routing.md) on a real Temporal dev server with
 * fake activities: the token is asked of the route's PSPs in turn, the one that gives it is recorded
 * before the customer is answered, and every later bank call names it.
 */
import assert from 'node:assert/strict';
import { ApplicationFailure } from '@temporalio/common';
import { bankTokenUpdate, paymentQuery } from '../../src/domain/payment-workflow.ts';
import { prepareWorkflowTests, withWorker } from '../support/workflows/environment.ts';
import { FakeActivities, healthy } from '../support/workflows/fakes.ts';
import { paymentIn, pay, refusedWith, startPayment } from '../support/workflows/payments.ts';

const ROUTE = [
  { psp: 'sep', terminal_id: '11223344', breaker: 'closed' },
  { psp: 'mellat', terminal_id: '55667788', breaker: 'closed' },
] as const;
const redirect = { redirect_url: 'http://127.0.0.1/pay/x/return' };

describe('the payment workflow: PSP routing and failover', () => {
  before(async function () {
    this.timeout(600_000);
    await prepareWorkflowTests();
  });

  it('a PSP that does not answer (two attempts) is left for the next; the one that gives the token is recorded first and asked everything after', async () => {
    const fakes = new FakeActivities()
      .on('planPaymentRoute', async () => [...ROUTE])
      .on('requestBankToken', async (input, call) => {
        if (input.psp === 'sep') throw new Error(`sep does not answer (call ${call})`);
        return { ...(await healthy('requestBankToken')(input, call)), psp: 'mellat', terminal_id: '55667788' };
      });
    await withWorker(fakes.activities, async ({ client, taskQueue }) => {
      const { handle } = await startPayment(client, taskQueue);
      const token = await handle.executeUpdate(bankTokenUpdate, { args: [redirect] });
      assert.match(token.url, /SendToken/);
      assert.deepEqual(
        fakes.calls('requestBankToken').map((c) => [c.psp, c.attempt]),
        [
          ['sep', 0],
          ['sep', 0],
          ['mellat', 1],
        ],
      );
      assert.deepEqual(
        fakes.calls('recordPaymentPsp').map((c) => [c.psp, c.terminal_id]),
        [['mellat', '55667788']],
      );
      const names = fakes.log.map((c) => c.name);
      assert.ok(
        names.indexOf('recordPaymentPsp') > names.lastIndexOf('requestBankToken'),
        'recorded after the token, before the answer',
      );
      // A repeated Pay answers the same token: no PSP is asked again.
      assert.deepEqual(await handle.executeUpdate(bankTokenUpdate, { args: [redirect] }), token);
      assert.equal(fakes.calls('requestBankToken').length, 3);
      await pay(handle, 'success');
      const paid = await paymentIn(handle, 'paid');
      assert.deepEqual(paid.psp, { name: 'mellat', terminal_id: '55667788' });
      assert.deepEqual(
        fakes.calls('confirmAtBank').map((c) => c.psp),
        ['mellat'],
      );
      const { searchAttributes } = await handle.describe();
      assert.deepEqual([searchAttributes.PaymentPsp, searchAttributes.PaymentPspTerminal], [['mellat'], ['55667788']]);
    });
  });

  it('a PSP skipped by its open breaker or refusing is asked once; when no PSP gives a token the customer is refused with bank_unavailable and may try again', async () => {
    let mellatUp = false;
    const fakes = new FakeActivities()
      .on('planPaymentRoute', async () => [...ROUTE])
      .on('requestBankToken', async (input, call) => {
        if (input.psp === 'sep')
          throw ApplicationFailure.create({ type: 'psp_unavailable', message: 'breaker open', nonRetryable: true });
        if (!mellatUp)
          throw ApplicationFailure.create({ type: 'bank_refused', message: 'refused (5)', nonRetryable: true });
        return { ...(await healthy('requestBankToken')(input, call)), psp: 'mellat', terminal_id: '55667788' };
      });
    await withWorker(fakes.activities, async ({ client, taskQueue }) => {
      const { handle } = await startPayment(client, taskQueue);
      const message = await refusedWith(
        handle.executeUpdate(bankTokenUpdate, { args: [redirect] }),
        'bank_unavailable',
      );
      assert.match(message, /No bank/);
      assert.deepEqual(
        fakes.calls('requestBankToken').map((c) => c.psp),
        ['sep', 'mellat'],
      );
      assert.deepEqual(fakes.calls('recordPaymentPsp'), []);
      assert.equal((await handle.query(paymentQuery)).status, 'created', 'still payable');
      mellatUp = true;
      await handle.executeUpdate(bankTokenUpdate, { args: [redirect] });
      assert.deepEqual(fakes.calls('planPaymentRoute').length, 2, 'the route is planned again for the new try');
      assert.deepEqual(
        fakes.calls('recordPaymentPsp').map((c) => c.psp),
        ['mellat'],
      );
    });
  });
});
