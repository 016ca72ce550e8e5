/**
 * Issue 50, item 3 (docs/SECURITY.md, "A stranger ends a payment" and "A paid return for an ended
 * payment"), against the real stack: the API, the worker, Temporal and the bank simulators' processes.
 * - The bare return address `/pay/{id}/return` (no signature, no PSP token) is anyone's to type: such a
 *   failed or canceled return ends nothing, at SEP, Parsian, Sadad, Asan Pardakht and Pasargad, and the customer
 *   then pays the payment.
 * - A paid return for a payment already canceled or expired is confirmed at the PSP and reversed there,
 *   recorded once (table late_bank_returns), and the ledger check passes.
 */
import assert from 'node:assert/strict';
import { apiWith, getHarness, newMerchant, type Harness } from '../support/harness.ts';
import {
  bankPageOf,
  chooseOnBankPage,
  createdPayment,
  postBankReturn,
  pressPay,
  returnsAnswered,
  waitForStatus,
} from '../support/payments.ts';
import { bankAdmin, bankOperations } from '../support/bank.ts';
import { cli } from '../support/cli.ts';
import { assertCliLedgerCheck } from '../support/races.ts';
import { client, request, waitFor } from '../support/http.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import { parsianOrderId } from '../../src/psps/parsian/mapping.ts';
import { sadadOrderId } from '../../src/psps/sadad/mapping.ts';
import { pasargadOrderId } from '../../src/psps/pasargad/mapping.ts';
import { asanpardakhtOrderId, RETURN_INVOICE_FIELD } from '../../src/psps/asanpardakht/mapping.ts';
import { lateReturnsOfPayment } from '../../src/db/late-returns.ts';

interface SimulatedSale {
  ref_num?: string;
  confirmed_at?: string;
  reversed_at?: string;
}

describe("a stranger's return ends nothing; a paid return for an ended payment is given back", function () {
  this.timeout(120_000);
  let h: Harness;
  let key: string;
  let merchantId: string;

  const statusOf = async (id: string, as = key, base = h.baseUrl) =>
    (await request<{ payment: Payment }>(base, 'GET', `/api/v1/payments/${id}`, { key: as })).body.payment;
  /** The stranger's return to the bare address, with no token: a GET of `query`, or a form post of it. */
  const strangerReturn = async (
    id: string,
    method: 'GET' | 'POST',
    fields: Record<string, string>,
    base = h.baseUrl,
  ) => {
    const body = new URLSearchParams(fields).toString();
    const res = await fetch(method === 'GET' ? `${base}/pay/${id}/return?${body}` : `${base}/pay/${id}/return`, {
      method,
      ...(method === 'POST'
        ? {
            body,
            headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://attacker.example' },
          }
        : {}),
      redirect: 'manual',
    });
    assert.equal(res.status, 303);
    await waitFor(`the workflow of ${id} to answer the stranger's return`, async () =>
      (await returnsAnswered(h.temporal.client, id)) >= 1 ? true : undefined,
    );
  };
  /** The customer pays through the test helper: the simulator's page, and its return to the session's signed address. */
  const customerPays = async (id: string, as = key, base = h.baseUrl) => {
    const api = client(base, as);
    let res = await api.post<{ payment: Payment }>(`/test_helpers/payments/${id}/bank_outcome`, { outcome: 'success' });
    for (let retry = 0; res.status === 503 && retry < 10; retry++) {
      await new Promise((r) => setTimeout(r, 1_000));
      res = await api.post<{ payment: Payment }>(`/test_helpers/payments/${id}/bank_outcome`, { outcome: 'success' });
    }
    assert.equal(res.status, 200, res.text);
    return res.body.payment;
  };

  before(async () => {
    h = await getHarness();
    ({ key, merchantId } = await newMerchant());
  });

  it("SEP: a stranger's GET /pay/{id}/return?State=CanceledByUser (no signature, no token) leaves the payment created; the customer then pays it", async () => {
    const p = await createdPayment(h.baseUrl, key);
    const bankPage = await bankPageOf(h.baseUrl, p.id);
    await strangerReturn(p.id, 'GET', { State: 'CanceledByUser' });
    assert.equal((await statusOf(p.id)).status, 'created', 'an unsigned return ends nothing');
    const form = await chooseOnBankPage(bankPage, 'success');
    assert.match(new URL(form.action).pathname, new RegExp(`^/pay/${p.id}/return/[A-Za-z0-9_-]{43}$`));
    assert.equal((await postBankReturn(form)).status, 303);
    await waitForStatus(h.baseUrl, key, p.id, 'paid');
  });

  it("SEP: a stranger's form post of State=Failed with a forged signature ends nothing either", async () => {
    const p = await createdPayment(h.baseUrl, key);
    await bankPageOf(h.baseUrl, p.id);
    const res = await fetch(`${h.baseUrl}/pay/${p.id}/return/${'A'.repeat(43)}`, {
      method: 'POST',
      body: new URLSearchParams({ State: 'Failed', ResNum: p.id }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      redirect: 'manual',
    });
    assert.equal(res.status, 303);
    await waitFor(`the workflow of ${p.id} to answer`, async () =>
      (await returnsAnswered(h.temporal.client, p.id)) >= 1 ? true : undefined,
    );
    assert.equal((await statusOf(p.id)).status, 'created');
    assert.equal((await customerPays(p.id)).status, 'paid');
  });

  for (const [psp, fields] of [
    ['parsian', (id: string) => ({ status: '-138', OrderId: parsianOrderId(id), Token: '' })],
    ['parsian', (id: string) => ({ status: '-1', OrderId: parsianOrderId(id), Token: '' })],
    ['sadad', (id: string) => ({ OrderId: sadadOrderId(id), ResCode: '-1', Token: '' })],
    ['asanpardakht', (id: string) => ({ [RETURN_INVOICE_FIELD]: asanpardakhtOrderId(id) })],
    // PEP's return carries no token at all (docs/psps/pasargad.md): only the signed address ends a payment.
    ['pasargad', (id: string) => ({ invoiceId: pasargadOrderId(id), status: 'cancel' })],
  ] as const) {
    it(`${psp}: a stranger's tokenless return ${JSON.stringify(fields('ID'))} leaves the payment created; the customer then pays it`, async () => {
      const routed = await newMerchant();
      const set = await cli('routing', 'set', '--merchant', routed.merchantId, '--mode', 'test', '--psps', psp);
      assert.equal(set.code, 0, set.stderr);
      // Sadad and Pasargad take only a payment whose verify window ends before they give back what nobody verified.
      const base = psp === 'sadad' || psp === 'pasargad' ? await apiWith({ VERIFY_WINDOW_SECONDS: '300' }) : h.baseUrl;
      const p = await createdPayment(base, routed.key);
      const pay = await pressPay(base, p.id);
      assert.ok([200, 303].includes(pay.status), `Pay leads to ${psp}'s page: ${pay.status}`);
      assert.equal((await statusOf(p.id, routed.key, base)).psp?.name, psp);
      await strangerReturn(p.id, 'POST', fields(p.id), base);
      assert.equal((await statusOf(p.id, routed.key, base)).status, 'created', 'an unsigned return ends nothing');
      const paid = await customerPays(p.id, routed.key, base);
      assert.equal(paid.status, 'paid');
      assert.equal(paid.psp?.name, psp);
    });
  }

  for (const ended of ['canceled', 'expired'] as const) {
    it(`SEP: the customer pays after the payment was ${ended}: the sale is confirmed and reversed at SEP, recorded once, and the ledger check passes`, async () => {
      const p = await createdPayment(h.baseUrl, key);
      const bankPage = await bankPageOf(h.baseUrl, p.id);
      if (ended === 'canceled') {
        const res = await request(h.baseUrl, 'POST', `/api/v1/payments/${p.id}/cancel`, { key });
        assert.equal(res.status, 200, res.text);
      } else {
        const res = await request(h.baseUrl, 'POST', `/api/v1/test_helpers/payments/${p.id}/advance`, {
          key,
          body: { seconds: 3_600 },
        });
        assert.equal(res.status, 200, res.text);
      }
      await waitForStatus(h.baseUrl, key, p.id, ended);
      // The customer was still on SEP's page, and pays there: SEP's return comes to the session's signed address.
      const form = await chooseOnBankPage(bankPage, 'success');
      assert.equal((await postBankReturn(form)).status, 303);
      const sale = await waitFor(
        `SEP to reverse the late sale of ${p.id}`,
        async () => {
          const found = (
            await bankAdmin<{ transactions: SimulatedSale[] }>(`/admin/transactions?res_num=${p.id}`)
          ).transactions.find((t) => t.ref_num !== undefined);
          return found?.reversed_at !== undefined ? found : undefined;
        },
        30_000,
      );
      assert.ok(sale.confirmed_at !== undefined, 'confirmed at SEP before the reversal');
      const [recorded] = await waitFor(`the late return of ${p.id} to be recorded`, async () => {
        const rows = await lateReturnsOfPayment(h.db, p.id);
        return rows.length > 0 ? rows : undefined;
      });
      assert.equal(recorded?.outcome, 'reversed');
      assert.equal(recorded?.reference_id, sale.ref_num);
      assert.equal(recorded?.payment_status, ended);
      const after = await statusOf(p.id);
      assert.equal(after.status, ended, 'the ended payment is never paid');
      assert.equal(after.reference_id, null);

      // The customer resubmits the bank's form: done once.
      assert.equal((await postBankReturn(form)).status, 303);
      await new Promise((r) => setTimeout(r, 1_500));
      assert.equal((await lateReturnsOfPayment(h.db, p.id)).length, 1);
      assert.equal((await bankOperations(p.id, 'reverse')).length, 1, 'one reversal at SEP');

      // The operator's check, as a separate process, scoped to this merchant (test/support/races.ts says why).
      await assertCliLedgerCheck([merchantId]);
    });
  }
});
