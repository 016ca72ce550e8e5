/**
 * One PSP sale pays one payment (docs/SECURITY.md#invariants-between-payments-and-requests), against
 * the real stack. The customer pays payment A at SEP; A's return is posted to A's return route and,
 * at the same instant, with `ResNum` changed to B, to B's, a payment whose bank page the same customer
 * opened. SEP's verify names no payment and answers a repeat in full, so only the gateway can tell
 * whose sale it is: the bank activity claims it (table psp_sale_claims) before either payment may
 * answer confirmed, and the primary key decides.
 * - Same amounts: exactly one of A and B is paid with the sale, the other stays payable, and the sale
 *   is not reversed (the money is the paid payment's).
 * - B's amount differs: whichever claims first decides. If A, A is paid and B's refused confirmation
 *   reverses nothing. If B, B's refused confirmation reverses the sale it holds and A is never paid.
 *   Never both: A paid while its sale is reversed (the goods for free).
 * Several rounds each, then the ledger check of the CLI.
 */
import assert from 'node:assert/strict';
import { getHarness, newMerchant, type Harness } from '../support/harness.ts';
import {
  bankPageOf,
  chooseOnBankPage,
  createdPayment,
  postBankReturn,
  returnsAnswered,
  type BankReturnForm,
} from '../support/payments.ts';
import { bankAdmin } from '../support/bank.ts';
import { assertCliLedgerCheck } from '../support/races.ts';
import { request, waitFor } from '../support/http.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';

const ROUNDS = 6;
/** B's head start per round in the race of different amounts: B's refusal then runs while A's confirmation is in flight. */
const LEADS_MS = [0, 5, 10, 20, 40, 80];

interface SimulatedSale {
  ref_num?: string;
  reversed_at?: string;
}

describe('one PSP sale pays one payment: the same return posted to two payments at once', function () {
  this.timeout(240_000);
  let h: Harness;
  let key: string;
  let merchantId: string;

  const payment = async (id: string) =>
    (await request<{ payment: Payment }>(h.baseUrl, 'GET', `/api/v1/payments/${id}`, { key })).body.payment;
  const verify = (p: Payment) =>
    request<{ payment?: Payment; code?: string }>(h.baseUrl, 'POST', `/api/v1/payments/${p.id}/verify`, {
      key,
      body: { amount: p.amount },
    });
  /** The simulator's transaction A was paid by (its ResNum), and whether SEP reversed it. */
  const saleOf = async (id: string) =>
    (await bankAdmin<{ transactions: SimulatedSale[] }>(`/admin/transactions?res_num=${id}`)).transactions.find(
      (t) => t.ref_num !== undefined,
    );

  /** A's return form, and the same fields with B's ResNum to B's return route. */
  const returnsOf = async (a: Payment, b: Payment): Promise<[BankReturnForm, BankReturnForm]> => {
    const pageA = await bankPageOf(h.baseUrl, a.id);
    await bankPageOf(h.baseUrl, b.id); // the customer opened B's bank page too: B's workflow holds a token
    const genuine = await chooseOnBankPage(pageA, 'success');
    assert.equal(genuine.fields.get('ResNum'), a.id);
    const forged = new URLSearchParams(genuine.fields);
    forged.set('ResNum', b.id);
    // B's return address as B's own bank session gave it to SEP (signed for B: src/payments/return-signature.ts).
    const toB = (await bankAdmin<{ transactions: { redirect_url: string }[] }>(`/admin/transactions?res_num=${b.id}`))
      .transactions[0]?.redirect_url;
    assert.ok(
      toB !== undefined && toB !== genuine.action.replace(a.id, b.id),
      "B's session has a signed address of its own",
    );
    return [genuine, { ...genuine, action: toB, fields: forged }];
  };

  /**
   * Posts both returns at once, B's `leadMs` before A's (0: the same instant; a few milliseconds give B's
   * refused confirmation the head start the goods-for-free race needs), and waits until both workflows
   * have answered theirs.
   */
  const race = async (a: Payment, b: Payment, leadMs = 0) => {
    const [toA, toB] = await returnsOf(a, b);
    const answers = await Promise.all([
      (async () => {
        if (leadMs > 0) await new Promise((resolve) => setTimeout(resolve, leadMs));
        return postBankReturn(toA);
      })(),
      postBankReturn(toB),
    ]);
    for (const res of answers) assert.equal(res.status, 303);
    for (const p of [a, b])
      await waitFor(`the workflow of ${p.id} to answer its return`, async () =>
        (await returnsAnswered(h.temporal.client, p.id)) >= 1 ? true : undefined,
      );
    return { a: await payment(a.id), b: await payment(b.id), sale: await saleOf(a.id) };
  };

  before(async () => {
    h = await getHarness();
    ({ key, merchantId } = await newMerchant());
  });

  it(`same amounts, ${ROUNDS} rounds: exactly one payment is paid with the sale, the other stays payable, nothing reversed`, async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const a = await createdPayment(h.baseUrl, key, { amount: 120_000 });
      const b = await createdPayment(h.baseUrl, key, { amount: 120_000 });
      const { a: afterA, b: afterB, sale } = await race(a, b);
      const paid = [afterA, afterB].filter((p) => p.status === 'paid');
      assert.equal(paid.length, 1, `round ${round}: one payment paid (A ${afterA.status}, B ${afterB.status})`);
      const [winner] = paid;
      const loser = winner === afterA ? afterB : afterA;
      assert.equal(loser.status, 'created', `round ${round}: the other payment is still payable`);
      assert.equal(loser.reference_id, null);
      assert.equal(winner!.reference_id, sale?.ref_num);
      assert.equal(sale?.reversed_at, undefined, `round ${round}: the paid payment's sale is not reversed`);
      assert.equal((await verify(winner!)).status, 200);
      assert.equal((await verify(loser)).status, 409, 'the other payment cannot be verified');
    }
  });

  it(`different amounts, ${ROUNDS} rounds: never A paid while its sale is reversed; the sale is the paid payment's or reversed`, async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const a = await createdPayment(h.baseUrl, key, { amount: 130_000 });
      const b = await createdPayment(h.baseUrl, key, { amount: 170_000 });
      const { a: afterA, b: afterB, sale } = await race(a, b, LEADS_MS[round % LEADS_MS.length]);
      assert.notEqual(afterB.status, 'paid', `round ${round}: B never pays with A's sale of another amount`);
      if (afterA.status === 'paid') {
        assert.equal(sale?.reversed_at, undefined, `round ${round}: A is paid, and its sale stands`);
        assert.equal(afterB.status, 'created', `round ${round}: B's refused confirmation reversed nothing`);
        assert.equal((await verify(afterA)).status, 200);
      } else {
        // B claimed the sale first: its refused confirmation gave the money back, and A was never paid.
        assert.equal(afterA.status, 'created', `round ${round}: A is not paid (${afterA.status})`);
        assert.ok(sale?.reversed_at !== undefined, `round ${round}: the sale B held is reversed`);
        assert.equal(afterB.status, 'failed');
        assert.equal(afterB.failure?.code, 'confirmation_mismatch');
        assert.equal((await verify(afterA)).status, 409);
      }
    }
  });

  it('the ledger check of the CLI passes after the races', async () => {
    await assertCliLedgerCheck([merchantId]);
  });
});
