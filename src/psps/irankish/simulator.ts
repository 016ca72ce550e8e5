/**
 * The simulator's protocol BANK_SIM_PROTOCOL=irankish: IranKish's (Iran Kish Credit Card Company's)
 * api/v3 IPG as its conformance corpus shows it (test/fixtures/psps/irankish/, docs/psps/irankish.md),
 * not as our connector happens to speak it. Three JSON calls and a page:
 *
 *   POST /api/v3/tokenization/make          {request: {acceptorId, amount, billInfo, paymentId, requestId, requestTimestamp,
 *                                            revertUri, terminalId, transactionType}, authenticationEnvelope: {data, iv}}
 *        → {responseCode: "00", description, status: true, result: {token, initiateTimeStamp, expiryTimeStamp, transactionType, billInfo}}
 *   POST /iuiv3/IPG/Index/                   the page, tokenIdentity posted by the customer's browser (customer-page.ts)
 *   POST /api/v3/confirmation/purchase       {terminalId, retrievalReferenceNumber, systemTraceAuditNumber, tokenIdentity}
 *        → {responseCode: "00", description, status: true, result: {responseCode, systemTraceAuditNumber, retrievalReferenceNumber,
 *           transactionDate, transactionTime, processCode, requestId, amount, duplicateVerify, acceptorId, terminalId, tokenIdentity, …}}
 *   POST /api/v3/confirmation/reversePurchase  the same four fields → the same shape
 *
 * The envelope is opened as IranKish opens it: the simulator's private key (the pair of the profile's
 * test PUBLIC_KEY, a test key and nothing else) gives the AES key and the SHA-256 of the ciphertext, and
 * the ciphertext of the terminal, the password and the request's amount under that key and the
 * request's IV must hash to it (922, "a security violation of the request", otherwise). Strict where
 * IranKish is: the terminal (915), the acceptor (916), the transaction type (917), the amount (928),
 * the request id (905), the time of the request (906), the return address (907). A refusal is
 * {responseCode, description, status: false, result: null} (token-answer-refused.json).
 *
 * A confirmation happens once per transaction: the first answers "00" with duplicateVerify false, a
 * repeat "00" with duplicateVerify true. A reversal answers "00" once and "2" (reversed before) after.
 * IranKish has no "in progress" answer: the page's "delay in verification" and the `in_progress` fault
 * answer the confirmation with an HTTP 500, IranKish unavailable for a moment, until the delay is over.
 * A paid transaction nobody confirms is given back by the bank itself (server.ts's sweep, after the
 * profile's 20 minutes, BANK_SIM_AUTO_REVERSE_SECONDS); a confirmation after that answers "2". No
 * inquiry, settle or refund: those paths answer 404. The fault switches: `token`, `confirm` and
 * `reverse` take `down`, `timeout`, `slow` and `error` (HTTP 500); `confirm` and `reverse` also
 * `unknown` (25); `confirm` also `in_progress` (500) and `other_amount` (the result names more than the sale).
 */
import { openSale, returnAddress } from '../../bank-sim/sale.ts';
import { constants, createCipheriv, createHash, createPrivateKey, privateDecrypt, randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { PageDialect } from '../../bank-sim/customer-page.ts';
import { answerLate, dropConnection, hang, OTHER_AMOUNT_DELTA, type FaultSwitches } from '../../bank-sim/faults.ts';
import { json, readBody, type BankRequest, type Routes } from '../../bank-sim/http.ts';
import { digits, type Ledger, type Transaction } from '../../bank-sim/ledger.ts';
import { confirmOnce, reverseOnce } from '../../bank-sim/operations.ts';
import type { SimulatorProtocol } from '../../bank-sim/simulator-protocol.ts';

export const IRANKISH_TOKEN_PATH = '/api/v3/tokenization/make';
export const IRANKISH_CONFIRM_PATH = '/api/v3/confirmation/purchase';
export const IRANKISH_REVERSE_PATH = '/api/v3/confirmation/reversePurchase';

/** The simulator's key pair: a test key made for it, IranKish's own is another. The profile's PUBLIC_KEY test default is its public half. */
export const IRANKISH_SIM_PUBLIC_KEY =
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAjCJsR/rLCF9DctZgDqiSxIbmR3jQu0w8nZOsiGx+gFtZ1HFuupMe5P6LVpCEcCLzukelGtRmtoy6E9FmszbPmjEtNkYrzLN1Ts9KNK9WwtXjAt03RJ+yBZIe2d993slGRAwthdPFylRRRGAEJXvkN6+LtyWKtPLUimfRyoWiJz6uFKSQpYqAyGsI4xr8vvqMKEUOMdcL8AoWFlW2ha2XEMf5Pm7E3cXVTkRgGRzE2avCYUm+10qYUItNJvS43Dt8PE85dKqlH3Uwn/PppJppCRyF1lMPnPJEFm6hvE9HO/gIBjIpXLEz0LJDFQEIvBgWmw95Ho/tocEyiLKW6EsK8QIDAQAB';
const IRANKISH_SIM_PRIVATE_KEY =
  'MIIEvwIBADANBgkqhkiG9w0BAQEFAASCBKkwggSlAgEAAoIBAQCMImxH+ssIX0Ny1mAOqJLEhuZHeNC7TDydk6yIbH6AW1nUcW66kx7k/otWkIRwIvO6R6Ua1Ga2jLoT0WazNs+aMS02RivMs3VOz0o0r1bC1eMC3TdEn7IFkh7Z333eyUZEDC2F08XKVFFEYAQle+Q3r4u3JYq08tSKZ9HKhaInPq4UpJClioDIawjjGvy++owoRQ4x1wvwChYWVbaFrZcQx/k+bsTdxdVORGAZHMTZq8JhSb7XSphQi00m9LjcO3w8Tzl0qqUfdTCf8+mkmmkJHIXWUw+c8kQWbqG8T0c7+AgGMilcsTPQskMVAQi8GBabD3kej+2hwTKIspboSwrxAgMBAAECggEAA91pLh0JH3x9IDwwXwcgMSJlVIBNBXVnUJNDlWmknYandhgAzU2Ecx1gG22V8X/NSAx0zcYg5RUBhs1mLzgqRp7nl9EcoSMr75YA/m39jxcWETynqxFaeBPdHPYwgwX7FaJeWQwLrvZfXWrmgmAl3bFOQalb53yxBvYxD4xa+gkSkHf9nDnwmoT6lJcuNRK+WUZTpyQmRs/VTcwgwyPkFci4dPZPV/0u+UrNPSV/hMxGTv4my1/CIZZmLCZ+Vly2/eWcMdVj0NaTP9+cW6bkYlQ243l126M3e/139uYTQb6miT5TjRFo39Ve6TTkxKUbgycoSkFdW6bAtM+5gMaBYQKBgQDEx57OaRadBR+0aPdUtYiLOtNYIh0xNgobkk1yws3wLC2LmUbvodLsDTLiO6Araty3mlxUk8wEG4EGKe+TeSguFdLQbjgaFMecpFv+DFQ9KyhLCHCkPKinwiIl9arq0e3qpmVsU98IODqAWKifGQ/qc0GgbQALvzlhCkr9v6K1SQKBgQC2TrbbxR7dHKcFymhgZ+u/WWnugaBNK7cFi2gkI6hQDDeI9EpG7CKlfJXpy9HoxpQ/7Apos7r7+XrEZYVlSJUz3JxDto4Rxbf5wLG8QKOkt/uQUsG55bHDiDatuFTiI/HbGvxtPV8+eBH2ogeLVv48aAKcy6vWsZS6HYnCBQkwaQKBgQCSdB91cDEsXAvksdqiaRlexkFVbs5bOeT78D9EEkhDYB3lsAZjgwUAOjKMvePPbJEo9PGS4Q0OYYn9lGiCUcHdytBD4ERQ5PZLVuhAg9yOSfiLH5T2J08+y/WuWtECQ4vXAFCr9yAfdfnUXCfjgTufOni1dWp7U67Y0lhN0rq+QQKBgQCAH+P9opTlWxy7QhyHHKIfkgyT9gAeHEn9mJMxSuogj+V72AxXud9DpMKLVJaK3P0Vy6MpIJ+aNSSl4J+WpiNOFo6wPB2uueFpopaHMnqP6knfjXnfV2HOhO3Au5rUb+SrU1TyxT4p3iLpzcg1kocNFyA26CE1uwpGnznQ5M8neQKBgQC7+VmKiMRLmwSZ+P1RisFNtfBEsNk9rTf3yPXYczY9/bBtvaTC7zW6koI9/TK2dDMOGpZBsiZ7WsFAU+qNHM0zbkYv2tax9MoIjRCouEUl29Xjk+Y9Dvho4h7GN9VNJChSqrkQo0VJTnBBKW77/IXLKg+JQiVPg1By/EtJmD8OLQ==';

/** IranKish's codes the simulator answers, as IranKish writes them (the gateway's table is src/psps/irankish/mapping.ts). */
const CODE = {
  OK: '00',
  REVERSED_BEFORE: '2',
  CANCELED: '17',
  NOT_FOUND: '25',
  INSUFFICIENT_FUNDS: '51',
  INVALID_REQUEST: '901',
  INVALID_REQUEST_ID: '905',
  OUT_OF_DATE: '906',
  INVALID_RETURN_URL: '907',
  INVALID_TERMINAL: '915',
  INVALID_ACCEPTOR: '916',
  INVALID_TRANSACTION_TYPE: '917',
  SECURITY_VIOLATION: '922',
  INVALID_AMOUNT: '928',
} as const;

/** The Persian descriptions of IranKish's code table (shetabit/multipay, mrjavadseydi/irankish-laravel). */
const DESCRIPTION: Record<string, string> = {
  [CODE.OK]: 'تراکنش با موفقیت انجام شد',
  [CODE.REVERSED_BEFORE]: 'تراکنش قبلا برگشت شده است',
  [CODE.CANCELED]: 'از انجام تراکنش صرف نظر شد',
  [CODE.NOT_FOUND]: 'تراکنش اصلی یافت نشد',
  [CODE.INSUFFICIENT_FUNDS]: 'موجودی حساب کافی نمی باشد',
  [CODE.INVALID_REQUEST]: 'درخواست نا معتبر است',
  [CODE.INVALID_REQUEST_ID]: 'شناسه درخواست نامعتبر می باشد',
  [CODE.OUT_OF_DATE]: 'درخواست تاریخ گذشته است',
  [CODE.INVALID_RETURN_URL]: 'آدرس بازگشت نتیجه پرداخت نامعتبر می باشد',
  [CODE.INVALID_TERMINAL]: 'شماره پایانه نامعتبر می باشد',
  [CODE.INVALID_ACCEPTOR]: 'شماره پذیرنده نا معتبر می باشد',
  [CODE.INVALID_TRANSACTION_TYPE]: 'نوع تراکنش اعلام شده در درخواست نا معتبر می باشد',
  [CODE.SECURITY_VIOLATION]: 'نقض امنیت درخواست',
  [CODE.INVALID_AMOUNT]: 'مبلغ مبادله شده نا معتبر می باشد',
};

/** How far a request's requestTimestamp (Unix seconds) may be from the bank's clock before it is "out of date" (906): no source gives IranKish's, this is the simulator's. */
const TIMESTAMP_SLACK_S = 600;

/** The acceptor the page's return names: the simulator's ACCEPTOR_ID, set when its routes are made (one protocol a process). */
let pageAcceptorId = '';

/**
 * IranKish's page: the token POSTed as tokenIdentity to /iuiv3/IPG/Index/, the choice to /iuiv3/IPG/Pay,
 * and IranKish's return as the corpus shows it (return-paid.json, return-canceled.json, return-failed.json):
 * responseCode "00" with the RRN, the STAN, the masked card and its SHA-256 when paid; "17" (abandoned) when
 * the customer cancels; "51" (insufficient funds) when the card fails.
 */
export const IRANKISH_PAGE: PageDialect = {
  pagePath: '/iuiv3/IPG/Index/',
  pageMethod: 'POST',
  choicePath: '/iuiv3/IPG/Pay',
  tokenField: 'tokenIdentity',
  // The RRN (12 digits) is the paid transaction's reference, the STAN (6 digits) its trace number.
  paidNumbers: () => {
    const rrn = digits(12);
    return { ref_num: rrn, rrn, trace_no: digits(6) };
  },
  // A Luhn-valid test card of a Shetab prefix.
  defaultCard: '6037991234567893',
  callbackFields(txn, amount): Record<string, string> {
    const ok = txn.outcome === 'success' || txn.outcome === 'delay';
    const common = {
      token: txn.token,
      acceptorId: pageAcceptorId,
      requestId: txn.res_num,
      paymentId: '',
      amount: String(amount),
    };
    if (!ok) return { ...common, responseCode: txn.outcome === 'cancel' ? CODE.CANCELED : CODE.INSUFFICIENT_FUNDS };
    return {
      ...common,
      responseCode: CODE.OK,
      retrievalReferenceNumber: txn.rrn ?? '',
      systemTraceAuditNumber: txn.trace_no ?? '',
      maskedPan: txn.card_pan ?? '',
      sha256OfPan: txn.card_sha256 ?? '',
    };
  },
};

export interface IrankishOptions {
  terminalId: string;
  /** The acceptor number every token request must name. */
  acceptorId: string;
  /** The terminal's password (hex), sealed in every token request's envelope. */
  password: string;
  /** "Delay in verification": how long the confirmation of a transaction left in "delay" answers 500 after the customer's choice. */
  delaySeconds: number;
  redirectOrigins: readonly string[];
}

const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v).trim() : '');
const object = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** RSA with PKCS#1 v1.5 padding opened by hand (Node refuses that padding to privateDecrypt): the message, or undefined. */
function openPkcs1(data: Buffer): Buffer | undefined {
  let block: Buffer;
  try {
    block = privateDecrypt(
      {
        key: createPrivateKey({ key: Buffer.from(IRANKISH_SIM_PRIVATE_KEY, 'base64'), format: 'der', type: 'pkcs8' }),
        padding: constants.RSA_NO_PADDING,
      },
      data,
    );
  } catch {
    return undefined;
  }
  if (block[0] !== 0 || block[1] !== 2) return undefined;
  const end = block.indexOf(0, 2);
  return end < 10 ? undefined : block.subarray(end + 1);
}

/**
 * Whether the envelope seals this terminal, its password and : the 48 bytes under the public
 * key are the AES key and the SHA-256 of the AES-128-CBC ciphertext of the hex of
 * terminal + password + the amount in twelve digits + "00" under that key and the envelope's IV.
 */
export function envelopeHolds(
  envelope: Record<string, unknown>,
  terminal: string,
  password: string,
  amount: number,
): boolean {
  const data = text(envelope.data);
  const iv = text(envelope.iv);
  if (!/^([0-9a-fA-F]{2})+$/.test(data) || !/^[0-9a-fA-F]{32}$/.test(iv)) return false;
  const opened = openPkcs1(Buffer.from(data, 'hex'));
  const base = `${terminal}${password}${String(amount).padStart(12, '0')}00`;
  if (opened?.length !== 48 || !/^([0-9A-Fa-f]{2})+$/.test(base)) return false;
  const cipher = createCipheriv('aes-128-cbc', opened.subarray(0, 16), Buffer.from(iv, 'hex'));
  const sealed = Buffer.concat([cipher.update(Buffer.from(base, 'hex')), cipher.final()]);
  return createHash('sha256').update(sealed).digest().equals(opened.subarray(16));
}

export function irankishRoutes({
  ledger,
  faults,
  options,
}: {
  ledger: Ledger;
  faults: FaultSwitches;
  options: IrankishOptions;
}): Routes {
  pageAcceptorId = options.acceptorId;
  const refuse = (res: ServerResponse, code: string) =>
    json(res, 200, { responseCode: code, description: DESCRIPTION[code] ?? '', status: false, result: null });

  const readFields = async (req: BankRequest['req']): Promise<Record<string, unknown>> => {
    try {
      return object(JSON.parse(await readBody(req)) as unknown);
    } catch {
      return {};
    }
  };

  const token = async ({ req, res }: BankRequest) => {
    const body = await readFields(req);
    // A token the caller never gets is not made; an error is IranKish's server error.
    const fault = faults.take('token');
    if (fault === 'slow') answerLate(res);
    if (fault === 'down') return dropConnection(res);
    if (fault === 'timeout') return hang(res);
    if (fault === 'error') return json(res, 500, null);
    const request = object(body.request);
    if (Object.keys(request).length === 0) return refuse(res, CODE.INVALID_REQUEST);
    const terminal = text(request.terminalId);
    const amount = typeof request.amount === 'number' ? request.amount : Number(text(request.amount));
    const requestId = text(request.requestId);
    const timestamp = Number(text(request.requestTimestamp));
    if (terminal !== options.terminalId) return refuse(res, CODE.INVALID_TERMINAL);
    if (text(request.acceptorId) !== options.acceptorId) return refuse(res, CODE.INVALID_ACCEPTOR);
    if (text(request.transactionType) !== 'Purchase') return refuse(res, CODE.INVALID_TRANSACTION_TYPE);
    if (!Number.isSafeInteger(amount) || amount <= 0) return refuse(res, CODE.INVALID_AMOUNT);
    if (!/^[0-9A-Za-z._-]{1,20}$/.test(requestId)) return refuse(res, CODE.INVALID_REQUEST_ID);
    if (!Number.isFinite(timestamp) || Math.abs(Date.now() / 1000 - timestamp) > TIMESTAMP_SLACK_S)
      return refuse(res, CODE.OUT_OF_DATE);
    // Only back to the merchant's gateway: the page's form and callback_repeat go to this address.
    const redirect = returnAddress(text(request.revertUri), options.redirectOrigins);
    if (redirect === undefined) return refuse(res, CODE.INVALID_RETURN_URL);
    if (!envelopeHolds(object(body.authenticationEnvelope), terminal, options.password, amount))
      return refuse(res, CODE.SECURITY_VIOLATION);
    const txn = openSale(ledger, {
      token: randomBytes(16).toString('hex').toUpperCase(),
      terminal,
      amount,
      resNum: requestId,
      redirectUrl: redirect,
      operationKey: text(req.headers['x-operation-key']),
    });
    const initiated = Math.floor(Date.now() / 1000);
    json(res, 200, {
      responseCode: CODE.OK,
      description: DESCRIPTION[CODE.OK],
      status: true,
      result: {
        token: txn.token,
        initiateTimeStamp: initiated,
        expiryTimeStamp: initiated + 900,
        transactionType: 'Purchase',
        billInfo: null,
      },
    });
  };

  /** The paid transaction the four fields name at this terminal, or undefined. */
  const named = (body: Record<string, unknown>): Transaction | undefined => {
    const found = ledger.byToken(text(body.tokenIdentity));
    return found !== undefined &&
      found.terminal === options.terminalId &&
      text(body.terminalId) === options.terminalId &&
      (found.outcome === 'success' || found.outcome === 'delay') &&
      text(body.retrievalReferenceNumber) === found.rrn &&
      text(body.systemTraceAuditNumber) === found.trace_no
      ? found
      : undefined;
  };

  /** The result of a confirmation or a reversal (verify-answer-ok.json, reverse-answer-ok.json); `extra` the other_amount fault's. */
  const result = (txn: Transaction, duplicate: boolean, extra = 0) => {
    const at = new Date(txn.chosen_at ?? txn.created_at);
    const tehran = new Date(at.getTime() + 3.5 * 3600_000).toISOString();
    return {
      responseCode: CODE.OK,
      systemTraceAuditNumber: txn.trace_no ?? '',
      retrievalReferenceNumber: txn.rrn ?? '',
      transactionDateTime: tehran.slice(0, 19),
      transactionDate: Number(tehran.slice(2, 10).replace(/-/g, '')),
      transactionTime: Number(tehran.slice(11, 19).replace(/:/g, '')),
      processCode: '00',
      requestId: txn.res_num,
      additional: null,
      billType: null,
      billId: null,
      paymentId: null,
      amount: String(txn.amount + extra),
      duplicateVerify: duplicate,
      revertUri: null,
      acceptorId: options.acceptorId,
      terminalId: txn.terminal,
      tokenIdentity: txn.token,
    };
  };
  const done = (res: ServerResponse, body: object) =>
    json(res, 200, { responseCode: CODE.OK, description: DESCRIPTION[CODE.OK], status: true, result: body });

  const confirm = async ({ req, res }: BankRequest) => {
    const body = await readFields(req);
    const txn = named(body);
    const operationKey = text(req.headers['x-operation-key']) || `confirm:${text(body.tokenIdentity)}`;
    const work = () => confirmOnce(ledger, txn, operationKey, options.delaySeconds);
    const fault = faults.take('confirm');
    if (fault === 'slow') answerLate(res);
    if (fault === 'down') return dropConnection(res);
    if (fault === 'error' || fault === 'in_progress') return json(res, 500, null);
    if (fault === 'unknown') return refuse(res, CODE.NOT_FOUND);
    if (fault === 'timeout') {
      work();
      return hang(res);
    }
    if (txn === undefined) return refuse(res, CODE.NOT_FOUND);
    // Given back already: by a reversal, or by the bank itself when nobody confirmed it in time.
    if (txn.reversed_at !== undefined) return refuse(res, CODE.REVERSED_BEFORE);
    const before = txn.confirmed_at;
    work();
    // "Delay in verification": IranKish has no "in progress" answer, so the confirmation fails as IranKish unavailable until the delay is over.
    if (txn.confirmed_at === undefined) return json(res, 500, null);
    done(res, result(txn, before !== undefined, fault === 'other_amount' ? OTHER_AMOUNT_DELTA : 0));
  };

  const reverse = async ({ req, res }: BankRequest) => {
    const body = await readFields(req);
    const txn = named(body);
    const operationKey = text(req.headers['x-operation-key']) || `reverse:${text(body.tokenIdentity)}`;
    const fault = faults.take('reverse');
    if (fault === 'slow') answerLate(res);
    if (fault === 'down') return dropConnection(res);
    if (fault === 'error') return json(res, 500, null);
    if (fault === 'unknown') return refuse(res, CODE.NOT_FOUND);
    if (fault === 'timeout') {
      reverseOnce(ledger, txn, operationKey);
      return hang(res);
    }
    if (txn === undefined) return refuse(res, CODE.NOT_FOUND);
    if (txn.reversed_at !== undefined) return refuse(res, CODE.REVERSED_BEFORE);
    reverseOnce(ledger, txn, operationKey);
    done(res, result(txn, false));
  };

  return (method, path) => {
    if (method !== 'POST') return undefined;
    if (path === IRANKISH_TOKEN_PATH) return token;
    if (path === IRANKISH_CONFIRM_PATH) return confirm;
    if (path === IRANKISH_REVERSE_PATH) return reverse;
    return undefined;
  };
}

/** IranKish's api/v3 IPG in the simulator's table of protocols (protocols.ts): its acceptor and public key are the gateway's SANDBOX_IRANKISH_ACCEPTOR_ID and SANDBOX_IRANKISH_PUBLIC_KEY, its password SANDBOX_IRANKISH_PASSWORD, given as BANK_SIM_ACCEPTOR_ID, BANK_SIM_PUBLIC_KEY and BANK_SIM_PASSWORD. */
export const IRANKISH_SIMULATOR: SimulatorProtocol = {
  name: 'irankish',
  title: "IranKish's (Iran Kish Credit Card Company's) api/v3 IPG",
  defaults: {
    port: 3106,
    terminalId: '08012345',
    autoReverseSeconds: 1200,
    settings: { ACCEPTOR_ID: '992180006082356', PUBLIC_KEY: IRANKISH_SIM_PUBLIC_KEY },
  },
  page: IRANKISH_PAGE,
  routes: ({ ledger, faults, options }) => [
    irankishRoutes({
      ledger,
      faults,
      options: {
        terminalId: options.terminalId,
        acceptorId: options.settings?.ACCEPTOR_ID ?? '',
        password: options.password,
        delaySeconds: options.delaySeconds,
        redirectOrigins: options.redirectOrigins,
      },
    }),
  ],
};
