/**
 * The simulator's third protocol (BANK_SIM_PROTOCOL=sadad): Sadad, Bank Melli Iran's IPG, as its
 * conformance corpus shows it (test/fixtures/psps/sadad/, docs/psps/sadad.md), not as our connector
 * happens to speak it. Two JSON calls and a page:
 *
 *   POST /api/v0/Request/PaymentRequest  {TerminalId, MerchantId, Amount, SignData, ReturnUrl, LocalDateTime, OrderId}
 *        → {ResCode: 0, Token, Description}; a refusal {ResCode, Token: null, Description}
 *   GET  /Purchase?Token=…                 the page (customer-page.ts with SADAD_PAGE)
 *   POST /api/v0/Advice/Verify             {Token, SignData} → {ResCode, Amount, Description, RetrivalRefNo, SystemTraceNo, OrderId}
 *
 * SignData is checked as Sadad's sources compute it (Triple-DES, ECB, PKCS#7 under the terminal's
 * base64 key; 1025 on the token request, -1 on a verify). Lenient where Sadad's clients differ (the
 * corpus's disagreements): a field's name in any case (Parbad sends `token`), numbers as strings.
 * Strict where Sadad is: the terminal and merchant (1027, 1004), an order id used before (1011), a
 * return address outside the gateway's (1023), an amount that is not a whole positive number (1101).
 *
 * A verify happens once per transaction: the first answers 0, a repeat 100 ("verified before") with
 * the same detail. Sadad has no reversal, inquiry or refund any reference shows, so this bank has
 * none: those paths answer 404. A paid transaction nobody verifies is given back by the bank itself
 * after Sadad's 15 minutes (server.ts's sweep, BANK_SIM_AUTO_REVERSE_SECONDS); a verify after that
 * answers 101. Sadad has no "in progress" answer either: the page's "delay in verification" and the
 * `in_progress` fault answer the verify with an HTTP 500 (server-error.json), Sadad unavailable for a
 * moment, until the delay is over. The fault switches: `token` and `confirm` take `down`, `timeout`,
 * `slow` and `error` (HTTP 500); `confirm` also `unknown` (-1), `in_progress` (500) and
 * `other_amount` (the detail names more than the sale).
 */
import { openSale, returnAddress } from '../../bank-sim/sale.ts';
import { createCipheriv, randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { PageDialect } from '../../bank-sim/customer-page.ts';
import { answerLate, dropConnection, hang, OTHER_AMOUNT_DELTA, type FaultSwitches } from '../../bank-sim/faults.ts';
import { json, readBody, type BankRequest, type Routes } from '../../bank-sim/http.ts';
import { digits, type Ledger, type Transaction } from '../../bank-sim/ledger.ts';
import { confirmOnce } from '../../bank-sim/operations.ts';
import type { SimulatorProtocol } from '../../bank-sim/simulator-protocol.ts';

export const SADAD_TOKEN_PATH = '/api/v0/Request/PaymentRequest';
export const SADAD_VERIFY_PATH = '/api/v0/Advice/Verify';

/** Sadad's codes the simulator answers (the gateway's table is src/psps/sadad/mapping.ts). */
const CODE = {
  OK: 0,
  FAILED: -1,
  VERIFIED_BEFORE: 100,
  TOO_LATE: 101,
  WRONG_MERCHANT: 1004,
  DUPLICATE_ORDER: 1011,
  INVALID_RETURN_URL: 1023,
  INVALID_SIGNATURE: 1025,
  INVALID_ORDER_ID: 1026,
  INVALID_TERMINAL: 1027,
  INVALID_AMOUNT: 1101,
} as const;

/** The Persian descriptions Sadad's code tables give (Parbad, monopay, iran-payment-laravel). */
const DESCRIPTION: Record<number, string> = {
  [CODE.OK]: 'تراکنش موفق',
  [CODE.FAILED]: 'پارامترهای ارسالی صحیح نیست و يا تراکنش در سیستم وجود ندارد.',
  [CODE.VERIFIED_BEFORE]: 'درخواست تکراری است (قبلا در سیستم با موفقیت ثبت شده است)',
  [CODE.TOO_LATE]: 'مهلت ارسال تراکنش به پايان رسیده است',
  [CODE.WRONG_MERCHANT]: 'شماره پذيرنده اشتباه است',
  [CODE.DUPLICATE_ORDER]: 'درخواست تکراری- شماره سفارش تکراری می باشد',
  [CODE.INVALID_RETURN_URL]: 'آدرس بازگشت پذيرنده نامعتبر است',
  [CODE.INVALID_SIGNATURE]: 'امضا تراکنش نامعتبر است',
  [CODE.INVALID_ORDER_ID]: 'شماره سفارش تراکنش نامعتبر است',
  [CODE.INVALID_TERMINAL]: 'شماره ترمینال پذيرنده نامعتبر است',
  [CODE.INVALID_AMOUNT]: 'مبلغ تراکنش نامعتبر است',
};

/**
 * Sadad's page: GET /Purchase?Token=…, the choice to /Purchase/choose, and Sadad's return as the
 * corpus shows it: OrderId, token, ResCode (0 paid; -1 failed or canceled, which Sadad does not tell
 * apart), and on a paid one the card's hash and masked number (return-paid.json).
 */
export const SADAD_PAGE: PageDialect = {
  pagePath: '/Purchase',
  pageMethod: 'GET',
  choicePath: '/Purchase/choose',
  tokenField: 'Token',
  // RetrivalRefNo (12 digits) is the paid transaction's reference; SystemTraceNo its trace number.
  paidNumbers: () => ({ ref_num: digits(12), rrn: digits(12), trace_no: digits(6) }),
  // 603799 is Bank Melli's own card prefix; the rest is a Luhn-valid test number.
  defaultCard: '6037997123456783',
  callbackFields(txn): Record<string, string> {
    const ok = txn.outcome === 'success' || txn.outcome === 'delay';
    if (!ok) return { OrderId: txn.res_num, token: txn.token, ResCode: String(CODE.FAILED) };
    return {
      OrderId: txn.res_num,
      token: txn.token,
      ResCode: String(CODE.OK),
      HashedCardNo: txn.card_sha256 ?? '',
      PrimaryAccNo: txn.card_pan ?? '',
    };
  },
};

export interface SadadOptions {
  terminalId: string;
  /** The merchant number every token request must name. */
  merchantId: string;
  /** The terminal's key, base64 of 24 bytes: SignData is checked with it. */
  terminalKey: string;
  /** "Delay in verification": how long the verify of a transaction left in "delay" answers 500 after the customer's choice. */
  delaySeconds: number;
  redirectOrigins: readonly string[];
}

/** A body as Sadad's clients send it, JSON, its keys lower-cased so that a field's case never matters. */
async function readFields(req: BankRequest['req']): Promise<Record<string, unknown>> {
  const raw = JSON.parse(await readBody(req)) as unknown;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('not an object');
  return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k.toLowerCase(), v]));
}

const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v).trim() : '');

export function sadadRoutes({
  ledger,
  faults,
  options,
}: {
  ledger: Ledger;
  faults: FaultSwitches;
  options: SadadOptions;
}): Routes {
  const key = Buffer.from(options.terminalKey, 'base64');
  /** SignData as Sadad checks it; '' when the configured key is not a Triple-DES key (every signature is then wrong). */
  const sign = (value: string): string => {
    if (key.length !== 24) return '';
    const cipher = createCipheriv('des-ede3', key, null);
    return Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]).toString('base64');
  };
  const refuse = (res: ServerResponse, code: number) =>
    json(res, 200, { ResCode: code, Token: null, Description: DESCRIPTION[code] ?? '' });

  const token = async ({ req, res }: BankRequest) => {
    const body = await readFields(req);
    // A token the caller never gets is not made; an error is Sadad's server error (server-error.json).
    const fault = faults.take('token');
    if (fault === 'slow') answerLate(res);
    if (fault === 'down') return dropConnection(res);
    if (fault === 'timeout') return hang(res);
    if (fault === 'error') return json(res, 500, null);
    const terminal = text(body.terminalid);
    const orderId = text(body.orderid);
    const amount = Number(text(body.amount));
    if (terminal !== options.terminalId) return refuse(res, CODE.INVALID_TERMINAL);
    if (text(body.merchantid) !== options.merchantId) return refuse(res, CODE.WRONG_MERCHANT);
    if (!Number.isSafeInteger(amount) || amount <= 0) return refuse(res, CODE.INVALID_AMOUNT);
    if (!/^[1-9][0-9]{0,18}$/.test(orderId)) return refuse(res, CODE.INVALID_ORDER_ID);
    if (text(body.signdata) !== sign(`${terminal};${orderId};${text(body.amount)}`))
      return refuse(res, CODE.INVALID_SIGNATURE);
    // Only back to the merchant's gateway: the page's form and callback_repeat go to this address.
    const redirect = returnAddress(text(body.returnurl), options.redirectOrigins);
    if (redirect === undefined) return refuse(res, CODE.INVALID_RETURN_URL);
    // An order id is used once at a terminal (1011), a retried request included.
    if (ledger.byResNum(orderId).length > 0) return refuse(res, CODE.DUPLICATE_ORDER);
    const txn = openSale(ledger, {
      token: randomBytes(12).toString('hex'),
      terminal,
      amount,
      resNum: orderId,
      redirectUrl: redirect,
      operationKey: text(req.headers['x-operation-key']),
    });
    json(res, 200, { ResCode: CODE.OK, Token: txn.token, Description: DESCRIPTION[CODE.OK] });
  };

  /** The verify's detail of a paid transaction (verify-answer-ok.json); `extra` the other_amount fault's. */
  const detail = (txn: Transaction, code: number, extra = 0) => ({
    ResCode: code,
    Amount: txn.amount + extra,
    Description: DESCRIPTION[code],
    RetrivalRefNo: txn.ref_num ?? '',
    SystemTraceNo: txn.trace_no ?? '',
    OrderId: Number(txn.res_num),
  });

  const verify = async ({ req, res }: BankRequest) => {
    const body = await readFields(req);
    const tokenValue = text(body.token);
    const found = ledger.byToken(tokenValue);
    const signed = tokenValue !== '' && text(body.signdata) === sign(tokenValue);
    const txn =
      signed && found?.terminal === options.terminalId && (found.outcome === 'success' || found.outcome === 'delay')
        ? found
        : undefined;
    const operationKey = text(req.headers['x-operation-key']) || `confirm:${tokenValue}`;
    const work = () => confirmOnce(ledger, txn, operationKey, options.delaySeconds);
    const fault = faults.take('confirm');
    if (fault === 'slow') answerLate(res);
    if (fault === 'down') return dropConnection(res);
    if (fault === 'error' || fault === 'in_progress') return json(res, 500, null);
    // A refused verify carries its code and description alone (verify-answer-refused.json).
    const refused = (code: number) => json(res, 200, { ResCode: code, Description: DESCRIPTION[code] });
    if (fault === 'unknown') return refused(CODE.FAILED);
    if (fault === 'timeout') {
      work();
      return hang(res);
    }
    if (txn === undefined) return refused(CODE.FAILED);
    // Given back by the bank itself: nobody verified it within Sadad's 15 minutes.
    if (txn.reversed_at !== undefined) return refused(CODE.TOO_LATE);
    const before = txn.confirmed_at;
    work();
    // "Delay in verification": Sadad has no "in progress" answer, so the verify fails as Sadad unavailable until the delay is over.
    if (txn.confirmed_at === undefined) return json(res, 500, null);
    json(
      res,
      200,
      detail(
        txn,
        before === undefined ? CODE.OK : CODE.VERIFIED_BEFORE,
        fault === 'other_amount' ? OTHER_AMOUNT_DELTA : 0,
      ),
    );
  };

  return (method, path) => {
    if (method !== 'POST') return undefined;
    const lower = path.toLowerCase();
    if (lower === SADAD_TOKEN_PATH.toLowerCase()) return token;
    if (lower === SADAD_VERIFY_PATH.toLowerCase()) return verify;
    return undefined;
  };
}

/** Sadad's (Bank Melli Iran's) JSON IPG in the simulator's table of protocols (protocols.ts): its merchant number and key are the gateway's SANDBOX_SADAD_MERCHANT_ID and SANDBOX_SADAD_KEY, given as BANK_SIM_MERCHANT_ID and BANK_SIM_KEY. */
export const SADAD_SIMULATOR: SimulatorProtocol = {
  name: 'sadad',
  title: "Sadad's (Bank Melli Iran's) JSON IPG",
  defaults: {
    port: 3103,
    terminalId: '24000615',
    autoReverseSeconds: 900,
    settings: { MERCHANT_ID: '000000140000001' },
    secretSettings: ['KEY'],
  },
  page: SADAD_PAGE,
  routes: ({ ledger, faults, options }) => [
    sadadRoutes({
      ledger,
      faults,
      options: {
        terminalId: options.terminalId,
        merchantId: options.settings?.MERCHANT_ID ?? '',
        terminalKey: options.settings?.KEY ?? '',
        delaySeconds: options.delaySeconds,
        redirectOrigins: options.redirectOrigins,
      },
    }),
  ],
};
