/**
 * The simulator's protocol of Pasargad (BANK_SIM_PROTOCOL=pasargad): PEP's (Pasargad Electronic
 * Payment's) current REST IPG, the "Dorsa" API, as its conformance corpus shows it
 * (test/fixtures/psps/pasargad/, docs/psps/pasargad.md), not as our connector happens to speak it:
 *
 *   POST /token/getToken                    {username, password} → {resultMsg, resultCode 0, token, username, …}
 *   POST /api/payment/purchase              {invoice, invoiceDate, amount, callbackApi, serviceCode 8,
 *                                            serviceType PURCHASE, terminalNumber} → {resultMsg, resultCode, data {urlId, url}}
 *   GET  /{urlId}                           the page (customer-page.ts with PASARGAD_PAGE), its return a GET
 *                                            of callbackApi?invoiceId&status[&referenceNumber&trackId]
 *   POST /api/payment/payment-inquiry       {invoiceId} → {resultMsg, resultCode, data {status, trackId, transactionId,
 *                                            amount, cardNumber, invoice, url, referenceNumber, requestDate}}
 *   POST /api/payment/confirm-transactions  {invoice, urlId} → {resultMsg, resultCode, data {invoice, referenceNumber,
 *                                            trackId, maskedCardNumber, hashedCardNumber, requestDate, amount}}
 *   POST /api/payment/reverse-transactions  {invoice, urlId} → {resultMsg, resultCode}
 *
 * Every call but getToken wants a bearer token getToken gave (10 minutes, PEP's document): without one it
 * answers HTTP 401. Lenient where PEP's clients differ (the corpus's disagreements): a path's and a
 * field's case, numbers as strings. Strict where PEP is: the user name and password (401), the terminal
 * (13399), a repeated invoice (13003), a callback outside the gateway's origins (13028), an amount that is
 * not a whole positive number (13055).
 *
 * The inquiry's status of a transaction: 0 paid and not confirmed (shetabit/multipay's reading), 13029
 * confirmed, 13033 reversed, 2 while a "delay in verification" lasts, and, for what no source shows,
 * PEP's table's meanings: 13049 incomplete (the customer has not chosen), 13025 failed, 13045 canceled.
 * A confirm happens once: the first answers 0 with the detail, a repeat 13428 ("already verified"); a
 * confirm of a transaction given back answers 13033. A reversal of a paid, unconfirmed transaction
 * answers 0, a repeat 13033, and one of a confirmed transaction 13076 (PEP's usage guide: after the
 * confirm nothing is reversed). A paid transaction nobody confirms is given back by the bank itself
 * after the profile's 10 minutes (server.ts's sweep, BANK_SIM_AUTO_REVERSE_SECONDS). The fault switches:
 * `token` on the purchase, `confirm` on the inquiry (with `unknown`: 13016, `in_progress`: status 2,
 * `other_amount`: the amount named larger), `settle` on confirm-transactions and `reverse` on
 * reverse-transactions; `error` is an HTTP 500 (server-error.json).
 */
import { openSale, returnAddress } from '../../bank-sim/sale.ts';
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { PageDialect } from '../../bank-sim/customer-page.ts';
import { answerLate, dropConnection, hang, OTHER_AMOUNT_DELTA, type FaultSwitches } from '../../bank-sim/faults.ts';
import { json, readBody, type BankRequest, type Routes } from '../../bank-sim/http.ts';
import { digits, now, type Ledger, type Transaction } from '../../bank-sim/ledger.ts';
import { confirmOnce, reverseOnce } from '../../bank-sim/operations.ts';
import { type SimulatorProtocol } from '../../bank-sim/simulator-protocol.ts';

export const PASARGAD_AUTH_PATH = '/token/getToken';
export const PASARGAD_PURCHASE_PATH = '/api/payment/purchase';
export const PASARGAD_INQUIRY_PATH = '/api/payment/payment-inquiry';
export const PASARGAD_CONFIRM_PATH = '/api/payment/confirm-transactions';
export const PASARGAD_REVERSE_PATH = '/api/payment/reverse-transactions';

/** How long a bearer token getToken gave is taken (PEP's document: 10 minutes). */
const BEARER_TTL_MS = 10 * 60_000;

/** PEP's codes the simulator answers (the gateway's table is src/psps/pasargad/mapping.ts). */
const CODE = {
  OK: 0,
  UNKNOWN: 2,
  NOT_AUTHORIZED: 401,
  INVALID_INPUT: 13000,
  INVOICE_NOT_UNIQUE: 13003,
  NOT_FOUND: 13016,
  UNSUCCESSFUL: 13025,
  INVALID_CALLBACK: 13028,
  CONFIRMED: 13029,
  REVERSED: 13033,
  CANCELED: 13045,
  INCOMPLETE: 13049,
  INVALID_AMOUNT: 13055,
  REVERSE_TIME_EXPIRED: 13076,
  INVALID_INVOICE: 13351,
  TERMINAL_NOT_FOUND: 13399,
  ALREADY_VERIFIED: 13428,
} as const;

/** The English texts of PEP's table (resultMsg). */
const MESSAGE: Record<number, string> = {
  [CODE.OK]: 'Successful',
  [CODE.UNKNOWN]: 'Transaction status is unknown',
  [CODE.NOT_AUTHORIZED]: 'Not authorized',
  [CODE.INVALID_INPUT]: 'Invalid Input',
  [CODE.INVOICE_NOT_UNIQUE]: 'Invoice is not unique',
  [CODE.NOT_FOUND]: 'Transaction not found',
  [CODE.INVALID_CALLBACK]: 'Callback domain is not valid',
  [CODE.REVERSED]: 'Transaction status is reversed',
  [CODE.INVALID_AMOUNT]: 'Invalid transaction amount',
  [CODE.REVERSE_TIME_EXPIRED]: 'Reverse time expire',
  [CODE.INVALID_INVOICE]: 'Invoice format is not valid',
  [CODE.TERMINAL_NOT_FOUND]: 'Invalid Terminal Number',
  [CODE.ALREADY_VERIFIED]: 'Already Verified',
};

/**
 * PEP's page: GET /{urlId} (the purchase's url) leads to the simulator's page of that urlId, the choice
 * to /pep/page/choose, and PEP's return as the corpus shows it: a GET of callbackApi with invoiceId and
 * status (success, failed, cancel), and on a paid one referenceNumber (12 digits, the Shaparak reference)
 * and trackId.
 */
export const PASARGAD_PAGE: PageDialect = {
  pagePath: '/pep/page',
  pageMethod: 'GET',
  choicePath: '/pep/page/choose',
  tokenField: 'urlId',
  returnMethod: 'GET',
  paidNumbers: () => {
    const reference = digits(12);
    return { ref_num: reference, rrn: reference, trace_no: digits(6) };
  },
  // 502229 is Bank Pasargad's card prefix; the rest is a Luhn-valid test number.
  defaultCard: '5022291234567897',
  callbackFields(txn): Record<string, string> {
    if (txn.outcome === 'success' || txn.outcome === 'delay')
      return {
        invoiceId: txn.res_num,
        status: 'success',
        referenceNumber: txn.ref_num ?? '',
        trackId: txn.trace_no ?? '',
      };
    return { invoiceId: txn.res_num, status: txn.outcome === 'cancel' ? 'cancel' : 'failed' };
  },
};

export interface PasargadOptions {
  terminalId: string;
  /** The user name and password getToken takes. */
  userName: string;
  password: string;
  /** "Delay in verification": how long the inquiry of a transaction left in "delay" answers status 2 after the customer's choice. */
  delaySeconds: number;
  redirectOrigins: readonly string[];
}

/** A body as PEP's clients send it, JSON, its keys lower-cased so that a field's case never matters. */
async function readFields(req: BankRequest['req']): Promise<Record<string, unknown>> {
  const raw = JSON.parse(await readBody(req)) as unknown;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('not an object');
  return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k.toLowerCase(), v]));
}

const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v).trim() : '');
/** PEP's requestDate: ISO with milliseconds, no zone (the corpus's). */
const requestDate = (iso: string) => iso.replace(/Z$/, '');

export function pasargadRoutes({
  ledger,
  faults,
  options,
}: {
  ledger: Ledger;
  faults: FaultSwitches;
  options: PasargadOptions;
}): Routes {
  /** The bearer tokens getToken gave, and when each stops being taken. */
  const bearers = new Map<string, number>();
  const answer = (res: ServerResponse, code: number, extra: object = {}) =>
    json(res, 200, { resultMsg: MESSAGE[code] ?? 'Failure', resultCode: code, ...extra });
  const authorized = (req: BankRequest['req']) => {
    const header = text(req.headers.authorization);
    const match = /^bearer\s+(\S+)$/i.exec(header);
    const until = match === null ? undefined : bearers.get(match[1]!);
    return until !== undefined && until > Date.now();
  };
  const operationKey = (req: BankRequest['req'], fallback: string) => text(req.headers['x-operation-key']) || fallback;
  /** A paid transaction of this terminal by its invoice (and urlId, where given). */
  const paidTxn = (invoice: string, urlId?: string): Transaction | undefined => {
    const txn = urlId === undefined ? ledger.byResNum(invoice).at(-1) : ledger.byToken(urlId);
    return txn !== undefined &&
      txn.res_num === invoice &&
      txn.terminal === options.terminalId &&
      (txn.outcome === 'success' || txn.outcome === 'delay')
      ? txn
      : undefined;
  };

  const getToken = async ({ req, res }: BankRequest) => {
    const body = await readFields(req);
    if (text(body.username) !== options.userName || text(body.password) !== options.password)
      return answer(res, CODE.NOT_AUTHORIZED);
    const token = `${randomBytes(18).toString('base64url')}.${randomBytes(18).toString('base64url')}`;
    bearers.set(token, Date.now() + BEARER_TTL_MS);
    for (const [t, until] of bearers) if (until <= Date.now()) bearers.delete(t);
    answer(res, CODE.OK, {
      token,
      username: options.userName,
      firstName: 'Dargah',
      lastName: 'Simulator',
      userId: '10060',
      roles: [{ authority: 'merchant' }],
    });
  };

  const purchase = async ({ req, res }: BankRequest) => {
    if (!authorized(req))
      return json(res, 401, { resultMsg: MESSAGE[CODE.NOT_AUTHORIZED], resultCode: CODE.NOT_AUTHORIZED });
    const body = await readFields(req);
    // A purchase the caller never gets is not made; an error is PEP's server error (server-error.json).
    const fault = faults.take('token');
    if (fault === 'slow') answerLate(res);
    if (fault === 'down') return dropConnection(res);
    if (fault === 'timeout') return hang(res);
    if (fault === 'error') return json(res, 500, null);
    const terminal = text(body.terminalnumber);
    const invoice = text(body.invoice);
    const amount = Number(text(body.amount));
    if (terminal !== options.terminalId) return answer(res, CODE.TERMINAL_NOT_FOUND);
    if (text(body.servicecode) !== '8' || text(body.servicetype) !== 'PURCHASE') return answer(res, CODE.INVALID_INPUT);
    if (!Number.isSafeInteger(amount) || amount <= 0) return answer(res, CODE.INVALID_AMOUNT);
    if (!/^[0-9]{1,19}$/.test(invoice)) return answer(res, CODE.INVALID_INVOICE);
    // Only back to the merchant's gateway: the page's return and callback_repeat go to this address.
    const callback = returnAddress(text(body.callbackapi), options.redirectOrigins);
    if (callback === undefined) return answer(res, CODE.INVALID_CALLBACK);
    // An invoice is used once at a terminal (13003), a retried request included.
    if (ledger.byResNum(invoice).length > 0) return answer(res, CODE.INVOICE_NOT_UNIQUE);
    // The shape of PEP's example: forty hex digits, then fifteen digits (here the terminal's).
    const urlId = `${randomBytes(20).toString('hex')}${terminal.padStart(15, '0')}`;
    openSale(ledger, {
      token: urlId,
      terminal,
      amount,
      resNum: invoice,
      redirectUrl: callback,
      operationKey: operationKey(req, `token:${invoice}`),
    });
    // The url under the address the caller reached: the base address and the urlId, as PEP's.
    answer(res, CODE.OK, { data: { urlId, url: `http://${text(req.headers.host) || '127.0.0.1'}/${urlId}` } });
  };

  /** The purchase's url: the page of its urlId. */
  const page = ({ res, url }: BankRequest) => {
    const urlId = url.pathname.slice(1);
    res.writeHead(303, {
      location: `${PASARGAD_PAGE.pagePath}?${PASARGAD_PAGE.tokenField}=${encodeURIComponent(urlId)}`,
    });
    res.end();
  };

  /** The inquiry's status of a transaction (above); a "delay in verification" answers 2 until it is over. */
  const statusOf = (txn: Transaction): number => {
    if (txn.reversed_at !== undefined) return CODE.REVERSED;
    if (txn.confirmed_at !== undefined) return CODE.CONFIRMED;
    if (txn.outcome === undefined) return CODE.INCOMPLETE;
    if (txn.outcome === 'cancel') return CODE.CANCELED;
    if (txn.outcome === 'failure') return CODE.UNSUCCESSFUL;
    if (txn.outcome === 'delay') {
      const due = Date.parse(txn.chosen_at ?? now()) + options.delaySeconds * 1000;
      if (!txn.answered_in_progress || Date.now() < due) {
        txn.answered_in_progress = true;
        ledger.changed(txn);
        return CODE.UNKNOWN;
      }
    }
    return CODE.OK;
  };

  const inquiry = async ({ req, res }: BankRequest) => {
    if (!authorized(req))
      return json(res, 401, { resultMsg: MESSAGE[CODE.NOT_AUTHORIZED], resultCode: CODE.NOT_AUTHORIZED });
    const body = await readFields(req);
    const invoice = text(body.invoiceid);
    const fault = faults.take('confirm');
    if (fault === 'slow') answerLate(res);
    if (fault === 'down') return dropConnection(res);
    if (fault === 'timeout') return hang(res);
    if (fault === 'error') return json(res, 500, null);
    if (fault === 'unknown') return answer(res, CODE.NOT_FOUND);
    const txn = ledger.byResNum(invoice).find((t) => t.terminal === options.terminalId);
    if (txn === undefined) return answer(res, CODE.NOT_FOUND);
    const status = fault === 'in_progress' ? CODE.UNKNOWN : statusOf(txn);
    answer(res, CODE.OK, {
      data: {
        status,
        trackId: txn.trace_no ?? '',
        transactionId: String(Number.parseInt(txn.token.slice(0, 8), 16) % 1_000_000),
        amount: txn.amount + (fault === 'other_amount' ? OTHER_AMOUNT_DELTA : 0),
        cardNumber: txn.card_pan ?? '',
        invoice: txn.res_num,
        url: txn.token,
        referenceNumber: txn.ref_num ?? '',
        requestDate: requestDate(txn.created_at),
      },
    });
  };

  const confirm = async ({ req, res }: BankRequest) => {
    if (!authorized(req))
      return json(res, 401, { resultMsg: MESSAGE[CODE.NOT_AUTHORIZED], resultCode: CODE.NOT_AUTHORIZED });
    const body = await readFields(req);
    const invoice = text(body.invoice);
    const txn = paidTxn(invoice, text(body.urlid));
    const key = operationKey(req, `confirm:${invoice}`);
    const work = () => confirmOnce(ledger, txn, key, options.delaySeconds);
    const fault = faults.take('settle');
    if (fault === 'slow') answerLate(res);
    if (fault === 'down') return dropConnection(res);
    if (fault === 'error') return json(res, 500, null);
    if (fault === 'unknown') return answer(res, CODE.NOT_FOUND);
    if (fault === 'timeout') {
      work();
      return hang(res);
    }
    if (txn === undefined) return answer(res, CODE.NOT_FOUND);
    // Given back by the bank itself (nobody confirmed it in time), or reversed.
    if (txn.reversed_at !== undefined) return answer(res, CODE.REVERSED);
    if (txn.confirmed_at !== undefined) return answer(res, CODE.ALREADY_VERIFIED);
    work();
    // "Delay in verification" not over: PEP unavailable for a moment.
    if (txn.confirmed_at === undefined) return json(res, 500, null);
    answer(res, CODE.OK, {
      data: {
        invoice: txn.res_num,
        referenceNumber: txn.ref_num ?? '',
        trackId: txn.trace_no ?? '',
        maskedCardNumber: txn.card_pan ?? '',
        hashedCardNumber: txn.card_sha256 ?? '',
        requestDate: requestDate(txn.created_at),
        amount: txn.amount,
      },
    });
  };

  const reverse = async ({ req, res }: BankRequest) => {
    if (!authorized(req))
      return json(res, 401, { resultMsg: MESSAGE[CODE.NOT_AUTHORIZED], resultCode: CODE.NOT_AUTHORIZED });
    const body = await readFields(req);
    const invoice = text(body.invoice);
    const txn = paidTxn(invoice, text(body.urlid));
    const key = operationKey(req, `reverse:${invoice}`);
    const fault = faults.take('reverse');
    if (fault === 'slow') answerLate(res);
    if (fault === 'down') return dropConnection(res);
    if (fault === 'error') return json(res, 500, null);
    if (fault === 'unknown') return answer(res, CODE.NOT_FOUND);
    if (fault === 'timeout') {
      if (txn?.confirmed_at === undefined) reverseOnce(ledger, txn, key);
      return hang(res);
    }
    if (txn === undefined) return answer(res, CODE.NOT_FOUND);
    if (txn.reversed_at !== undefined) return answer(res, CODE.REVERSED);
    // After confirm-transactions nothing is reversed (PEP's usage guide, step 9).
    if (txn.confirmed_at !== undefined) return answer(res, CODE.REVERSE_TIME_EXPIRED);
    reverseOnce(ledger, txn, key);
    answer(res, CODE.OK);
  };

  return (method, path) => {
    const lower = path.toLowerCase();
    if (method === 'GET' && /^\/[0-9a-f]{40}[0-9]{15}$/.test(path) && ledger.byToken(path.slice(1)) !== undefined)
      return page;
    if (method !== 'POST') return undefined;
    if (lower === PASARGAD_AUTH_PATH.toLowerCase()) return getToken;
    if (lower === PASARGAD_PURCHASE_PATH) return purchase;
    if (lower === PASARGAD_INQUIRY_PATH) return inquiry;
    if (lower === PASARGAD_CONFIRM_PATH) return confirm;
    if (lower === PASARGAD_REVERSE_PATH) return reverse;
    return undefined;
  };
}

/**
 * PEP's REST IPG in the simulator's table of protocols (protocols.ts): its user name is the gateway's
 * SANDBOX_PASARGAD_USERNAME (BANK_SIM_USERNAME), its password SANDBOX_PASARGAD_PASSWORD (BANK_SIM_PASSWORD).
 */
export const PASARGAD_SIMULATOR: SimulatorProtocol = {
  name: 'pasargad',
  title: "Pasargad's (PEP's) REST IPG",
  defaults: { port: 3105, terminalId: '95908673', autoReverseSeconds: 600, settings: { USERNAME: 'dargah-test' } },
  page: PASARGAD_PAGE,
  routes: ({ ledger, faults, options }) => [
    pasargadRoutes({
      ledger,
      faults,
      options: {
        terminalId: options.terminalId,
        userName: options.userName ?? options.settings?.USERNAME ?? '',
        password: options.password,
        delaySeconds: options.delaySeconds,
        redirectOrigins: options.redirectOrigins,
      },
    }),
  ],
};
