/**
 * The simulator's second protocol (BANK_SIM_PROTOCOL=mellat): Behpardakht Mellat's IPG as the
 * conformance corpus shows it (test/fixtures/psps/mellat/, docs/psps/mellat.md), not as our
 * connector happens to speak it. A SOAP 1.1 service at /pgwchannel/services/pgw whose WSDL is the
 * published pair (simulator-wsdl.ts: ?wsdl, importing ?wsdl=IPaymentGateway.wsdl), read and answered by
 * hand (soap-envelope.ts) so that every answer is an envelope of the corpus's shape: `<{op}Response>`
 * in the interface namespace holding one string, `return` ("0,RefId", or a result code); and the
 * payment page at /pgwchannel/startpay.mellat (a POST of RefId).
 *
 * Implemented: bpPayRequest; bpVerifyRequest, bpSettleRequest, bpReversalRequest and bpInquiryRequest
 * of a sale found by its saleOrderId and saleReferenceId (Behpardakht's own key of a sale); and
 * bpRefundRequest, after settlement only, under a new order id of its own, once per order id. The
 * other published operations (bpRefundVerifyRequest, bpRefundInquiryRequest, the charge, dynamic,
 * POS and card refunds) answer a SOAP Fault: no reference we read calls them for an IPG sale, and
 * Dargah does not. Each operation on a sale happens once per operation key (the X-Operation-Key
 * header, the simulator's own bookkeeping: Behpardakht ignores it); a repeat answers Behpardakht's
 * "already" code (43 verified, 45 settled, 48 reversed). The fault switches apply as on the SEP side
 * (faults.ts), an error answering a SOAP Fault with HTTP 500 (the token request: ResCode 34, "system
 * error"). A sale nobody verified is reversed by the bank itself after the PSP's 20 minutes
 * (server.ts's sweep, BANK_SIM_AUTO_REVERSE_SECONDS); a verified sale nobody settled is settled by
 * itself after its 180 (autoSettleSeconds here, BANK_SIM_AUTO_SETTLE_SECONDS).
 */
import { httpUrl, openSale } from '../../bank-sim/sale.ts';
import { randomBytes, randomInt } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { PageDialect } from '../../bank-sim/customer-page.ts';
import { answerLate, dropConnection, hang, type FaultSwitches, type VerifyOperation } from '../../bank-sim/faults.ts';
import { readBody } from '../../bank-sim/http.ts';
import { digits, now, type Ledger, type Transaction } from '../../bank-sim/ledger.ts';
import {
  MELLAT_INTERFACE_QUERY,
  MELLAT_NAMESPACE,
  MELLAT_OPERATIONS,
  mellatInterfaceWsdl,
  mellatServiceWsdl,
} from './simulator-wsdl.ts';
import { confirmOnce, reverseOnce, settleOnce } from '../../bank-sim/operations.ts';
import { redirectAllowed, type ProtocolOptions } from '../../bank-sim/simulator-protocol.ts';
import type { SimulatorProtocol } from '../../bank-sim/simulator-protocol.ts';
import { readSoapCall, soapAnswer, soapFault } from '../../bank-sim/soap-envelope.ts';

export const MELLAT_SERVICE_PATH = '/pgwchannel/services/pgw';

/** Behpardakht's codes the simulator answers (the gateway's table is src/psps/mellat/mapping.ts). */
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
  NOT_SETTLED: 46,
  REVERSED: 48,
  /** Not Behpardakht's: the simulator's "delay in verification" (docs/psps/mellat.md#the-simulator). */
  IN_PROGRESS: 100,
} as const;

/** Mellat's page: a POST of RefId to /pgwchannel/startpay.mellat, the choice to /pgwchannel/pay, Behpardakht's return fields. */
export const MELLAT_PAGE: PageDialect = {
  pagePath: '/pgwchannel/startpay.mellat',
  pageMethod: 'POST',
  choicePath: '/pgwchannel/pay',
  tokenField: 'RefId',
  // SaleReferenceId is a long on the wire: no leading zero, or it would not read back the same.
  paidNumbers: () => ({ ref_num: `${randomInt(1, 10)}${digits(11)}`, rrn: digits(12), trace_no: digits(6) }),
  defaultCard: '6104331234567890',
  callbackFields(txn, amount): Record<string, string> {
    const ok = txn.outcome === 'success' || txn.outcome === 'delay';
    // A paid sale's return names its reference, card and amount (return-paid.json); a canceled or
    // failed one carries RefId, ResCode and SaleOrderId alone (return-canceled.json, return-failed.json).
    if (!ok)
      return {
        RefId: txn.token,
        ResCode: String(txn.outcome === 'cancel' ? CODE.CANCELED : CODE.INSUFFICIENT_FUNDS),
        SaleOrderId: txn.res_num,
      };
    return {
      RefId: txn.token,
      ResCode: String(CODE.OK),
      SaleOrderId: txn.res_num,
      SaleReferenceId: txn.ref_num ?? '',
      CardHolderInfo: '',
      CardHolderPan: txn.card_pan ?? '',
      FinalAmount: String(amount),
    };
  },
};

export interface MellatOptions extends ProtocolOptions {
  /** The terminal's user name, checked with its password on every call. */
  userName: string;
  /** A verified sale nobody settled is settled by the bank itself this many seconds after its verify (Behpardakht: 180 minutes); 0 never. */
  autoSettleSeconds?: number;
}

type Args = Record<string, string>;
/** What a call answers: a `return` value, a SOAP Fault, or nothing (the fault switch dropped or holds the connection). */
type Reply = { value: string } | { fault: string } | { none: true };
const value = (code: number, ...rest: (string | number)[]): Reply => ({ value: [code, ...rest].join(',') });

/** Serves the SOAP service on `server`, ahead of the simulator's other routes (the page, the admin endpoints). */
export function listenMellat(
  server: Server,
  { ledger, faults, options }: { ledger: Ledger; faults: FaultSwitches; options: MellatOptions },
): void {
  const terminalError = (args: Args): number | undefined => {
    if (args.terminalId !== options.terminalId) return CODE.INVALID_MERCHANT;
    if (args.userName !== options.userName || (options.password !== '' && args.userPassword !== options.password))
      return CODE.INVALID_USER;
    return undefined;
  };

  const bpPayRequest = (args: Args, req: IncomingMessage, res: ServerResponse): Reply => {
    // A token the caller never gets is not made; an error is Behpardakht's "system error" code.
    const fault = faults.take('token');
    if (fault === 'slow') answerLate(res);
    if (fault === 'down') return unanswered(res, dropConnection);
    if (fault === 'timeout') return unanswered(res, hang);
    if (fault === 'error') return value(CODE.SYSTEM_ERROR);
    const refused = terminalError(args);
    if (refused !== undefined) return value(refused);
    const amount = Number(args.amount);
    const orderId = args.orderId ?? '';
    const redirect = httpUrl(args.callBackUrl ?? '');
    if (!Number.isSafeInteger(amount) || amount <= 0) return value(CODE.INVALID_AMOUNT);
    if (!/^[1-9][0-9]{0,18}$/.test(orderId) || redirect === undefined || !/^https?:$/.test(redirect.protocol))
      return value(CODE.INVALID_DATA);
    // Only back to the merchant's gateway: the page's form and callback_repeat go to this address.
    if (!redirectAllowed(redirect, options.redirectOrigins)) return value(CODE.INVALID_MERCHANT);
    // One RefId per order id: a retried request answers the same RefId; an order id already used is a duplicate.
    const earlier = ledger.byResNum(orderId);
    const open = earlier.find((t) => t.amount === amount && t.outcome === undefined);
    if (open !== undefined) return value(CODE.OK, open.token);
    if (earlier.length > 0 || refundOrders().has(orderId)) return value(CODE.DUPLICATE_ORDER);
    const txn = openSale(ledger, {
      token: randomBytes(8).toString('hex').toUpperCase(),
      terminal: options.terminalId,
      amount,
      resNum: orderId,
      redirectUrl: redirect,
      operationKey: String(req.headers['x-operation-key'] ?? ''),
    });
    return value(CODE.OK, txn.token);
  };

  /** The paid sale a call names: Behpardakht finds it by saleOrderId and saleReferenceId, on our terminal. */
  const sale = (args: Args): Transaction | undefined => {
    const txn = ledger.byRef(args.saleReferenceId ?? '');
    if (txn === undefined || txn.res_num !== args.saleOrderId || txn.terminal !== options.terminalId) return undefined;
    return txn.outcome === 'success' || txn.outcome === 'delay' ? txn : undefined;
  };

  const verify = (txn: Transaction | undefined, key: string) => {
    const work = () => confirmOnce(ledger, txn, key, options.delaySeconds);
    const reply = (): Reply => {
      if (txn === undefined) return value(CODE.NOT_FOUND);
      if (txn.reversed_at !== undefined) return value(CODE.REVERSED);
      const before = txn.confirmed_at;
      work();
      if (txn.confirmed_at === undefined) return value(CODE.IN_PROGRESS);
      // The code alone, as Behpardakht answers (verify-answer-ok.json): no amount, RRN or card.
      return value(before === undefined ? CODE.OK : CODE.ALREADY_VERIFIED);
    };
    return { work, reply };
  };

  const settle = (txn: Transaction | undefined, key: string) => {
    const work = () => settleOnce(ledger, txn, key);
    const reply = (): Reply => {
      if (txn === undefined) return value(CODE.NOT_FOUND);
      if (txn.reversed_at !== undefined) return value(CODE.REVERSED);
      if (txn.confirmed_at === undefined) return value(CODE.NOT_VERIFIED);
      const before = txn.settled_at;
      work();
      return value(before === undefined ? CODE.OK : CODE.ALREADY_SETTLED);
    };
    return { work, reply };
  };

  const reverse = (txn: Transaction | undefined, key: string) => {
    const work = () => reverseOnce(ledger, txn, key);
    const reply = (): Reply => {
      if (txn === undefined) return value(CODE.NOT_FOUND);
      // A settled sale is the merchant's: only a refund gives it back (reversal-answer-settled.json).
      if (txn.settled_at !== undefined) return value(CODE.ALREADY_SETTLED);
      const before = txn.reversed_at;
      work();
      return value(before === undefined ? CODE.OK : CODE.REVERSED);
    };
    return { work, reply };
  };

  /**
   * Every refund's order id at this terminal (a refund's key in its sale's `refunds`): an order id is
   * used once, by a sale or a refund. Read from the ledger once, then kept as refunds are made, so a
   * token request does not walk every transaction.
   */
  let refundOrderIds: Set<string> | undefined;
  const refundOrders = () => (refundOrderIds ??= new Set(ledger.all().flatMap((t) => Object.keys(t.refunds))));

  /**
   * bpRefundRequest: `refundAmount` of a settled sale back to its card, under the refund's own new
   * order id (`orderId`). 46 before settlement, 48 after a reversal, 25 for an amount that is not a
   * whole positive number or more than is left, 41 for an order id used before (so a refund's order
   * id does its work once); otherwise "0,<refund reference>".
   */
  const refund = (args: Args, txn: Transaction | undefined, key: string) => {
    const orderId = args.orderId ?? '';
    const amount = Number(args.refundAmount);
    const refused = (): Reply | undefined => {
      if (txn === undefined) return value(CODE.NOT_FOUND);
      if (txn.reversed_at !== undefined) return value(CODE.REVERSED);
      if (txn.settled_at === undefined) return value(CODE.NOT_SETTLED);
      if (!/^[1-9][0-9]{0,18}$/.test(orderId)) return value(CODE.INVALID_DATA);
      if (ledger.byResNum(orderId).length > 0 || refundOrders().has(orderId)) return value(CODE.DUPLICATE_ORDER);
      const refunded = Object.values(txn.refunds).reduce((a, b) => a + b, 0);
      if (!Number.isSafeInteger(amount) || amount <= 0 || refunded + amount > txn.amount)
        return value(CODE.INVALID_AMOUNT);
      return undefined;
    };
    const work = () => {
      if (txn === undefined || refused() !== undefined) return;
      txn.refunds[orderId] = amount;
      refundOrders().add(orderId);
      ledger.changed(txn);
      ledger.record({
        kind: 'refund',
        operation_key: key,
        res_num: txn.res_num,
        ref_num: txn.ref_num ?? null,
        amount,
        at: now(),
      });
    };
    const reply = (): Reply => {
      const no = refused();
      if (no !== undefined) return no;
      work();
      return value(CODE.OK, `${randomInt(1, 10)}${digits(11)}`);
    };
    return { work, reply };
  };

  /**
   * A call on a sale under its fault switch: an error is a SOAP Fault (HTTP 500), "unknown" the code
   * for a sale not found, "in progress" (verify only) 100, a timeout does the work and never answers.
   */
  const switched =
    (
      operation: VerifyOperation,
      call: (txn: Transaction | undefined, key: string, args: Args) => { work: () => void; reply: () => Reply },
    ) =>
    (args: Args, req: IncomingMessage, res: ServerResponse): Reply => {
      const refused = terminalError(args);
      if (refused !== undefined) return value(refused);
      const txn = sale(args);
      const { work, reply } = call(
        txn,
        String(req.headers['x-operation-key'] ?? '') || `${operation}:${args.orderId ?? ''}`,
        args,
      );
      const fault = faults.take(operation);
      if (fault === 'slow') answerLate(res);
      if (fault === 'down') return unanswered(res, dropConnection);
      if (fault === 'error') return { fault: 'service unavailable' };
      if (fault === 'unknown') return value(CODE.NOT_FOUND);
      if (fault === 'in_progress') return value(CODE.IN_PROGRESS);
      if (fault === 'timeout') {
        work();
        return unanswered(res, hang);
      }
      return reply();
    };

  /**
   * bpInquiryRequest of a sale by saleOrderId and saleReferenceId; changes nothing. 0: the sale was
   * verified and stands (inquiry-answer-ok.json); 48 reversed; 44 paid and not verified; 42 no such
   * sale (a canceled or failed payment has no reference, so it is never one).
   */
  const bpInquiryRequest = (args: Args): Reply => {
    const refused = terminalError(args);
    if (refused !== undefined) return value(refused);
    const txn = sale(args);
    if (txn === undefined) return value(CODE.NOT_FOUND);
    if (txn.reversed_at !== undefined) return value(CODE.REVERSED);
    return value(txn.confirmed_at === undefined ? CODE.NOT_VERIFIED : CODE.OK);
  };

  const implemented: Record<string, (args: Args, req: IncomingMessage, res: ServerResponse) => Reply> = {
    bpPayRequest,
    bpVerifyRequest: switched('confirm', verify),
    bpSettleRequest: switched('settle', settle),
    bpReversalRequest: switched('reverse', reverse),
    bpRefundRequest: switched('refund', (txn, key, args) => refund(args, txn, key)),
    bpInquiryRequest: (args) => bpInquiryRequest(args),
  };

  const respond = (res: ServerResponse, status: number, xml: string) => {
    res.writeHead(status, { 'content-type': 'text/xml; charset=utf-8', 'cache-control': 'no-store' });
    res.end(xml);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    if (req.method === 'GET') {
      // The service document's addresses are the caller's own view of this server (its Host).
      if (url.search === `?${MELLAT_INTERFACE_QUERY}`) return respond(res, 200, mellatInterfaceWsdl());
      if (url.search === '?wsdl' || url.search === '?WSDL')
        return respond(res, 200, mellatServiceWsdl(`http://${req.headers.host ?? '127.0.0.1'}${MELLAT_SERVICE_PATH}`));
      return respond(res, 404, soapFault('soap:Client', 'no such document'));
    }
    if (req.method !== 'POST') return respond(res, 405, soapFault('soap:Client', 'POST a SOAP envelope'));
    const call = readSoapCall(await readBody(req));
    if (call === undefined || call.namespace !== MELLAT_NAMESPACE || MELLAT_OPERATIONS[call.operation] === undefined) {
      return respond(res, 500, soapFault('soap:Client', 'Unexpected wrapper element'));
    }
    const published = MELLAT_OPERATIONS[call.operation]!;
    const args: Args = Object.fromEntries(call.parameters);
    // Strict where the PSP's schema is: a long that is not a whole number does not unmarshal.
    for (const [name, type] of published) {
      if (type === 'long' && args[name] !== undefined && !/^-?[0-9]{1,19}$/.test(args[name].trim()))
        return respond(res, 500, soapFault('soap:Client', `Unmarshalling Error: ${name} is not a long`));
      if (type === 'long' && args[name] !== undefined) args[name] = args[name].trim().replace(/^(-?)0+(?=[0-9])/, '$1');
    }
    const operation = implemented[call.operation];
    if (operation === undefined)
      return respond(res, 500, soapFault('soap:Server', `${call.operation} is not simulated`));
    const reply = operation(args, req, res);
    if ('none' in reply) return;
    if ('fault' in reply) return respond(res, 500, soapFault('soap:Server', reply.fault));
    respond(res, 200, soapAnswer(call.operation, MELLAT_NAMESPACE, reply.value));
  };

  // The service's path first; every other request goes on to the simulator's own handler.
  const others = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://bank');
    if (url.pathname !== MELLAT_SERVICE_PATH) {
      for (const listener of others) listener(req, res);
      return;
    }
    handle(req, res, url).catch(() => {
      if (!res.headersSent) respond(res, 500, soapFault('soap:Client', 'bad request'));
      else res.end();
    });
  });

  /** Settles, as Behpardakht does by itself, verified sales nobody settled or reversed in time. */
  const autoSettleMs = (options.autoSettleSeconds ?? 3 * 60 * 60) * 1000;
  if (autoSettleMs > 0) {
    const sweep = setInterval(
      () => {
        const cutoff = Date.now() - autoSettleMs;
        for (const txn of ledger.all()) {
          if (
            txn.confirmed_at === undefined ||
            txn.settled_at !== undefined ||
            txn.reversed_at !== undefined ||
            Date.parse(txn.confirmed_at) > cutoff
          )
            continue;
          settleOnce(ledger, txn, `auto-settle:${txn.ref_num ?? txn.token}`);
        }
      },
      Math.min(60_000, Math.max(250, autoSettleMs / 4)),
    );
    sweep.unref();
    server.on('close', () => clearInterval(sweep));
  }
}

/** A call left without an answer (`fault` drops or holds its connection). */
function unanswered(res: ServerResponse, fault: (res: ServerResponse) => void): Reply {
  fault(res);
  return { none: true };
}

/** Mellat's simulator: its SOAP service on the server (listenMellat) and its page (MELLAT_PAGE); no routes of its own. */
export const MELLAT_SIMULATOR: SimulatorProtocol = {
  name: 'mellat',
  title: "Behpardakht Mellat's SOAP IPG",
  defaults: { port: 3101, terminalId: '55667788', autoReverseSeconds: 1200, settings: { USERNAME: 'dargah' } },
  page: MELLAT_PAGE,
  listen: (server, { ledger, faults, options }) =>
    listenMellat(server, {
      ledger,
      faults,
      options: { ...options, userName: options.userName ?? options.settings?.USERNAME ?? '' },
    }),
};
