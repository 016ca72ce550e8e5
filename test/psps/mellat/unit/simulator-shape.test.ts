/**
 * The Mellat simulator (src/psps/mellat/simulator.ts) held against the conformance corpus, in process:
 * it serves the published WSDL pair (the service document importing IPaymentGateway) that a SOAP
 * client loads, with every operation's parameters in the corpus's order; it takes the corpus's
 * request envelopes as they are; and each of its answers is an envelope of the corpus answer's shape
 * (the operation's Response element in the interface namespace, one child `return`) with the corpus's
 * value for the same situation (the same code, or a "0,…" of the same shape). Its return posts carry
 * the corpus returns' fields, no more and no fewer.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClientAsync } from 'soap';
import { chooseOnSimulator } from '../../../../src/adapters/bank-customer.ts';
import { MELLAT_NAMESPACE } from '../../../../src/psps/mellat/simulator-wsdl.ts';
import { createSimulator } from '../../../../src/bank-sim/server.ts';
import { readSoapCall } from '../../../../src/bank-sim/soap-envelope.ts';
import {
  isSoapFault,
  isSoapRequest,
  loadMellatCorpus,
  mellatCorpusMessage,
  type SoapAnswerMessage,
  type SoapRequestMessage,
} from '../corpus.ts';

const SERVICE = '/pgwchannel/services/pgw';
const ADMIN = 'shape-test-admin';
const corpus = loadMellatCorpus();
const request = (name: string) => mellatCorpusMessage(name).message as SoapRequestMessage;
const corpusReturn = (name: string) => (mellatCorpusMessage(name).message as SoapAnswerMessage).return;
/** A `return`'s shape: its code, and what follows the comma as a class of characters. */
const returnShape = (value: string) =>
  value.replace(/,[0-9]+$/, ',<digits>').replace(/,[A-Za-z0-9]+$/, ',<alphanumeric>');

/**
 * A Mellat simulator of the corpus's terminal, its ledger in `dir`, listening on a free loopback port;
 * `options` are the test's own (its admin token, its clock).
 */
async function listeningSimulator(
  dir: string,
  options: Pick<Parameters<typeof createSimulator>[0], 'adminToken' | 'autoReverseSeconds' | 'autoSettleSeconds'>,
) {
  const terminal = request('token-request').parameters;
  const { server } = createSimulator({
    protocol: 'mellat',
    stateFile: join(dir, 'ledger.jsonl'),
    terminalId: terminal.terminalId!,
    userName: terminal.userName!,
    password: terminal.userPassword!,
    redirectOrigins: ['http://callback.test'],
    delaySeconds: 0,
    ...options,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { server, base: `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}` };
}

describe('the Mellat simulator against the corpus', function () {
  this.timeout(30_000);
  const dir = mkdtempSync(join(tmpdir(), 'mellat-shape-'));
  let server: Server;
  let base = '';
  let order = 100_000_000_000;

  before(async () => {
    ({ server, base } = await listeningSimulator(dir, {
      adminToken: ADMIN,
      autoReverseSeconds: 0,
      autoSettleSeconds: 0,
    }));
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  /** Posts the corpus request `name`'s envelope with `values` in place of its own; the answer's status and envelope. */
  async function post(name: string, values: Record<string, string> = {}): Promise<{ status: number; xml: string }> {
    let envelope = request(name).envelope;
    for (const [param, value] of Object.entries(values))
      envelope = envelope.replace(new RegExp(`<${param}>[^<]*</${param}>`), `<${param}>${value}</${param}>`);
    const res = await fetch(`${base}${SERVICE}`, {
      method: 'POST',
      headers: { 'content-type': 'text/xml; charset=utf-8' },
      body: envelope,
    });
    return { status: res.status, xml: await res.text() };
  }

  /** The answer's `return`, after checking the envelope has the corpus answer's shape for `operation`. */
  function returned(answer: { status: number; xml: string }, operation: string): string {
    assert.equal(answer.status, 200);
    const call = readSoapCall(answer.xml);
    const shapeOf = readSoapCall(
      (
        corpus.find((m) => m.direction === 'answer' && (m.message as SoapAnswerMessage).soapOperation === operation)!
          .message as SoapAnswerMessage
      ).envelope,
    )!;
    assert.equal(call?.operation, shapeOf.operation);
    assert.equal(call?.namespace, shapeOf.namespace);
    assert.deepEqual(
      call?.parameters.map(([n]) => n),
      shapeOf.parameters.map(([n]) => n),
    );
    return call.parameters[0]![1];
  }

  /** A sale the customer paid (or not) on the simulator's page: its order id, RefId and the page's return fields. */
  async function sale(outcome: 'success' | 'cancel' | 'failure', amount = 1_000) {
    const orderId = String(order++);
    const refId = returned(
      await post('token-request', { orderId, amount: String(amount), callBackUrl: 'http://callback.test/return' }),
      'bpPayRequest',
    );
    assert.equal(returnShape(refId), returnShape(corpusReturn('token-answer-ok')));
    const RefId = refId.split(',')[1]!;
    const fields = await chooseOnSimulator(
      base,
      { url: `${base}/pgwchannel/startpay.mellat`, method: 'POST', fields: { RefId } },
      outcome,
      5_000,
    );
    return {
      orderId,
      RefId,
      fields,
      ref: { orderId, saleOrderId: orderId, saleReferenceId: fields.SaleReferenceId ?? '0' },
    };
  }

  it("serves the published WSDL pair, which a SOAP client loads with every operation's parameters in the corpus's order", async () => {
    const service = await (await fetch(`${base}${SERVICE}?wsdl`)).text();
    assert.match(
      service,
      /<wsdl:import location="[^"]*\/pgwchannel\/services\/pgw\?wsdl=IPaymentGateway\.wsdl" namespace="http:\/\/interfaces\.core\.sw\.bps\.com\/"\/>/,
    );
    assert.match(service, /<wsdl:service name="PaymentGatewayImplService">/);
    assert.doesNotMatch(service, /<xs:complexType/, 'the types are in the imported document');
    const client = await createClientAsync(`${base}${SERVICE}?wsdl`);
    const port = (
      client.describe() as Record<string, Record<string, Record<string, { input: Record<string, string> }>>>
    ).PaymentGatewayImplService!.PaymentGatewayImplPort!;
    for (const m of corpus.filter(isSoapRequest)) {
      // describe() adds the namespace it read (targetNSAlias, targetNamespace) beside the parameters.
      const parameters = Object.keys(port[m.message.soapOperation]!.input).filter(
        (k) => !k.startsWith('targetNS') && k !== 'targetNamespace',
      );
      assert.deepEqual(parameters, m.message.order, m.name);
    }
  });

  it('the token: a "0,RefId" of the corpus\'s shape; a refusal the code alone; the return posts carry the corpus returns\' fields', async () => {
    assert.equal(
      returned(await post('token-request', { terminalId: '999' }), 'bpPayRequest'),
      corpusReturn('token-answer-refused'),
    );
    const paid = await sale('success');
    const names = (name: string) => Object.keys(mellatCorpusMessage(name).message).sort();
    assert.deepEqual(Object.keys(paid.fields).sort(), names('return-paid'));
    assert.match(paid.fields.SaleReferenceId!, /^[1-9][0-9]{5,18}$/);
    assert.equal(paid.fields.ResCode, '0');
    assert.equal(paid.fields.SaleOrderId, paid.orderId);
    const canceled = await sale('cancel');
    assert.deepEqual(Object.keys(canceled.fields).sort(), names('return-canceled'));
    assert.equal(
      canceled.fields.ResCode,
      (mellatCorpusMessage('return-canceled').message as Record<string, string>).ResCode,
    );
    const failed = await sale('failure');
    assert.deepEqual(Object.keys(failed.fields).sort(), names('return-failed'));
    assert.match(failed.fields.ResCode!, /^[1-9][0-9]*$/);
  });

  it('verify, inquiry, settle and refund answer as the corpus does: 0, 43 verified before, 42 no such sale, 45 settled before, 46 a refund before settlement, "0,reference" a refund', async () => {
    const s = await sale('success');
    assert.equal(returned(await post('verify-request', s.ref), 'bpVerifyRequest'), corpusReturn('verify-answer-ok'));
    assert.equal(
      returned(await post('verify-request', s.ref), 'bpVerifyRequest'),
      corpusReturn('verify-answer-verified-before'),
    );
    assert.equal(
      returned(await post('verify-request', { ...s.ref, saleReferenceId: '111111111111' }), 'bpVerifyRequest'),
      corpusReturn('verify-answer-sale-not-found'),
    );
    assert.equal(returned(await post('inquiry-request', s.ref), 'bpInquiryRequest'), corpusReturn('inquiry-answer-ok'));
    const early = { ...s.ref, orderId: String(order++), refundAmount: '400' };
    assert.equal(
      returned(await post('refund-request', early), 'bpRefundRequest'),
      corpusReturn('refund-answer-refused'),
    );
    assert.equal(returned(await post('settle-request', s.ref), 'bpSettleRequest'), corpusReturn('settle-answer-ok'));
    assert.equal(
      returned(await post('settle-request', s.ref), 'bpSettleRequest'),
      corpusReturn('settle-answer-settled-before'),
    );
    const refund = { ...s.ref, orderId: String(order++), refundAmount: '400' };
    assert.equal(
      returnShape(returned(await post('refund-request', refund), 'bpRefundRequest')),
      returnShape(corpusReturn('refund-answer-ok')),
    );
    assert.equal(
      returned(await post('refund-request', refund), 'bpRefundRequest'),
      '41',
      'a refund order id is used once',
    );
    assert.equal(
      returned(
        await post('refund-request', { ...refund, orderId: String(order++), refundAmount: '601' }),
        'bpRefundRequest',
      ),
      '25',
      'no more than is left',
    );
    assert.equal(
      returned(await post('reversal-request', s.ref), 'bpReversalRequest'),
      corpusReturn('reversal-answer-settled'),
    );
  });

  it('reversal answers 0, then 48; the inquiry of a reversed sale 48', async () => {
    const s = await sale('success');
    assert.equal(returned(await post('verify-request', s.ref), 'bpVerifyRequest'), '0');
    assert.equal(
      returned(await post('reversal-request', s.ref), 'bpReversalRequest'),
      corpusReturn('reversal-answer-ok'),
    );
    assert.equal(
      returned(await post('reversal-request', s.ref), 'bpReversalRequest'),
      corpusReturn('reversal-answer-reversed-before'),
    );
    assert.equal(
      returned(await post('inquiry-request', s.ref), 'bpInquiryRequest'),
      corpusReturn('inquiry-answer-reversed'),
    );
  });

  it("a switched-on error is a SOAP Fault of the corpus's shape, with HTTP 500; a long that is not one does not unmarshal", async () => {
    const s = await sale('success');
    const set = await fetch(`${base}/admin/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN}` },
      body: JSON.stringify({ operation: 'confirm', fault: 'error', times: 1 }),
    });
    assert.equal(set.status, 200);
    const answer = await post('verify-request', s.ref);
    const fault = corpus.find(isSoapFault)!;
    assert.equal(answer.status, fault.message.status);
    assert.match(
      answer.xml,
      /<soap:Fault><faultcode>soap:Server<\/faultcode><faultstring>[^<]+<\/faultstring><\/soap:Fault>/,
    );
    assert.equal(readSoapCall(answer.xml)?.operation, readSoapCall(fault.message.envelope)?.operation);
    const notLong = await post('verify-request', { ...s.ref, saleReferenceId: 'ABC' });
    assert.equal(notLong.status, 500);
    assert.match(notLong.xml, /soap:Client/);
    assert.equal(readSoapCall(answer.xml)?.namespace, 'http://schemas.xmlsoap.org/soap/envelope/');
    assert.notEqual(readSoapCall(answer.xml)?.namespace, MELLAT_NAMESPACE);
  });
});

describe("the Mellat simulator's own clock: Behpardakht's reversal of an unverified sale and settlement of a verified one", function () {
  this.timeout(30_000);
  const dir = mkdtempSync(join(tmpdir(), 'mellat-clock-'));
  let server: Server;
  let base = '';

  before(async () => {
    // Seconds in place of Behpardakht's 20 and 180 minutes (the defaults, src/bank-sim/main.ts).
    // Two seconds: time enough to verify the second sale before the sweep, on a busy machine.
    ({ server, base } = await listeningSimulator(dir, { autoReverseSeconds: 2, autoSettleSeconds: 1 }));
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  const call = async (name: string, values: Record<string, string>) => {
    let envelope = request(name).envelope;
    for (const [param, value] of Object.entries(values))
      envelope = envelope.replace(new RegExp(`<${param}>[^<]*</${param}>`), `<${param}>${value}</${param}>`);
    const res = await fetch(`${base}${SERVICE}`, {
      method: 'POST',
      headers: { 'content-type': 'text/xml' },
      body: envelope,
    });
    return readSoapCall(await res.text())!.parameters[0]![1];
  };
  const paid = async (orderId: string) => {
    const RefId = (await call('token-request', { orderId, callBackUrl: 'http://callback.test/return' })).split(',')[1]!;
    const fields = await chooseOnSimulator(
      base,
      { url: `${base}/pgwchannel/startpay.mellat`, method: 'POST', fields: { RefId } },
      'success',
      5_000,
    );
    return { orderId, saleOrderId: orderId, saleReferenceId: fields.SaleReferenceId! };
  };
  const later = () => new Promise((resolve) => setTimeout(resolve, 4_000));

  it('a paid sale nobody verifies is reversed by the bank itself (48); a verified one nobody settles is settled by it (a reversal then answers 45)', async () => {
    const unverified = await paid('200000000001');
    const verified = await paid('200000000002');
    assert.equal(await call('verify-request', verified), '0');
    await later();
    assert.equal(await call('inquiry-request', unverified), corpusReturn('inquiry-answer-reversed'));
    assert.equal(await call('verify-request', unverified), '48', 'too late to verify: the money went back');
    assert.equal(await call('reversal-request', verified), corpusReturn('reversal-answer-settled'));
    assert.equal(await call('settle-request', verified), corpusReturn('settle-answer-settled-before'));
  });
});
