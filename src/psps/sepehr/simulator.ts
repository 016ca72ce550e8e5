/**
 * The simulator's protocol for Sepehr (BANK_SIM_PROTOCOL=sepehr): Bank Saderat's IPG as its
 * conformance corpus shows it (test/fixtures/psps/sepehr/, docs/psps/sepehr.md), not as our connector
 * happens to speak it. Three JSON calls and a page:
 *
 *   POST /V1/PeymentApi/GetToken {Amount, callbackURL, invoiceID, terminalID} → {Status: 0, Accesstoken}; a refusal {Status}
 *   POST /Pay                     the page (customer-page.ts with SEPEHR_PAGE): a form of token and TerminalID
 *   POST /V1/PeymentApi/Advice    {digitalreceipt, Tid} → {Status: Ok | Duplicate | NOK, ReturnId, Message}
 *   POST /V1/PeymentApi/Rollback  {digitalreceipt, Tid} → the same
 *
 * Lenient where Sepehr's clients differ (the corpus's disagreements): a JSON body or a form, a field's
 * name in any case (Parbad camel-cases them), numbers as strings. Strict where the corpus is: the
 * terminal (-2: Sepehr admits a merchant by its terminal and its address), the callback address
 * outside the gateway's and an amount that is not a whole positive number (-3: no source names a code
 * of their own, so Sepehr's general error). An invoiceID asked again before the customer chose answers
 * the same token (the gateway's retry after a lost answer); after the choice, -4 (the request cannot be
 * done for this transaction): what Sepehr does with a repeated invoiceID no source says.
 *
 * Advice happens once per transaction: the first answers Ok with the amount as ReturnId, a repeat
 * Duplicate; a receipt this terminal has no paid transaction of answers NOK -1. Rollback gives a paid
 * transaction back: Ok, then Duplicate; within the reversal window after its Advice (options'
 * reversalWindowSeconds, default 50 minutes: no reference gives Sepehr's), else NOK -4; a paid
 * transaction never advised is rolled back too (dpsoft's "verify or rollback"). An Advice of a
 * transaction given back answers NOK -4. A paid transaction nobody advises is given back by the bank
 * itself after 30 minutes (server.ts's sweep, BANK_SIM_AUTO_REVERSE_SECONDS: dpsoft's README). Sepehr
 * has no "in progress" answer: the page's "delay in verification" and the `in_progress` fault answer
 * the Advice with an HTTP 500 (server-error.json) until the delay is over. The fault switches: `token`,
 * `confirm` and `reverse` take `down`, `timeout`, `slow` and `error` (HTTP 500); `confirm` and
 * `reverse` also `unknown` (NOK -1); `confirm` `in_progress` (500) and `other_amount` (a ReturnId
 * above the sale's). No inquiry, settle or refund path: those answer 404.
 */
import { openSale, returnAddress } from '../../bank-sim/sale.ts';
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { PageDialect } from '../../bank-sim/customer-page.ts';
import { answerLate, dropConnection, hang, OTHER_AMOUNT_DELTA, type FaultSwitches } from '../../bank-sim/faults.ts';
import { json, readBody, type BankRequest, type Routes } from '../../bank-sim/http.ts';
import { digits, type Ledger, type Transaction } from '../../bank-sim/ledger.ts';
import { confirmOnce, reverseOnce } from '../../bank-sim/operations.ts';
import type { SimulatorProtocol } from '../../bank-sim/simulator-protocol.ts';

export const SEPEHR_TOKEN_PATH = '/V1/PeymentApi/GetToken';
export const SEPEHR_ADVICE_PATH = '/V1/PeymentApi/Advice';
export const SEPEHR_ROLLBACK_PATH = '/V1/PeymentApi/Rollback';

/** Sepehr's codes the simulator answers (the gateway's table is src/psps/sepehr/mapping.ts). */
const CODE = {
  OK: 0,
  NOT_FOUND: -1,
  ADDRESS: -2,
  GENERAL: -3,
  NOT_POSSIBLE: -4,
} as const;

/** The texts of the sources' code table (Parbad, dpsoft, larapay, multipay), in Persian as Sepehr writes them. */
const MESSAGE: Record<number, string> = {
  [CODE.NOT_FOUND]: 'تراکنش پیدا نشد',
  [CODE.ADDRESS]: 'عدم تطابق آی پی و یا بسته بودن پورت 8081',
  [CODE.GENERAL]: 'خطای عمومی',
  [CODE.NOT_POSSIBLE]: 'امکان انجام درخواست برای این تراکنش وجود ندارد',
};

const paid = (txn: Transaction | undefined): txn is Transaction =>
  txn?.outcome === 'success' || txn?.outcome === 'delay';

/**
 * Sepehr's page: a form POST of token (and TerminalID) to /Pay, the choice to /Pay/choose, and Sepehr's
 * return as the corpus shows it: the same twelve fields whatever the outcome, respcode 0 paid, -1
 * canceled, -2 (the customer's time ran out) for a failure, the paid-only numbers empty when not paid.
 */
export const SEPEHR_PAGE: PageDialect = {
  pagePath: '/Pay',
  pageMethod: 'POST',
  choicePath: '/Pay/choose',
  tokenField: 'token',
  // The digital receipt is the transaction's reference (no source shows a real one: 20 hex digits here).
  paidNumbers: () => ({ ref_num: randomBytes(10).toString('hex').toUpperCase(), rrn: digits(12), trace_no: digits(6) }),
  // SEP's and Asan Pardakht's test card: the identity simulator holds its account (src/bank-sim/jibit-identity.ts).
  defaultCard: '6037991234567893',
  callbackFields(txn, amount): Record<string, string> {
    const ok = txn.outcome === 'success' || txn.outcome === 'delay';
    const respcode = ok ? CODE.OK : txn.outcome === 'cancel' ? -1 : -2;
    return {
      respcode: String(respcode),
      respmsg: ok ? 'تراکنش موفق' : txn.outcome === 'cancel' ? 'انصراف از پرداخت' : 'پایان زمان پرداخت',
      amount: String(amount),
      invoiceid: txn.res_num,
      payload: '',
      terminalid: txn.terminal,
      tracenumber: ok ? (txn.trace_no ?? '') : '',
      rrn: ok ? (txn.rrn ?? '') : '',
      datepaid: ok ? (txn.chosen_at ?? '').replace('T', ' ').slice(0, 19) : '',
      digitalreceipt: ok ? (txn.ref_num ?? '') : '',
      issuerbank: ok ? 'بانک صادرات ایران' : '',
      cardnumber: ok ? (txn.card_pan ?? '') : '',
    };
  },
};

export interface SepehrOptions {
  terminalId: string;
  /** "Delay in verification": how long the Advice of a transaction left in "delay" answers 500 after the customer's choice. */
  delaySeconds: number;
  /** How long after its Advice a Rollback is still taken, in seconds; 0: no limit. */
  reversalWindowSeconds?: number;
  redirectOrigins: readonly string[];
}

/** A body as Sepehr's clients send it, JSON or a form, its keys lower-cased so that a field's case never matters. */
async function readFields(req: BankRequest['req']): Promise<Record<string, unknown>> {
  const text = await readBody(req);
  const type = String(req.headers['content-type'] ?? '');
  const raw: unknown = /form-urlencoded/.test(type) ? Object.fromEntries(new URLSearchParams(text)) : JSON.parse(text);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('not an object');
  return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k.toLowerCase(), v]));
}

const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v).trim() : '');

export function sepehrRoutes({
  ledger,
  faults,
  options,
}: {
  ledger: Ledger;
  faults: FaultSwitches;
  options: SepehrOptions;
}): Routes {
  const reversalWindowMs = (options.reversalWindowSeconds ?? 3000) * 1000;
  const refuse = (res: ServerResponse, code: number) => json(res, 200, { Status: code });
  /** An Advice's or Rollback's answer (verify-answer-*.json, reversal-answer-*.json). */
  const status = (res: ServerResponse, word: 'Ok' | 'Duplicate' | 'NOK', returnId: number, message: string) =>
    json(res, 200, { Status: word, ReturnId: String(returnId), Message: message });
  const nok = (res: ServerResponse, code: number) => status(res, 'NOK', code, MESSAGE[code] ?? '');

  const token = async ({ req, res }: BankRequest) => {
    const body = await readFields(req);
    // A token the caller never gets is not made; an error is Sepehr's server error (server-error.json).
    const fault = faults.take('token');
    if (fault === 'slow') answerLate(res);
    if (fault === 'down') return dropConnection(res);
    if (fault === 'timeout') return hang(res);
    if (fault === 'error') return json(res, 500, null);
    const terminal = text(body.terminalid);
    const invoice = text(body.invoiceid);
    const amount = Number(text(body.amount));
    if (terminal !== options.terminalId) return refuse(res, CODE.ADDRESS);
    if (!Number.isSafeInteger(amount) || amount <= 0 || invoice === '' || invoice.length > 100)
      return refuse(res, CODE.GENERAL);
    // Only back to the merchant's gateway: the page's form and callback_repeat go to this address.
    const redirect = returnAddress(text(body.callbackurl), options.redirectOrigins);
    if (redirect === undefined) return refuse(res, CODE.GENERAL);
    const [earlier] = ledger.byResNum(invoice);
    if (earlier !== undefined) {
      // The same sale asked again before the customer chose: its token again; after: refused.
      if (earlier.outcome !== undefined || earlier.amount !== amount) return refuse(res, CODE.NOT_POSSIBLE);
      return json(res, 200, { Status: CODE.OK, Accesstoken: earlier.token });
    }
    const txn = openSale(ledger, {
      token: randomBytes(16).toString('hex'),
      terminal,
      amount,
      resNum: invoice,
      redirectUrl: redirect,
      operationKey: text(req.headers['x-operation-key']),
    });
    json(res, 200, { Status: CODE.OK, Accesstoken: txn.token });
  };

  /** The paid transaction of this terminal that a body's digitalreceipt names, if any. */
  const named = (body: Record<string, unknown>): Transaction | undefined => {
    const receipt = text(body.digitalreceipt);
    const found = receipt === '' ? undefined : ledger.byRef(receipt);
    return paid(found) && found.terminal === options.terminalId && text(body.tid) === options.terminalId
      ? found
      : undefined;
  };
  const keyOf = (req: BankRequest['req'], fallback: string) => text(req.headers['x-operation-key']) || fallback;

  const advice = async ({ req, res }: BankRequest) => {
    const body = await readFields(req);
    const txn = named(body);
    const work = () =>
      confirmOnce(ledger, txn, keyOf(req, `confirm:${text(body.digitalreceipt)}`), options.delaySeconds);
    const fault = faults.take('confirm');
    if (fault === 'slow') answerLate(res);
    if (fault === 'down') return dropConnection(res);
    if (fault === 'error' || fault === 'in_progress') return json(res, 500, null);
    if (fault === 'unknown') return nok(res, CODE.NOT_FOUND);
    if (fault === 'timeout') {
      work();
      return hang(res);
    }
    if (txn === undefined) return nok(res, CODE.NOT_FOUND);
    // Given back (rolled back, or by the bank itself: nobody advised it within 30 minutes).
    if (txn.reversed_at !== undefined) return nok(res, CODE.NOT_POSSIBLE);
    const before = txn.confirmed_at;
    work();
    // "Delay in verification": Sepehr has no "in progress" answer, so the Advice fails as Sepehr unavailable until the delay is over.
    if (txn.confirmed_at === undefined) return json(res, 500, null);
    const amount = txn.amount + (fault === 'other_amount' ? OTHER_AMOUNT_DELTA : 0);
    if (before === undefined) status(res, 'Ok', amount, 'تایید تراکنش انجام شد');
    else status(res, 'Duplicate', amount, 'درخواست تکراری است');
  };

  const rollback = async ({ req, res }: BankRequest) => {
    const body = await readFields(req);
    const txn = named(body);
    const late =
      txn?.confirmed_at !== undefined &&
      txn.reversed_at === undefined &&
      reversalWindowMs > 0 &&
      Date.now() - Date.parse(txn.confirmed_at) > reversalWindowMs;
    const work = () => {
      if (!late) reverseOnce(ledger, txn, keyOf(req, `reverse:${text(body.digitalreceipt)}`));
    };
    const fault = faults.take('reverse');
    if (fault === 'slow') answerLate(res);
    if (fault === 'down') return dropConnection(res);
    if (fault === 'error') return json(res, 500, null);
    if (fault === 'unknown') return nok(res, CODE.NOT_FOUND);
    if (fault === 'timeout') {
      work();
      return hang(res);
    }
    if (txn === undefined) return nok(res, CODE.NOT_FOUND);
    if (txn.reversed_at !== undefined) return status(res, 'Duplicate', txn.amount, 'درخواست تکراری است');
    if (late) return nok(res, CODE.NOT_POSSIBLE);
    work();
    status(res, 'Ok', txn.amount, 'برگشت تراکنش انجام شد');
  };

  return (method, path) => {
    if (method !== 'POST') return undefined;
    const lower = path.toLowerCase();
    if (lower === SEPEHR_TOKEN_PATH.toLowerCase()) return token;
    if (lower === SEPEHR_ADVICE_PATH.toLowerCase()) return advice;
    if (lower === SEPEHR_ROLLBACK_PATH.toLowerCase()) return rollback;
    return undefined;
  };
}

/** Sepehr's (Bank Saderat's) JSON IPG in the simulator's table of protocols (protocols.ts): a terminal and nothing else. */
export const SEPEHR_SIMULATOR: SimulatorProtocol = {
  name: 'sepehr',
  title: "Sepehr's (Bank Saderat's) JSON IPG",
  defaults: { port: 3107, terminalId: '79492072', autoReverseSeconds: 1800, settings: {} },
  page: SEPEHR_PAGE,
  routes: ({ ledger, faults, options }) => [
    sepehrRoutes({
      ledger,
      faults,
      options: {
        terminalId: options.terminalId,
        delaySeconds: options.delaySeconds,
        reversalWindowSeconds: options.reversalWindowSeconds,
        redirectOrigins: options.redirectOrigins,
      },
    }),
  ],
};
