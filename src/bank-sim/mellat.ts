/**
 * The simulator's second protocol (BANK_SIM_PROTOCOL=mellat): Behpardakht
 * Mellat's IPG as src/adapters/psp/mellat/client.ts speaks it
 * (docs/psps/mellat.md). A SOAP service at /pgwchannel/services/pgw (its WSDL
 * at ?wsdl), served by the `soap` package on the simulator's own HTTP server,
 * and the payment page at /pgwchannel/startpay.mellat (a POST of RefId).
 * Each operation happens once per operation key (the X-Operation-Key header),
 * a repeat answering Behpardakht's "already" code (43 verified, 45 settled,
 * 48 reversed); the fault switches apply as on the SEP side (faults.ts), a
 * switched-on error answering a SOAP fault with HTTP 500 (the token request:
 * ResCode 34, "system error", as Behpardakht answers it). Refunds are not
 * part of this protocol (the public integrations show no refund call).
 */
import { randomBytes, randomInt } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { listen } from 'soap';
import type { PageDialect } from './customer-page.ts';
import { answerLate, dropConnection, hang, type FaultSwitches, type VerifyOperation } from './faults.ts';
import { digits, now, type Ledger, type Transaction } from './ledger.ts';
import { confirmOnce, reverseOnce, settleOnce } from './operations.ts';
import { redirectAllowed, type ProtocolOptions } from './protocol.ts';

const NAMESPACE = 'http://interfaces.core.sw.bps.com/';
export const MELLAT_SERVICE_PATH = '/pgwchannel/services/pgw';

/** Behpardakht's codes the simulator answers (the gateway's table is src/adapters/psp/mellat/mapping.ts). */
const CODE = {
  OK: 0,
  INSUFFICIENT_FUNDS: 12,
  CANCELED: 17,
  INVALID_MERCHANT: 21,
  INVALID_USER: 24,
  INVALID_AMOUNT: 25,
  INVALID_DATA: 32,
  SYSTEM_ERROR: 34,
  DUPLICATE_ORDER: 41,
  NOT_FOUND: 42,
  ALREADY_VERIFIED: 43,
  NOT_VERIFIED: 44,
  ALREADY_SETTLED: 45,
  REVERSED: 48,
  /** Not Behpardakht's: "delay in verification", as the SEP side's 100. */
  IN_PROGRESS: 100,
} as const;

const TERMINAL_PARTS = ['terminalId:long', 'userName:string', 'userPassword:string'];
const SALE_PARTS = [...TERMINAL_PARTS, 'orderId:long', 'saleOrderId:long', 'saleReferenceId:long'];
const OPERATIONS: Record<string, string[]> = {
  bpPayRequest: [...TERMINAL_PARTS, 'orderId:long', 'amount:long', 'localDate:string', 'localTime:string', 'additionalData:string', 'callBackUrl:string', 'payerId:long'],
  bpVerifyRequest: SALE_PARTS,
  bpSettleRequest: SALE_PARTS,
  bpInquiryRequest: SALE_PARTS,
  bpReversalRequest: SALE_PARTS,
};

/** The service's WSDL (document/literal, Behpardakht's namespace and operation names; every answer one string, `return`). */
export function mellatWsdl(): string {
  const names = Object.keys(OPERATIONS);
  const elements = names
    .map(
      (op) => `<xs:element name="${op}"><xs:complexType><xs:sequence>${OPERATIONS[op]!.map((part) => {
        const [name, type] = part.split(':');
        return `<xs:element name="${name}" type="xs:${type}"/>`;
      }).join('')}</xs:sequence></xs:complexType></xs:element>
<xs:element name="${op}Response"><xs:complexType><xs:sequence><xs:element name="return" type="xs:string"/></xs:sequence></xs:complexType></xs:element>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="${NAMESPACE}" targetNamespace="${NAMESPACE}" name="PaymentGatewayImplService">
<types><xs:schema targetNamespace="${NAMESPACE}" elementFormDefault="unqualified">
${elements}
</xs:schema></types>
${names.map((op) => `<message name="${op}"><part name="parameters" element="tns:${op}"/></message><message name="${op}Response"><part name="parameters" element="tns:${op}Response"/></message>`).join('\n')}
<portType name="IPaymentGateway">
${names.map((op) => `<operation name="${op}"><input message="tns:${op}"/><output message="tns:${op}Response"/></operation>`).join('\n')}
</portType>
<binding name="PaymentGatewayImplServiceSoapBinding" type="tns:IPaymentGateway"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
${names.map((op) => `<operation name="${op}"><soap:operation soapAction=""/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation>`).join('\n')}
</binding>
<service name="PaymentGatewayImplService"><port name="PaymentGatewayImplPort" binding="tns:PaymentGatewayImplServiceSoapBinding"><soap:address location="http://localhost${MELLAT_SERVICE_PATH}"/></port></service>
</definitions>`;
}

/** Mellat's page: a POST of RefId to /pgwchannel/startpay.mellat, the choice to /pgwchannel/pay, Behpardakht's callback fields. */
export const MELLAT_PAGE: PageDialect = {
  pagePath: '/pgwchannel/startpay.mellat',
  pageMethod: 'POST',
  choicePath: '/pgwchannel/pay',
  tokenField: 'RefId',
  // SaleReferenceId is a long on the wire: no leading zero, or it would not read back the same.
  paidNumbers: () => ({ ref_num: `${randomInt(1, 10)}${digits(11)}`, rrn: digits(12), trace_no: digits(6) }),
  defaultCard: '6104331234567890',
  callbackFields(txn, amount) {
    const ok = txn.outcome === 'success' || txn.outcome === 'delay';
    const code = ok ? CODE.OK : txn.outcome === 'cancel' ? CODE.CANCELED : CODE.INSUFFICIENT_FUNDS;
    return {
      RefId: txn.token,
      ResCode: String(code),
      SaleOrderId: txn.res_num,
      SaleReferenceId: ok ? (txn.ref_num ?? '') : '',
      CardHolderInfo: '',
      CardHolderPan: ok ? (txn.card_pan ?? '') : '',
      FinalAmount: String(amount),
    };
  },
};

export interface MellatOptions extends ProtocolOptions {
  /** The terminal's user name, checked with its password on every call. */
  userName: string;
}

type Args = Record<string, unknown>;
/** A call left without a SOAP answer (`fault` drops or holds its connection): the service never resolves it. */
const unanswered = (res: ServerResponse, fault: (res: ServerResponse) => void) => {
  fault(res);
  return new Promise<never>(() => undefined);
};
const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint' ? String(v) : '');
const answer = (code: number, ...values: (string | number)[]) => ({ return: [code, ...values].join(',') });

/** Serves the SOAP service on `server` (other paths stay the simulator's). */
export function listenMellat(server: Server, { ledger, faults, options }: { ledger: Ledger; faults: FaultSwitches; options: MellatOptions }): void {
  const terminalError = (args: Args): number | undefined => {
    if (text(args.terminalId) !== options.terminalId) return CODE.INVALID_MERCHANT;
    if (text(args.userName) !== options.userName || (options.password !== '' && text(args.userPassword) !== options.password)) return CODE.INVALID_USER;
    return undefined;
  };

  const bpPayRequest = (args: Args, req: IncomingMessage, res: ServerResponse) => {
    // A token the caller never gets is not made; an error is Behpardakht's "system error" code.
    const fault = faults.take('token');
    if (fault === 'slow') answerLate(res);
    if (fault === 'down') return unanswered(res, dropConnection);
    if (fault === 'timeout') return unanswered(res, hang);
    if (fault === 'error') return answer(CODE.SYSTEM_ERROR);
    const refused = terminalError(args);
    if (refused !== undefined) return answer(refused);
    const amount = Number(text(args.amount));
    const orderId = text(args.orderId);
    let redirect: URL | undefined;
    try {
      redirect = new URL(text(args.callBackUrl));
    } catch {
      redirect = undefined;
    }
    if (!Number.isSafeInteger(amount) || amount <= 0) return answer(CODE.INVALID_AMOUNT);
    if (!/^[0-9]{1,19}$/.test(orderId) || redirect === undefined || !/^https?:$/.test(redirect.protocol)) return answer(CODE.INVALID_DATA);
    // Only back to the merchant's gateway: the page's form and callback_repeat go to this address.
    if (!redirectAllowed(redirect, options.redirectOrigins)) return answer(CODE.INVALID_MERCHANT);
    // One RefId per order id: a retried request answers the same RefId; an order id already used is a duplicate.
    const earlier = ledger.byResNum(orderId);
    const open = earlier.find((t) => t.amount === amount && t.outcome === undefined);
    if (open !== undefined) return answer(CODE.OK, open.token);
    if (earlier.length > 0) return answer(CODE.DUPLICATE_ORDER);
    const txn: Transaction = { token: randomBytes(8).toString('hex').toUpperCase(), terminal: options.terminalId, amount, res_num: orderId, redirect_url: redirect.toString(), created_at: now(), refunds: {} };
    ledger.add(txn);
    ledger.record({ kind: 'token', operation_key: text(req.headers['x-operation-key']), res_num: orderId, ref_num: null, amount, at: now() });
    return answer(CODE.OK, txn.token);
  };

  /** The paid transaction of a verify-family call: our terminal, its order id and its SaleReferenceId must all agree. */
  const sale = (args: Args): Transaction | undefined => {
    const txn = ledger.byRef(text(args.saleReferenceId));
    if (txn === undefined || txn.res_num !== text(args.saleOrderId) || txn.res_num !== text(args.orderId)) return undefined;
    return txn.outcome === 'success' || txn.outcome === 'delay' ? txn : undefined;
  };

  const verify = (txn: Transaction | undefined, key: string) => {
    const work = () => confirmOnce(ledger, txn, key, options.delaySeconds);
    const reply = () => {
      if (txn === undefined) return answer(CODE.NOT_FOUND);
      if (txn.reversed_at !== undefined) return answer(CODE.REVERSED);
      const before = txn.confirmed_at;
      work();
      if (txn.confirmed_at === undefined) return answer(CODE.IN_PROGRESS);
      // The code alone, as Behpardakht answers (docs/psps/mellat.md): no amount, RRN or card.
      return answer(before === undefined ? CODE.OK : CODE.ALREADY_VERIFIED);
    };
    return { work, reply };
  };

  const settle = (txn: Transaction | undefined, key: string) => {
    const work = () => settleOnce(ledger, txn, key);
    const reply = () => {
      if (txn === undefined) return answer(CODE.NOT_FOUND);
      if (txn.reversed_at !== undefined) return answer(CODE.REVERSED);
      if (txn.confirmed_at === undefined) return answer(CODE.NOT_VERIFIED);
      const before = txn.settled_at;
      work();
      return answer(before === undefined ? CODE.OK : CODE.ALREADY_SETTLED);
    };
    return { work, reply };
  };

  const reverse = (txn: Transaction | undefined, key: string) => {
    const work = () => reverseOnce(ledger, txn, key);
    const reply = () => {
      if (txn === undefined) return answer(CODE.NOT_FOUND);
      if (txn.settled_at !== undefined) return answer(CODE.ALREADY_SETTLED);
      const before = txn.reversed_at;
      work();
      return answer(before === undefined ? CODE.OK : CODE.REVERSED);
    };
    return { work, reply };
  };

  /**
   * A verify-family call under its fault switch: an error is a SOAP fault (HTTP 500), "unknown" the
   * code for a sale not found, "in progress" (verify only) 100, a timeout does the work and never answers.
   */
  const switched =
    (operation: VerifyOperation, call: (txn: Transaction | undefined, key: string) => { work: () => void; reply: () => { return: string } }) =>
    (args: Args, _callback: unknown, _headers: unknown, req: IncomingMessage, res: ServerResponse) => {
      const refused = terminalError(args);
      if (refused !== undefined) return answer(refused);
      const txn = sale(args);
      const { work, reply } = call(txn, text(req.headers['x-operation-key']) || `${operation}:${text(args.saleReferenceId)}`);
      const fault = faults.take(operation);
      if (fault === 'slow') answerLate(res);
      if (fault === 'down') return unanswered(res, dropConnection);
      if (fault === 'error') throw new Error('service unavailable');
      if (fault === 'unknown') return answer(CODE.NOT_FOUND);
      if (fault === 'in_progress') return answer(CODE.IN_PROGRESS);
      if (fault === 'timeout') {
        work();
        return unanswered(res, hang);
      }
      return reply();
    };

  /** The standing of an order id, asked by it alone (a failed return has no SaleReferenceId); changes nothing. */
  const bpInquiryRequest = (args: Args) => {
    const refused = terminalError(args);
    if (refused !== undefined) return answer(refused);
    const txns = ledger.byResNum(text(args.orderId)).filter((t) => t.terminal === options.terminalId);
    const code = (t: Transaction): number => {
      if (t.outcome === 'success' || t.outcome === 'delay') return t.reversed_at === undefined ? CODE.OK : CODE.REVERSED;
      if (t.outcome === 'failure') return CODE.INSUFFICIENT_FUNDS;
      if (t.outcome === 'cancel') return CODE.CANCELED;
      return CODE.NOT_FOUND; // a RefId, no choice yet: no sale
    };
    const order: number[] = [CODE.OK, CODE.NOT_FOUND, CODE.REVERSED, CODE.CANCELED, CODE.INSUFFICIENT_FUNDS];
    const codes = txns.map(code).sort((a, b) => order.indexOf(a) - order.indexOf(b));
    return answer(codes[0] ?? CODE.NOT_FOUND);
  };

  const service = {
    bpPayRequest: (args: Args, _callback: unknown, _headers: unknown, req: IncomingMessage, res: ServerResponse) => bpPayRequest(args, req, res),
    bpVerifyRequest: switched('confirm', verify),
    bpSettleRequest: switched('settle', settle),
    bpReversalRequest: switched('reverse', reverse),
    bpInquiryRequest: (args: Args) => bpInquiryRequest(args),
  };
  const soapServer = listen(server, MELLAT_SERVICE_PATH, { PaymentGatewayImplService: { PaymentGatewayImplPort: service } }, mellatWsdl());
  // The SOAP library logs nothing of ours: requests carry the terminal's password.
  soapServer.log = () => undefined;
}
