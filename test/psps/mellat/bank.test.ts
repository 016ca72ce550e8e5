/**
 * The Mellat connector (src/psps/mellat/) against the suite's Mellat simulator process
 * (BANK_SIM_PROTOCOL=mellat, SANDBOX_MELLAT_URL): token, the bank's page and the customer's
 * choice, the callback, verify and settle as separate facts, reversal, inquiry by the sale's
 * reference, refunds through bpRefundRequest (partial, after settlement, once per refund), the
 * repeated callback and every fault switch. Money never moves twice: the simulator's ledger counts
 * every operation by the payment's numeric order id. The shapes of the messages are held against the
 * conformance corpus in the unit tier (test/psps/mellat/unit/).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { createClientAsync } from 'soap';
import { chooseOnSimulator } from '../../../src/adapters/bank-customer.ts';
import { pspClientsFromConfig } from '../../../src/psps/clients.ts';
import { MELLAT_SERVICE_PATH, MellatClient } from '../../../src/psps/mellat/client.ts';
import { mellatOrderId } from '../../../src/psps/mellat/mapping.ts';
import { MELLAT_CONNECTOR } from '../../../src/psps/mellat/index.ts';
import { BankRefusalError, BankUnavailableError, type BankToken } from '../../../src/psps/psp-client.ts';
import { isGenuineConfirmation } from '../../../src/domain/bank-confirmation.ts';
import { freePort } from '../../../src/main/ports.ts';
import { bankAdmin, bankFault, mellatSimulatorUrl, type BankFault } from '../../support/bank.ts';
import { testConfig } from '../../support/harness.ts';

interface SimTransaction {
  token: string;
  amount: number;
  res_num: string;
  outcome?: string;
  confirmed_at?: string;
  settled_at?: string;
  reversed_at?: string;
  repeated_callbacks?: number[];
}

/** What the Mellat simulator holds of a payment (by its order id): its transactions and operations. */
async function atBank(
  paymentId: string,
): Promise<{ transactions: SimTransaction[]; operations: { kind: string; operation_key: string }[] }> {
  return bankAdmin(`/admin/transactions?res_num=${mellatOrderId(paymentId)}`, mellatSimulatorUrl());
}
const count = async (paymentId: string, kind: string) =>
  (await atBank(paymentId)).operations.filter((op) => op.kind === kind).length;
const fault = (body: BankFault | null) => bankFault(body, mellatSimulatorUrl());
/** The amount of the payments these tests pay at the bank (unless one says otherwise). */
const AMOUNT = 125_000;

describe('the Mellat connector against the Mellat bank simulator', function () {
  this.timeout(60_000);
  let mellat: MellatClient;
  /** Our return route's stand-in: the bank's own posts of the callback (callback_repeat) land here. */
  let gateway: Server;
  let returnBase: string;
  const received: Record<string, string>[] = [];

  before(async () => {
    const configured = pspClientsFromConfig(testConfig()).test.mellat;
    assert.ok(configured !== undefined, 'the suite runs a Mellat simulator (SANDBOX_MELLAT_URL)');
    // A hanging call (the timeout fault) is given up after 1.5 s.
    mellat = new MellatClient({ ...configured.endpoint, timeoutMs: 1_500 });
    const port = await freePort();
    gateway = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push(Object.fromEntries(new URLSearchParams(body)));
        res.writeHead(303, { location: '/result' }).end();
      });
    });
    await new Promise<void>((resolve) => gateway.listen(port, '127.0.0.1', resolve));
    returnBase = `http://127.0.0.1:${port}`;
  });
  after(() => new Promise<void>((resolve) => gateway.close(() => resolve())));
  afterEach(() => fault(null));

  /** A payment of `amount` at the bank, its token, and the customer's choice on the bank's page. */
  async function paidAtBank(
    outcome: string,
    amount = AMOUNT,
  ): Promise<{ id: string; token: BankToken; fields: Record<string, string> }> {
    const id = randomUUID();
    const token = await mellat.requestToken(id, amount, `${returnBase}/pay/${id}/return`);
    const fields = await chooseOnSimulator(mellatSimulatorUrl(), token, outcome, 5_000);
    return { id, token, fields };
  }

  it('success: a RefId posted to startpay.mellat, the callback, verify (confirmed, not settled), then settle; a second settle (45) is done', async () => {
    const id = randomUUID();
    const token = await mellat.requestToken(id, 125_000, `${returnBase}/pay/${id}/return`);
    assert.equal(token.method, 'POST');
    assert.equal(token.url, `${mellatSimulatorUrl()}/pgwchannel/startpay.mellat`);
    assert.deepEqual(token.fields, { RefId: token.token });
    assert.deepEqual(
      await mellat.requestToken(id, 125_000, `${returnBase}/pay/${id}/return`),
      token,
      'a retried token request answers the same RefId',
    );
    assert.equal(await count(id, 'token'), 1);

    // The customer's browser: the form post of RefId shows the amount and the choices.
    const page = await fetch(token.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(token.fields).toString(),
    });
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<span class="amount" id="amount">۱۲۵٬۰۰۰ ریال<\/span>/);

    const fields = await chooseOnSimulator(mellatSimulatorUrl(), token, 'success', 5_000);
    assert.equal(fields.ResCode, '0');
    assert.equal(fields.SaleOrderId, mellatOrderId(id));
    const callback = MELLAT_CONNECTOR.parseReturn(fields, id);
    assert.ok(callback !== undefined);
    assert.deepEqual(callback, { state: 'OK', ref_num: fields.SaleReferenceId, res_num: id, token: token.token });

    const confirmation = await mellat.confirm(id, callback.ref_num, AMOUNT);
    // The code alone vouches for the sale the verify named: no RRN or card is made up.
    assert.deepEqual(confirmation, {
      result: 'confirmed',
      basis: 'result_code',
      ref_num: callback.ref_num,
      res_num: id,
      amount: AMOUNT,
      terminal: mellat.terminalId,
      rrn: null,
      card_pan: null,
    });
    assert.ok(confirmation.result === 'confirmed');
    const judged = { ...confirmation, terminal_matches: confirmation.terminal === mellat.terminalId };
    assert.ok(
      isGenuineConfirmation(judged, { id, amount: AMOUNT }, callback.ref_num),
      "a verified sale of our terminal, order and reference pays, on the protocol's terms",
    );
    assert.ok(
      !isGenuineConfirmation(judged, { id, amount: AMOUNT }, `${callback.ref_num}1`),
      'another reference than the return named pays nothing',
    );
    const [verified] = (await atBank(id)).transactions;
    assert.ok(
      verified?.confirmed_at !== undefined && verified.settled_at === undefined,
      'confirmed and not settled: two facts at the bank',
    );

    assert.deepEqual(await mellat.settle(id, callback.ref_num), { ref_num: callback.ref_num, result_code: 0 });
    assert.deepEqual(
      await mellat.settle(id, callback.ref_num),
      { ref_num: callback.ref_num, result_code: 45 },
      'settled before: done',
    );
    assert.equal(await count(id, 'confirm'), 1);
    assert.equal(await count(id, 'settle'), 1);
    assert.deepEqual(
      await mellat.inquire(id, callback),
      { standing: 'succeeded' },
      'asked by its SaleReferenceId: verified and standing',
    );
  });

  it("bpVerifyRequest answers Behpardakht's shape: the result code alone in `return` (0, then 43), nothing else", async () => {
    const { id, fields } = await paidAtBank('success');
    const soap = await createClientAsync(`${mellatSimulatorUrl()}${MELLAT_SERVICE_PATH}?wsdl`);
    soap.setEndpoint(`${mellatSimulatorUrl()}${MELLAT_SERVICE_PATH}`);
    const { terminalId, userName, password } = mellat.endpoint;
    const args = {
      terminalId,
      userName,
      userPassword: password,
      orderId: mellatOrderId(id),
      saleOrderId: mellatOrderId(id),
      saleReferenceId: fields.SaleReferenceId,
    };
    const verify = (
      soap as unknown as Record<string, (a: object) => Promise<[{ return: unknown }]>>
    ).bpVerifyRequestAsync!.bind(soap);
    const [first] = await verify(args);
    assert.deepEqual(first, { return: '0' });
    const [again] = await verify(args);
    assert.deepEqual(again, { return: '43' }, 'verified before');
    assert.equal(await count(id, 'confirm'), 1);
  });

  it('canceled by the customer (17): the callback is CanceledByUser with no reference, so the inquiry names no sale and asks nothing; nothing to verify', async () => {
    const { id, token, fields } = await paidAtBank('cancel');
    assert.equal(fields.ResCode, '17');
    assert.equal(fields.SaleReferenceId, undefined, 'a canceled return carries no SaleReferenceId');
    const callback = MELLAT_CONNECTOR.parseReturn(fields, id);
    assert.deepEqual(callback, { state: 'CanceledByUser', ref_num: '', res_num: id, token: token.token });
    const before = (await atBank(id)).operations.length;
    assert.deepEqual(await mellat.inquire(id, callback), { standing: 'open' });
    assert.equal((await atBank(id)).operations.length, before);
    assert.deepEqual(await mellat.confirm(id, '123456789012', AMOUNT), {
      result: 'refused',
      code: 42,
      description: 'sale transaction not found',
    });
  });

  it('failed at the bank (a card code): the callback is Failed with no reference; the inquiry decides nothing', async () => {
    const { id, fields } = await paidAtBank('failure');
    assert.equal(fields.ResCode, '12');
    const callback = MELLAT_CONNECTOR.parseReturn(fields, id);
    assert.equal(callback?.state, 'Failed');
    assert.deepEqual(await mellat.inquire(id, callback), { standing: 'open' });
  });

  it("the inquiry asks by the sale's reference: a reference the bank does not know for that order is open, a paid sale not verified yet is open, a verified one succeeded", async () => {
    assert.deepEqual(await mellat.inquire(randomUUID(), { ref_num: '123456789012', token: '' }), { standing: 'open' });
    const { id, fields } = await paidAtBank('success');
    const callback = MELLAT_CONNECTOR.parseReturn(fields, id)!;
    assert.deepEqual(await mellat.inquire(id, callback), { standing: 'open' }, 'paid, not verified (44)');
    assert.deepEqual(
      await mellat.inquire(randomUUID(), callback),
      { standing: 'open' },
      "another order with this sale's reference is no sale",
    );
    await mellat.confirm(id, callback.ref_num, AMOUNT);
    assert.deepEqual(await mellat.inquire(id, callback), { standing: 'succeeded' });
  });

  it("a callback is refused when its SaleOrderId is another payment's order, whatever else it carries", async () => {
    const { fields } = await paidAtBank('success');
    assert.equal(MELLAT_CONNECTOR.parseReturn(fields, randomUUID()), undefined);
  });

  it('a repeated callback: the bank posts it twice more; verify twice (43 the second time) confirms once', async () => {
    await fault({ callback_repeat: 2 });
    const before = received.length;
    const { id, fields } = await paidAtBank('success');
    const copies = received.slice(before);
    assert.equal(copies.length, 2);
    for (const copy of copies) assert.deepEqual(copy, fields);
    assert.deepEqual((await atBank(id)).transactions[0]?.repeated_callbacks, [303, 303]);
    const refNum = fields.SaleReferenceId!;
    const first = await mellat.confirm(id, refNum, AMOUNT);
    const second = await mellat.confirm(id, refNum, AMOUNT);
    assert.equal(first.result, 'confirmed');
    assert.deepEqual(second, first, 'verified before (43): the same confirmation');
    assert.equal(await count(id, 'confirm'), 1);
  });

  it('reversal: a verified payment reversed once (48 on a retry is done); it can no longer be settled, and the inquiry no longer says paid', async () => {
    const { id, fields } = await paidAtBank('success');
    const refNum = fields.SaleReferenceId!;
    await mellat.confirm(id, refNum, AMOUNT);
    assert.deepEqual(await mellat.reverse(id, refNum), { ref_num: refNum, result_code: 0 });
    assert.deepEqual(await mellat.reverse(id, refNum), { ref_num: refNum, result_code: 48 });
    await assert.rejects(
      mellat.settle(id, refNum),
      (error: unknown) => error instanceof BankRefusalError && error.code === 48,
    );
    assert.deepEqual(await mellat.inquire(id, { ref_num: refNum, token: '' }), { standing: 'open' });
    assert.equal(await count(id, 'reverse'), 1);
    assert.equal(await count(id, 'settle'), 0);
  });

  it('delay in verification: verify answers in progress, then confirms', async () => {
    const { id, fields } = await paidAtBank('delay');
    assert.deepEqual(await mellat.confirm(id, fields.SaleReferenceId!, AMOUNT), { result: 'in_progress' });
    await new Promise((r) => setTimeout(r, 1_200));
    assert.equal((await mellat.confirm(id, fields.SaleReferenceId!, AMOUNT)).result, 'confirmed');
  });

  it('refunds through bpRefundRequest: refused before settlement (46); after it, partial refunds each under its own order id, never more than the sale', async () => {
    assert.equal(mellat.capabilities.refund, 'partial');
    const { id, fields } = await paidAtBank('success');
    const refNum = fields.SaleReferenceId!;
    await mellat.confirm(id, refNum, AMOUNT);
    await assert.rejects(
      mellat.refund(id, refNum, randomUUID(), 10_000),
      (error: unknown) => error instanceof BankRefusalError && error.code === 46,
    );
    await mellat.settle(id, refNum);
    assert.deepEqual(await mellat.refund(id, refNum, randomUUID(), 50_000), { ref_num: refNum, result_code: 0 });
    assert.deepEqual(await mellat.refund(id, refNum, randomUUID(), 75_000), { ref_num: refNum, result_code: 0 });
    await assert.rejects(
      mellat.refund(id, refNum, randomUUID(), 1),
      (error: unknown) => error instanceof BankRefusalError && error.code === 25,
      'the whole sale is refunded: no more',
    );
    const refunds = (await atBank(id)).operations.filter((op) => op.kind === 'refund');
    assert.equal(refunds.length, 2);
    assert.ok(refunds.every((op) => op.operation_key.startsWith('refund:')));
  });

  it('a refund whose answer was lost: the retry names the same order id, Behpardakht answers 41, and the money moved once', async () => {
    const { id, fields } = await paidAtBank('success');
    const refNum = fields.SaleReferenceId!;
    await mellat.confirm(id, refNum, AMOUNT);
    await mellat.settle(id, refNum);
    const refundId = randomUUID();
    await fault({ operation: 'refund', fault: 'timeout', times: 1 });
    await assert.rejects(mellat.refund(id, refNum, refundId, 30_000), BankUnavailableError);
    assert.deepEqual(await mellat.refund(id, refNum, refundId, 30_000), { ref_num: refNum, result_code: 41 });
    assert.equal(await count(id, 'refund'), 1);
  });

  it('a wrong terminal password is refused (24), and the password is not in the error', async () => {
    const wrong = new MellatClient({ ...mellat.endpoint, password: 'not-the-terminal-password' });
    await assert.rejects(
      wrong.requestToken(randomUUID(), 1_000, `${returnBase}/r`),
      (error: unknown) =>
        error instanceof BankRefusalError && error.code === 24 && !error.message.includes('not-the-terminal-password'),
    );
  });

  describe('fault switches', () => {
    it('down: no bank at the address is BankUnavailableError', async () => {
      const down = new MellatClient({ ...mellat.endpoint, baseUrl: `http://127.0.0.1:${await freePort()}` });
      await assert.rejects(down.requestToken(randomUUID(), 1_000, `${returnBase}/r`), BankUnavailableError);
    });

    it('error: a SOAP fault with HTTP 500 is BankUnavailableError, and the next try confirms', async () => {
      const { id, fields } = await paidAtBank('success');
      await fault({ operation: 'confirm', fault: 'error', times: 1 });
      await assert.rejects(
        mellat.confirm(id, fields.SaleReferenceId!, AMOUNT),
        (error: unknown) => error instanceof BankUnavailableError && /HTTP 500/.test(error.message),
      );
      assert.equal((await mellat.confirm(id, fields.SaleReferenceId!, AMOUNT)).result, 'confirmed');
      assert.equal(await count(id, 'confirm'), 1);
    });

    it('slow / lost answer: the bank verifies but never answers; the retry answers 43, verified once', async () => {
      const { id, fields } = await paidAtBank('success');
      await fault({ operation: 'confirm', fault: 'timeout', times: 1 });
      await assert.rejects(mellat.confirm(id, fields.SaleReferenceId!, AMOUNT), BankUnavailableError);
      const retried = await mellat.confirm(id, fields.SaleReferenceId!, AMOUNT);
      assert.equal(retried.result, 'confirmed');
      assert.equal(await count(id, 'confirm'), 1);
    });

    it('settle and reverse: a lost answer settles once, an error is retried', async () => {
      const { id, fields } = await paidAtBank('success');
      const refNum = fields.SaleReferenceId!;
      await mellat.confirm(id, refNum, AMOUNT);
      await fault({ operation: 'settle', fault: 'timeout', times: 1 });
      await assert.rejects(mellat.settle(id, refNum), BankUnavailableError);
      assert.deepEqual(await mellat.settle(id, refNum), { ref_num: refNum, result_code: 45 });
      assert.equal(await count(id, 'settle'), 1);

      const other = await paidAtBank('success');
      const otherRef = other.fields.SaleReferenceId!;
      await mellat.confirm(other.id, otherRef, AMOUNT);
      await fault({ operation: 'reverse', fault: 'error', times: 1 });
      await assert.rejects(mellat.reverse(other.id, otherRef), BankUnavailableError);
      assert.equal((await mellat.reverse(other.id, otherRef)).result_code, 0);
      assert.equal(await count(other.id, 'reverse'), 1);
    });

    it('unknown: the bank forgets the sale (42), a refusal; in_progress keeps verify pending', async () => {
      const { id, fields } = await paidAtBank('success');
      await fault({ operation: 'confirm', fault: 'unknown', times: 1 });
      assert.deepEqual(await mellat.confirm(id, fields.SaleReferenceId!, AMOUNT), {
        result: 'refused',
        code: 42,
        description: 'sale transaction not found',
      });
      await fault({ operation: 'confirm', fault: 'in_progress', times: 1 });
      assert.deepEqual(await mellat.confirm(id, fields.SaleReferenceId!, AMOUNT), { result: 'in_progress' });
      assert.equal((await mellat.confirm(id, fields.SaleReferenceId!, AMOUNT)).result, 'confirmed');
    });

    it('another amount in the callback changes nothing: the verify confirms the sale at the amount the token was asked for', async () => {
      await fault({ callback_other_amount: 1_000 });
      const { id, fields } = await paidAtBank('success', 40_000);
      assert.equal(fields.FinalAmount, '41000');
      const confirmation = await mellat.confirm(id, fields.SaleReferenceId!, 40_000);
      assert.ok(confirmation.result === 'confirmed' && confirmation.amount === 40_000);
      assert.equal(
        (await atBank(id)).transactions[0]?.amount,
        40_000,
        "the bank's sale is the token's amount, not the callback's",
      );
    });
  });
});
