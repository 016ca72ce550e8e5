/**
 * The bank protocol against the real bank simulator process (the one `npm test` started, or
 * one of this file's own for the restart test): faults switched on at its admin endpoint,
 * forged and repeated callbacks, settlement and reversal failures. Money never moves twice:
 * the simulator's ledger counts every operation.
 */
import assert from 'node:assert/strict';
import { bankAdmin, bankFault, bankOperations, OwnSimulator } from '../support/bank.ts';
import { approveTypedIban, REFUND_IBAN, refundsAtBank, waitForRefund } from '../support/refunds.ts';
import { apiWith, getHarness, newMerchant, testConfig } from '../support/harness.ts';
import { client, waitFor } from '../support/http.ts';
import { chooseOutcome, createdPayment, paidPayment, waitForStatus } from '../support/payments.ts';
import { createPaymentWorker } from '../../src/main/payment-worker.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import type { Refund } from '../../src/domain/refund-schemas.ts';
import type { Config } from '../../src/config.ts';

/** Our payment page's Pay button (with its CSRF token): answers the bank page's address (with the token). */
async function payButton(baseUrl: string, paymentId: string): Promise<URL> {
  const page = await fetch(`${baseUrl}/pay/${paymentId}`);
  const cookie = page.headers.get('set-cookie')!.split(';')[0]!;
  const token = /name="csrf_token" value="([^"]+)"/.exec(await page.text())![1]!;
  const res = await fetch(`${baseUrl}/pay/${paymentId}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: baseUrl },
    body: new URLSearchParams({ action: 'pay', csrf_token: token }).toString(),
  });
  assert.equal(res.status, 303);
  return new URL(res.headers.get('location')!);
}

/** The customer's choice on the bank's page: answers the fields the bank posts back to us. */
async function chooseAtBank(bankPage: URL, outcome: string): Promise<Record<string, string>> {
  const res = await fetch(new URL('/OnlinePG/pay', bankPage.origin), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: bankPage.searchParams.get('token')!, outcome }).toString(),
  });
  const html = await res.text();
  return Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([A-Za-z]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!]),
  );
}

/** A post to our return route, as the bank's form (or a forger) sends it. */
async function callback(baseUrl: string, paymentId: string, fields: Record<string, string>): Promise<number> {
  const res = await fetch(`${baseUrl}/pay/${paymentId}/return`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://forger.example' },
    body: new URLSearchParams(fields).toString(),
  });
  return res.status;
}

async function versionOf(paymentId: string): Promise<{ status: string; version: number }> {
  const h = await getHarness();
  return h.db
    .selectFrom('payments')
    .select(['status', 'version'])
    .where('id', '=', paymentId)
    .executeTakeFirstOrThrow();
}

/** Waits a little for anything a callback could have started (the workflow answers in milliseconds). */
const settle = () => new Promise((r) => setTimeout(r, 1_500));

describe('the bank protocol against the bank simulator', function () {
  this.timeout(120_000);
  let key: string;
  let baseUrl: string;

  before(async () => {
    baseUrl = (await getHarness()).baseUrl;
    ({ key } = await newMerchant());
  });
  afterEach(() => bankFault(null));

  it('confirm times out (the bank did it, its answer is lost), then answers: paid once, confirmed once', async () => {
    const p = await createdPayment(baseUrl, key);
    await bankFault({ operation: 'confirm', fault: 'timeout', times: 1 });
    assert.equal((await chooseOutcome(baseUrl, p.id, 'success')).status, 303);
    const paid = await waitForStatus(baseUrl, key, p.id, 'paid', 30_000);
    assert.match(paid.rrn ?? '', /^[0-9]{12}$/);
    assert.match(paid.card_pan ?? '', /^603799\*+[0-9]{4}$/);
    assert.equal((await versionOf(p.id)).version, 2);
    assert.equal((await bankOperations(p.id, 'confirm')).length, 1);
  });

  it('confirm answers 5xx twice, then paid once', async () => {
    const p = await createdPayment(baseUrl, key);
    await bankFault({ operation: 'confirm', fault: 'error', times: 2 });
    await chooseOutcome(baseUrl, p.id, 'success');
    await waitForStatus(baseUrl, key, p.id, 'paid', 30_000);
    assert.equal((await bankOperations(p.id, 'confirm')).length, 1);
  });

  it("a forged callback never pays: an unknown reference, another payment's reference (another amount), another payment's token", async () => {
    // A real, paid payment of another amount: its reference and token are what a forger could have.
    const other = await paidPayment(baseUrl, key, { amount: 120_000 });
    const otherTxn = await bankAdmin<{ transactions: { token: string; ref_num: string }[] }>(
      `/admin/transactions?res_num=${other.id}`,
    );
    const { token: otherToken, ref_num: otherRef } = otherTxn.transactions[0]!;

    const p = await createdPayment(baseUrl, key, { amount: 150_000 });
    const bankPage = await payButton(baseUrl, p.id);
    const token = bankPage.searchParams.get('token')!;
    const forged = {
      State: 'OK',
      Status: '2',
      ResNum: p.id,
      TerminalId: '11223344',
      Amount: '150000',
      TraceNo: '123456',
      RRN: '123456789012',
      SecurePan: '603799******0000',
    };
    assert.equal(
      await callback(baseUrl, p.id, { ...forged, RefNum: '99999999999999', Token: token }),
      303,
      'unknown reference',
    );
    assert.equal(
      await callback(baseUrl, p.id, { ...forged, RefNum: otherRef, Token: token }),
      303,
      "another payment's reference and amount",
    );
    assert.equal(
      await callback(baseUrl, p.id, { ...forged, RefNum: otherRef, Token: otherToken }),
      303,
      "another payment's token",
    );
    assert.equal(
      await callback(baseUrl, p.id, { ...forged, RefNum: '<not a receipt>', Token: token }),
      400,
      'a malformed reference',
    );
    assert.equal(
      await callback(baseUrl, p.id, { ...forged, RefNum: otherRef, Token: token, ResNum: other.id }),
      400,
      "another payment's id",
    );
    await settle();
    assert.deepEqual(await versionOf(p.id), { status: 'created', version: 1 });
    assert.equal((await versionOf(other.id)).status, 'paid', 'the other payment is untouched');

    // The customer can still pay for real.
    const fields = await chooseAtBank(bankPage, 'success');
    assert.equal(await callback(baseUrl, p.id, fields), 303);
    await waitForStatus(baseUrl, key, p.id, 'paid');
  });

  it("a callback carrying another amount is judged by the bank's answer, not by the callback", async () => {
    const p = await createdPayment(baseUrl, key, { amount: 150_000 });
    await bankFault({ callback_other_amount: 1_000 });
    const bankPage = await payButton(baseUrl, p.id);
    const fields = await chooseAtBank(bankPage, 'success');
    assert.equal(fields.Amount, '151000');
    await callback(baseUrl, p.id, fields);
    const paid = await waitForStatus(baseUrl, key, p.id, 'paid');
    assert.equal(paid.amount, 150_000);
  });

  it('the callback repeated (by the bank itself, then by the customer, then all at once) makes one transition and one confirmation', async () => {
    const p = await createdPayment(baseUrl, key);
    await bankFault({ callback_repeat: 2 });
    const fields = await chooseAtBank(await payButton(baseUrl, p.id), 'success');
    const txn = await bankAdmin<{ transactions: { repeated_callbacks?: number[] }[] }>(
      `/admin/transactions?res_num=${p.id}`,
    );
    assert.deepEqual(
      txn.transactions[0]!.repeated_callbacks,
      [303, 303],
      'the bank posted the callback twice itself, each answered',
    );
    assert.equal(await callback(baseUrl, p.id, fields), 303, "the customer's own post");
    const statuses = await Promise.all([1, 2, 3].map(() => callback(baseUrl, p.id, fields)));
    assert.deepEqual(statuses, [303, 303, 303]);
    await waitForStatus(baseUrl, key, p.id, 'paid');
    assert.equal(await callback(baseUrl, p.id, fields), 303);
    await settle();
    assert.deepEqual(await versionOf(p.id), { status: 'paid', version: 2 });
    assert.equal((await bankOperations(p.id, 'confirm')).length, 1);
  });

  it("verify asks SEP nothing: its VerifyTransaction at the customer's return captured, so the bank down at the merchant's verify changes nothing, and nothing is settled", async () => {
    // SEP has no settle (docs/psps/sep.md): the simulator answers none, and the workflow calls none.
    const p = await paidPayment(baseUrl, key);
    await bankFault({ operation: 'reverse', fault: 'down' });
    await bankFault({ operation: 'confirm', fault: 'down' });
    try {
      const verified = await client(baseUrl, key).post<{ payment: Payment }>(`/payments/${p.id}/verify`, {
        amount: p.amount,
      });
      assert.equal(verified.status, 200, verified.text);
      assert.equal(verified.body.payment.status, 'verified');
    } finally {
      await bankFault(null);
    }
    assert.deepEqual(
      (await bankOperations(p.id)).map((o) => o.kind),
      ['confirm'],
      'one VerifyTransaction, at the return; no settle',
    );
  });

  it("the bank down during the deadline's reversal: reversed when it answers again, exactly once", async () => {
    const short = await apiWith({ VERIFY_WINDOW_SECONDS: '2' });
    await bankFault({ operation: 'reverse', fault: 'error', times: 3 });
    const p = await paidPayment(short, key);
    const reversed = await waitForStatus(short, key, p.id, 'reversed', 60_000);
    assert.equal(reversed.refunded_amount, p.amount);
    assert.equal((await bankOperations(p.id, 'reverse')).length, 1);
  });

  it('a refund the bank cannot be reached for is paid out once the bank answers, once', async () => {
    const p = await paidPayment(baseUrl, key);
    const api = client(baseUrl, key);
    assert.equal((await api.post(`/payments/${p.id}/verify`, { amount: p.amount })).status, 200);
    await bankFault({ operation: 'payout', fault: 'error', times: 2 });
    const refund = await api.post<{ refund: Refund }>(`/payments/${p.id}/refunds`, {
      destination_iban: REFUND_IBAN,
      amount: 50_000,
    });
    assert.equal(refund.status, 201, refund.text);
    await approveTypedIban(refund.body.refund);
    await waitForRefund(baseUrl, key, refund.body.refund.id, 'succeeded');
    const refunds = await refundsAtBank(p.id);
    assert.deepEqual(
      refunds.map((r) => r.amount),
      [50_000],
    );
  });
});

/** An API of a test's own, talking to `bank`, and `running`: its payment worker (own task queue) runs while `work` does. */
async function gatewayFor(bank: OwnSimulator, name: string, settings: Partial<Record<keyof Config, string>> = {}) {
  const h = await getHarness();
  const own = { SANDBOX_SEP_URL: bank.url, TEMPORAL_TASK_QUEUE: `${name}-${process.pid}`, ...settings };
  const api = await apiWith(own);
  const running = async (work: () => Promise<void>) => {
    const worker = await createPaymentWorker({
      config: testConfig(own),
      db: h.db,
      temporal: h.temporal.client,
      logger: h.logger,
      bundle: h.bundle,
    });
    await worker.runUntil(work);
  };
  return { api, running };
}

describe('the bank simulator killed and restarted mid-payment', function () {
  this.timeout(120_000);
  const bank = new OwnSimulator();
  after(() => bank.stop());

  it('a payment whose bank restarts after the token, and again before the confirm, is paid once; nothing is lost', async () => {
    await bank.start();
    const { api, running } = await gatewayFor(bank, 'bank-restart');
    await running(async () => {
      const { key: k } = await newMerchant();
      const p = await createdPayment(api, k);
      const bankPage = await payButton(api, p.id);
      await bank.kill();
      await bank.start();
      // The token survived the restart: the bank's page still knows the payment.
      const fields = await chooseAtBank(bankPage, 'success');
      assert.equal(fields.ResNum, p.id);
      await bank.kill();
      // The bank is down when the customer comes back: the workflow keeps asking until it answers.
      assert.equal(await callback(api, p.id, fields), 303);
      await settle();
      assert.equal((await versionOf(p.id)).status, 'created');
      await bank.start();
      await waitForStatus(api, k, p.id, 'paid', 60_000);
      assert.deepEqual(
        (await bank.operations(p.id)).map((o) => o.kind),
        ['token', 'confirm'],
      );
    });
  });
});

describe('money nobody confirmed goes back to the customer', function () {
  this.timeout(120_000);
  // This bank reverses a paid transaction nobody confirmed within 3 s, as a PSP does within 30 minutes.
  const bank = new OwnSimulator({ BANK_SIM_AUTO_REVERSE_SECONDS: '3' });
  let gateway: Awaited<ReturnType<typeof gatewayFor>>;
  before(async () => {
    await bank.start();
    gateway = await gatewayFor(bank, 'bank-unconfirmed', { PAYMENT_TTL_SECONDS: '4', BANK_PENDING_LIMIT_SECONDS: '3' });
  });
  after(() => bank.stop());

  const reversedByTheBank = (paymentId: string) =>
    waitFor(
      'the bank to reverse the transaction by itself',
      async () => {
        const ops = await bank.operations(paymentId);
        return ops.some((o) => o.kind === 'reverse' && o.operation_key.startsWith('auto-reverse:')) ? ops : undefined;
      },
      30_000,
      250,
    );

  it('a customer who comes back after the payment expired: never paid, never confirmed, and the bank returns the money', async () => {
    await gateway.running(async () => {
      const { key: k } = await newMerchant();
      const p = await createdPayment(gateway.api, k);
      const fields = await chooseAtBank(await payButton(gateway.api, p.id), 'success');
      await waitForStatus(gateway.api, k, p.id, 'expired', 30_000);
      assert.equal(await callback(gateway.api, p.id, fields), 303);
      await settle();
      assert.equal((await versionOf(p.id)).status, 'expired');
      const ops = await reversedByTheBank(p.id);
      assert.deepEqual(
        ops.map((o) => o.kind),
        ['token', 'reverse'],
      );
    });
  });

  it('a payment the bank keeps "in progress" past BANK_PENDING_LIMIT_SECONDS fails bank_unconfirmed, and the bank returns the money', async () => {
    await gateway.running(async () => {
      const { key: k } = await newMerchant();
      await bankFault({ operation: 'confirm', fault: 'in_progress', times: 1_000 }, bank.url);
      try {
        const p = await createdPayment(gateway.api, k);
        assert.equal(
          await callback(gateway.api, p.id, await chooseAtBank(await payButton(gateway.api, p.id), 'success')),
          303,
        );
        await waitForStatus(gateway.api, k, p.id, 'pending', 15_000);
        const failed = await waitForStatus(gateway.api, k, p.id, 'failed', 30_000);
        assert.equal(failed.failure?.code, 'bank_unconfirmed');
        const ops = await reversedByTheBank(p.id);
        assert.deepEqual(
          ops.map((o) => o.kind),
          ['token', 'reverse'],
          'the in-progress answers confirmed nothing',
        );
      } finally {
        await bankFault(null, bank.url);
      }
    });
  });
});
