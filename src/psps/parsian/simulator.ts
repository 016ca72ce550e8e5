/**
 * The simulator's Parsian protocol (BANK_SIM_PROTOCOL=parsian): PEC's IPG as the conformance corpus
 * shows it (test/fixtures/psps/parsian/, docs/psps/parsian.md), not as our connector happens to speak
 * it. Three SOAP 1.1 services, each with its WSDL at ?wsdl (simulator-wsdl.ts), read by hand
 * (soap-envelope.ts) and answered with envelopes of the corpus's shape, `<{op}Response>` holding
 * `<{op}Result>` in the service's namespace; and the payment page at GET /NewIPG/?Token=….
 *
 *   SalePaymentRequest  a Token for an order id never used before at this terminal (-112 for one used,
 *                       as PEC "checks the order id's uniqueness"), -126 for another PIN, -127 for a
 *                       CallBackUrl that is not the gateway's
 *   ConfirmPayment      0 with RRN and CardNumberMasked, once; -1533 after (without them); -1528 for a
 *                       Token it does not know; -1531 for one not paid or reversed; 9 while its "delay
 *                       in verification" lasts (the switch's "request in progress", the one such code
 *                       in PEC's table)
 *   ReversalRequest     0 once, -1551 after; -1550 for a Token not paid; -1549 once the reversal window
 *                       after the confirm has passed (reversalWindowSeconds, 3000 s by default: PEC says
 *                       only "before the end of the day", the simulator keeps Dargah's assumed 50 minutes)
 *
 * Each operation on a transaction happens once per operation key (the X-Operation-Key header, the
 * simulator's own bookkeeping: PEC ignores it). The fault switches apply as on the other protocols
 * (faults.ts): an `error` is a SOAP Fault with HTTP 500 (the token request: Status -1, PEC's "server
 * error"), `unknown` -1528, `in_progress` 9. A payment nobody confirmed is given back by the bank
 * itself after BANK_SIM_AUTO_REVERSE_SECONDS (server.ts's sweep; the profile's 20 minutes, which no
 * reference settles). No settle, inquiry or refund: PEC has none a reference shows.
 */
import { httpUrl, openSale } from '../../bank-sim/sale.ts';
import { createHash, randomInt } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { PageDialect } from '../../bank-sim/customer-page.ts';
import { answerLate, dropConnection, hang, type FaultSwitches } from '../../bank-sim/faults.ts';
import { readBody } from '../../bank-sim/http.ts';
import { digits, type Ledger, type Transaction } from '../../bank-sim/ledger.ts';
import { confirmOnce, reverseOnce } from '../../bank-sim/operations.ts';
import {
  PARSIAN_CONFIRM,
  PARSIAN_REVERSAL,
  PARSIAN_SALE,
  PARSIAN_SERVICES,
  parsianAnswer,
  parsianWsdl,
  type ParsianService,
} from './simulator-wsdl.ts';
import { redirectAllowed, type ProtocolOptions } from '../../bank-sim/simulator-protocol.ts';
import type { SimulatorProtocol } from '../../bank-sim/simulator-protocol.ts';
import { readSoapCall, soapFault } from '../../bank-sim/soap-envelope.ts';

/** PEC's Status values the simulator answers (the gateway's table is src/psps/parsian/mapping.ts). */
const STATUS = {
  OK: 0,
  SERVER_ERROR: -1,
  IN_PROGRESS: 9,
  INSUFFICIENT_FUNDS: 51,
  ORDER_ID_DUPLICATED: -112,
  VALUE_NOT_NUMERIC: -118,
  INVALID_PIN: -126,
  INVALID_ADDRESS: -127,
  MINIMUM_AMOUNT: -132,
  CANCELED_BY_USER: -138,
  INFO_NOT_FOUND: -1528,
  CANNOT_CONFIRM_UNSUCCESSFUL: -1531,
  ALREADY_CONFIRMED: -1533,
  REVERSAL_TIME_EXCEEDED: -1549,
  NOT_REVERSIBLE_NOW: -1550,
  ALREADY_REVERSED: -1551,
} as const;

const MESSAGES: Partial<Record<number, string>> = {
  [STATUS.SERVER_ERROR]: 'خطای سرور',
  [STATUS.ORDER_ID_DUPLICATED]: 'شماره سفارش تکراری است',
  [STATUS.VALUE_NOT_NUMERIC]: 'مقدار ارسال شده عدد نمی باشد',
  [STATUS.INVALID_PIN]: 'کد شناسایی پذیرنده معتبر نمی باشد',
  [STATUS.INVALID_ADDRESS]: 'آدرس اینترنتی معتبر نمی باشد',
  [STATUS.MINIMUM_AMOUNT]: 'مبلغ تراکنش کمتر از حداقل مجاز میباشد',
  [STATUS.ALREADY_REVERSED]: 'برگشت تراکنش قبلاً انجام شده است',
  [STATUS.REVERSAL_TIME_EXCEEDED]: 'زمان مجاز برای درخواست برگشت تراکنش به اتمام رسیده است',
  [STATUS.NOT_REVERSIBLE_NOW]: 'برگشت تراکنش در وضعیت جاری امکان پذیر نمی باشد',
};

/** A PEC long: digits with no leading zero (a Token, an RRN), `n` of them. */
const long = (n: number) => `${randomInt(1, 10)}${digits(n - 1)}`;

/** PEC's page: GET /NewIPG/?Token=…, the choice to /NewIPG/pay (the simulator's own), PEC's return fields (the corpus's return-*.json). */
export const PARSIAN_PAGE: PageDialect = {
  pagePath: '/NewIPG/',
  pageMethod: 'GET',
  choicePath: '/NewIPG/pay',
  tokenField: 'Token',
  // The RRN is the simulator's reference of a paid transaction too: a long, 12 digits.
  paidNumbers: () => {
    const rrn = long(12);
    return { ref_num: rrn, rrn, trace_no: digits(6) };
  },
  // A Parsian card (its BIN 622106), Luhn-valid.
  defaultCard: '6221061234567891',
  callbackFields(txn, amount): Record<string, string> {
    const paid = txn.outcome === 'success' || txn.outcome === 'delay';
    const status = paid ? STATUS.OK : txn.outcome === 'cancel' ? STATUS.CANCELED_BY_USER : STATUS.INSUFFICIENT_FUNDS;
    // The document's seven fields, paid or not (return-paid.json, return-canceled.json, return-failed.json).
    return {
      Token: txn.token,
      status: String(status),
      OrderId: txn.res_num,
      TerminalNo: txn.terminal,
      Amount: String(amount),
      RRN: paid ? (txn.rrn ?? '0') : '0',
      // What PEC hashes no reference says: the simulator's is the SHA-256 of the masked card, upper-case hex.
      HashCardNumber:
        paid && txn.card_pan !== undefined ? createHash('sha256').update(txn.card_pan).digest('hex').toUpperCase() : '',
    };
  },
};

/** The simulator's options for PEC: the PIN is `password` ('' accepts any LoginAccount). */
export type ParsianOptions = ProtocolOptions;

type Fields = Record<string, string>;
/** What a call answers: its Result's fields, a SOAP Fault, or nothing (the fault switch dropped or holds the connection). */
type Reply = { result: Record<string, string | number | undefined> } | { fault: string } | { none: true };
const status = (code: number, more: Record<string, string | number | undefined> = {}): Reply => ({
  result: { Status: code, Message: MESSAGES[code], ...more },
});

/** Serves PEC's three services on `server`, ahead of the simulator's other routes (the page, the admin endpoints). */
export function listenParsian(
  server: Server,
  { ledger, faults, options }: { ledger: Ledger; faults: FaultSwitches; options: ParsianOptions },
): void {
  const pinMatches = (fields: Fields) => options.password === '' || fields.LoginAccount === options.password;
  const reversalWindowMs = (options.reversalWindowSeconds ?? 3000) * 1000;

  const salePaymentRequest = (fields: Fields, req: IncomingMessage, res: ServerResponse): Reply => {
    // A token the caller never gets is not made; an error is PEC's "server error".
    const fault = faults.take('token');
    if (fault === 'slow') answerLate(res);
    if (fault === 'down') return unanswered(res, dropConnection);
    if (fault === 'timeout') return unanswered(res, hang);
    const refused = (code: number) => status(code, { Token: 0 });
    if (fault === 'error') return refused(STATUS.SERVER_ERROR);
    if (!pinMatches(fields)) return refused(STATUS.INVALID_PIN);
    const amount = Number(fields.Amount);
    const orderId = fields.OrderId ?? '';
    const redirect = httpUrl(fields.CallBackUrl ?? '');
    if (!/^[1-9][0-9]{0,18}$/.test(orderId) || !/^[0-9]{1,19}$/.test(fields.Amount ?? ''))
      return refused(STATUS.VALUE_NOT_NUMERIC);
    if (!Number.isSafeInteger(amount) || amount < 1000) return refused(STATUS.MINIMUM_AMOUNT);
    // Only back to the merchant's gateway: the page's form and callback_repeat go to this address.
    if (
      redirect === undefined ||
      !/^https?:$/.test(redirect.protocol) ||
      !redirectAllowed(redirect, options.redirectOrigins)
    )
      return refused(STATUS.INVALID_ADDRESS);
    // "Its uniqueness is checked by the bank": an order id is used once, whatever became of it.
    if (ledger.byResNum(orderId).length > 0) return refused(STATUS.ORDER_ID_DUPLICATED);
    const txn = openSale(ledger, {
      token: long(12),
      terminal: options.terminalId,
      amount,
      resNum: orderId,
      redirectUrl: redirect,
      operationKey: String(req.headers['x-operation-key'] ?? ''),
    });
    // Token and Status (token-answer-ok.json): no Message on success.
    return { result: { Token: txn.token, Status: STATUS.OK } };
  };

  const paid = (txn: Transaction | undefined) => txn?.outcome === 'success' || txn?.outcome === 'delay';

  const confirmPayment = (txn: Transaction | undefined, key: string) => {
    const work = () => (paid(txn) ? confirmOnce(ledger, txn, key, options.delaySeconds) : undefined);
    const reply = (): Reply => {
      if (txn === undefined) return status(STATUS.INFO_NOT_FOUND, { RRN: 0, Token: 0 });
      if (!paid(txn) || txn.reversed_at !== undefined)
        return status(STATUS.CANNOT_CONFIRM_UNSUCCESSFUL, { RRN: 0, Token: txn.token });
      const before = txn.confirmed_at;
      work();
      if (txn.confirmed_at === undefined) return status(STATUS.IN_PROGRESS, { RRN: 0, Token: txn.token });
      // Confirmed now: the RRN and the masked card (verify-answer-ok.json); before: the Status alone (verify-answer-confirmed-before.json).
      if (before !== undefined) return status(STATUS.ALREADY_CONFIRMED, { RRN: 0, Token: txn.token });
      return status(STATUS.OK, { CardNumberMasked: txn.card_pan, RRN: txn.rrn, Token: txn.token });
    };
    return { work, reply };
  };

  const reversalRequest = (txn: Transaction | undefined, key: string) => {
    const late =
      txn?.confirmed_at !== undefined &&
      txn.reversed_at === undefined &&
      reversalWindowMs > 0 &&
      Date.now() - Date.parse(txn.confirmed_at) > reversalWindowMs;
    const work = () => (paid(txn) && !late ? reverseOnce(ledger, txn, key) : undefined);
    const reply = (): Reply => {
      if (txn === undefined) return status(STATUS.INFO_NOT_FOUND, { Token: 0 });
      if (!paid(txn)) return status(STATUS.NOT_REVERSIBLE_NOW, { Token: txn.token });
      if (txn.reversed_at !== undefined) return status(STATUS.ALREADY_REVERSED, { Token: txn.token });
      if (late) return status(STATUS.REVERSAL_TIME_EXCEEDED, { Token: txn.token });
      work();
      return status(STATUS.OK, { Token: txn.token });
    };
    return { work, reply };
  };

  /**
   * A call on a transaction (by its Token) under its fault switch: an error is a SOAP Fault (HTTP 500),
   * "unknown" -1528, "in progress" (confirm only) 9, a timeout does the work and never answers.
   */
  const switched =
    (
      operation: 'confirm' | 'reverse',
      call: (txn: Transaction | undefined, key: string) => { work: () => void; reply: () => Reply },
    ) =>
    (fields: Fields, req: IncomingMessage, res: ServerResponse): Reply => {
      if (!pinMatches(fields)) return status(STATUS.INVALID_PIN, { Token: 0 });
      const txn = ledger.byToken(fields.Token ?? '');
      const mine = txn?.terminal === options.terminalId ? txn : undefined;
      const { work, reply } = call(
        mine,
        String(req.headers['x-operation-key'] ?? '') || `${operation}:${fields.Token ?? ''}`,
      );
      const fault = faults.take(operation);
      if (fault === 'slow') answerLate(res);
      if (fault === 'down') return unanswered(res, dropConnection);
      if (fault === 'error') return { fault: 'Server was unable to process request.' };
      if (fault === 'unknown')
        return status(STATUS.INFO_NOT_FOUND, { RRN: operation === 'confirm' ? 0 : undefined, Token: 0 });
      if (fault === 'in_progress') return status(STATUS.IN_PROGRESS, { RRN: 0, Token: mine?.token ?? 0 });
      if (fault === 'timeout') {
        work();
        return unanswered(res, hang);
      }
      return reply();
    };

  const operations = new Map<ParsianService, (fields: Fields, req: IncomingMessage, res: ServerResponse) => Reply>([
    [PARSIAN_SALE, salePaymentRequest],
    [PARSIAN_CONFIRM, switched('confirm', confirmPayment)],
    [PARSIAN_REVERSAL, switched('reverse', reversalRequest)],
  ]);

  const respond = (res: ServerResponse, code: number, xml: string) => {
    res.writeHead(code, { 'content-type': 'text/xml; charset=utf-8', 'cache-control': 'no-store' });
    res.end(xml);
  };

  const handle = async (
    service: ParsianService,
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
  ): Promise<void> => {
    if (req.method === 'GET') {
      // The WSDL's address is the caller's own view of this server (its Host).
      if (url.search.toLowerCase() === '?wsdl')
        return respond(res, 200, parsianWsdl(service, `http://${req.headers.host ?? '127.0.0.1'}${service.path}`));
      return respond(res, 404, soapFault('soap:Client', 'no such document'));
    }
    if (req.method !== 'POST') return respond(res, 405, soapFault('soap:Client', 'POST a SOAP envelope'));
    const call = readSoapCall(await readBody(req));
    if (call === undefined || call.operation !== service.operation || call.namespace !== service.namespace) {
      return respond(
        res,
        500,
        soapFault('soap:Client', 'Server did not recognize the value of HTTP Header SOAPAction or the body element.'),
      );
    }
    const fields: Fields = Object.fromEntries(call.parameters.map(([name, value]) => [name, value.trim()]));
    // Strict where the schema is: a long that is not a whole number does not deserialize.
    for (const [name, type] of service.request.fields) {
      if (type === 'long' && fields[name] !== undefined && !/^-?[0-9]{1,19}$/.test(fields[name]))
        return respond(res, 500, soapFault('soap:Client', `Server was unable to read request. ${name} is not a long.`));
      if (type === 'long' && fields[name] !== undefined) fields[name] = fields[name].replace(/^(-?)0+(?=[0-9])/, '$1');
    }
    const reply = operations.get(service)!(fields, req, res);
    if ('none' in reply) return;
    if ('fault' in reply) return respond(res, 500, soapFault('soap:Server', reply.fault));
    respond(res, 200, parsianAnswer(service, reply.result));
  };

  // The services' paths first; every other request goes on to the simulator's own handler.
  const others = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://bank');
    const service = PARSIAN_SERVICES.find((s) => s.path.toLowerCase() === url.pathname.toLowerCase());
    if (service === undefined) {
      for (const listener of others) listener(req, res);
      return;
    }
    handle(service, req, res, url).catch(() => {
      if (!res.headersSent) respond(res, 500, soapFault('soap:Client', 'bad request'));
      else res.end();
    });
  });
}

/** A call left without an answer (`fault` drops or holds its connection). */
function unanswered(res: ServerResponse, fault: (res: ServerResponse) => void): Reply {
  fault(res);
  return { none: true };
}

/** Parsian's (PEC's) SOAP IPG in the simulator's table of protocols (protocols.ts): its PIN is the gateway's SANDBOX_PARSIAN_PIN, given as BANK_SIM_PIN. */
export const PARSIAN_SIMULATOR: SimulatorProtocol = {
  name: 'parsian',
  title: "Parsian's (PEC's) SOAP IPG",
  defaults: { port: 3104, terminalId: '77889900', autoReverseSeconds: 1200, settings: {}, secretSettings: ['PIN'] },
  page: PARSIAN_PAGE,
  listen: (server, { ledger, faults, options }) =>
    listenParsian(server, {
      ledger,
      faults,
      options: { ...options, password: options.settings?.PIN || options.password },
    }),
};
