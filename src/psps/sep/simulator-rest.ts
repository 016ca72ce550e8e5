/**
 * SEP's server-to-server calls as its conformance corpus shows them (test/fixtures/psps/sep/,
 * docs/psps/sep.md): a token for a payment, then VerifyTransaction (final: SEP has no settle) and
 * ReverseTransaction of a paid transaction by its RefNum. Nothing else: SEP has no inquiry by
 * ResNum, no refund and no report call, so this bank answers those paths 404 as SEP would.
 *
 * Lenient where SEP's real clients differ (the corpus's disagreements): a field's name in any case
 * (Parbad sends camelCase), numbers as strings (TerminalNumber), a JSON or a form body
 * (hossein-225 posts a form). Strict where SEP is: the terminal, its password when it has one, a
 * verify after 30 minutes (-6: SEP has given the money back by itself), a reversal after SEP's
 * 50-minute window (-6), a reversed transaction (5).
 *
 * Each operation happens once per operation key (a repeat answers 2, "a repeated request", with
 * the transaction's detail); the token and each operation have their fault switch.
 */
import { httpUrl, openSale } from '../../bank-sim/sale.ts';
import { randomBytes } from 'node:crypto';
import type { FaultSwitches } from '../../bank-sim/faults.ts';
import { answer, json, readBody, type BankRequest, type Routes } from '../../bank-sim/http.ts';
import { type Ledger, type Transaction } from '../../bank-sim/ledger.ts';
import { confirmOnce, reverseOnce } from '../../bank-sim/operations.ts';
import { redirectAllowed, type ProtocolOptions } from '../../bank-sim/simulator-protocol.ts';

/** A body as SEP's clients send it: JSON, or a form (hossein-225); keys lower-cased, so a field's case never matters. */
async function readFields(req: BankRequest['req']): Promise<Record<string, unknown>> {
  const text = await readBody(req);
  const form = /application\/x-www-form-urlencoded/i.test(req.headers['content-type'] ?? '');
  const raw: Record<string, unknown> = form
    ? Object.fromEntries(new URLSearchParams(text))
    : (JSON.parse(text) as Record<string, unknown>);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('not an object');
  return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k.toLowerCase(), v]));
}

/** A field that may come as a string or a number, as a string ('' when neither). */
const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v).trim() : '');

const VERIFY_PATH = '/verifytxnrandomsessionkey/ipg/verifytransaction';
const REVERSE_PATH = '/verifytxnrandomsessionkey/ipg/reversetransaction';

export function sepRestRoutes({
  ledger,
  faults,
  options,
}: {
  ledger: Ledger;
  faults: FaultSwitches;
  options: ProtocolOptions;
}): Routes {
  /** The terminal's password, when it has one, on every server-to-server call. */
  const passwordMatches = (given: unknown) => options.password === '' || given === options.password;
  const reversalWindowMs = (options.reversalWindowSeconds ?? 3000) * 1000;
  const token = async ({ req, res }: BankRequest) => {
    const body = await readFields(req);
    // A token the caller never gets is not made: a hanging token call does no work.
    if (faults.apply('token', res, () => undefined)) return;
    const amount = Number(text(body.amount));
    const resNum = text(body.resnum);
    const redirect = httpUrl(text(body.redirecturl));
    if (
      text(body.action).toLowerCase() !== 'token' ||
      text(body.terminalid) !== options.terminalId ||
      !passwordMatches(body.password)
    ) {
      return json(res, 200, { status: -1, errorCode: '12', errorDesc: 'شماره ترمینال ارسال شده یافت نشد.' });
    }
    if (
      !Number.isSafeInteger(amount) ||
      amount <= 0 ||
      resNum === '' ||
      redirect === undefined ||
      !/^https?:$/.test(redirect.protocol)
    ) {
      return json(res, 200, { status: -1, errorCode: '5', errorDesc: 'پارامترهای ارسالی نامعتبر است.' });
    }
    // Only back to the merchant's gateway: the page's form and callback_repeat go to this address (8: the merchant's address is not valid).
    if (!redirectAllowed(redirect, options.redirectOrigins))
      return json(res, 200, { status: -1, errorCode: '8', errorDesc: 'آدرس سرور پذیرنده نامعتبر است.' });
    // One token per (terminal, ResNum): a retried token request answers the same token.
    const existing = ledger.byResNum(resNum).find((t) => t.amount === amount && t.outcome === undefined);
    if (existing !== undefined) return json(res, 200, { status: 1, token: existing.token });
    const txn = openSale(ledger, {
      token: randomBytes(16).toString('hex'),
      terminal: options.terminalId,
      amount,
      resNum: resNum,
      redirectUrl: redirect,
      operationKey: req.headers['x-operation-key']?.toString() ?? '',
    });
    json(res, 200, { status: 1, token: txn.token });
  };

  /** A paid transaction of this terminal by its RefNum (and the password, when set). */
  const byRef = (body: Record<string, unknown>): Transaction | undefined => {
    if (text(body.terminalnumber) !== options.terminalId || !passwordMatches(body.password)) return undefined;
    const refNum = text(body.refnum);
    const txn = refNum !== '' ? ledger.byRef(refNum) : undefined;
    return txn?.outcome === 'success' || txn?.outcome === 'delay' ? txn : undefined;
  };

  /** SEP's TransactionDetail (the corpus's verify-answer-ok.json): no ResNum, TerminalNumber a number. */
  const detail = (txn: Transaction) => ({
    RRN: txn.rrn,
    RefNum: txn.ref_num,
    MaskedPan: txn.card_pan,
    // 64 hex digits: the simulator's is the SHA-256 of the full card (how SEP computes its own no reference says).
    HashedPan: txn.card_sha256 ?? '',
    TerminalNumber: Number(txn.terminal),
    OrginalAmount: txn.amount,
    AffectiveAmount: txn.amount,
    StraceDate: (txn.chosen_at ?? txn.created_at).replace('T', ' ').slice(0, 19),
    StraceNo: txn.trace_no,
  });

  /** A refusal carries no detail (the corpus's verify-answer-not-found.json); a success and a repeat carry the transaction's. */
  const reply = (res: BankRequest['res'], code: number, description: string, txn?: Transaction) =>
    answer(res, code, description, txn === undefined ? undefined : detail(txn));

  const verify = (body: Record<string, unknown>, key: string, res: BankRequest['res']) => {
    const txn = byRef(body);
    const work = () => confirmOnce(ledger, txn, key, options.delaySeconds);
    if (faults.apply('confirm', res, work)) return;
    if (txn === undefined) return reply(res, -2, 'تراکنش یافت نشد.');
    // Reversed by ReverseTransaction (5), or by SEP itself because nobody verified it in 30 minutes (-6).
    if (txn.reversed_at !== undefined) {
      return txn.confirmed_at === undefined
        ? reply(res, -6, 'بیش از نیم ساعت از زمان اجرای تراکنش گذشته است.')
        : reply(res, 5, 'تراکنش برگشت خورده می باشد.');
    }
    const before = txn.confirmed_at;
    work();
    if (txn.confirmed_at === undefined)
      return reply(res, 100, "in progress: ask again later (the simulator's own test control)");
    reply(
      res,
      before === undefined ? 0 : 2,
      before === undefined ? 'عملیات با موفقیت انجام شد' : 'درخواست تکراری می باشد.',
      txn,
    );
  };

  const reverse = (body: Record<string, unknown>, key: string, res: BankRequest['res']) => {
    const txn = byRef(body);
    const late =
      txn?.confirmed_at !== undefined &&
      txn.reversed_at === undefined &&
      reversalWindowMs > 0 &&
      Date.now() - Date.parse(txn.confirmed_at) > reversalWindowMs;
    const work = () => {
      if (!late) reverseOnce(ledger, txn, key);
    };
    if (faults.apply('reverse', res, work)) return;
    if (txn === undefined) return reply(res, -2, 'تراکنش یافت نشد.');
    if (late) return reply(res, -6, 'the reversal window of the verify has passed');
    const before = txn.reversed_at;
    work();
    reply(
      res,
      before === undefined ? 0 : 2,
      before === undefined ? 'عملیات با موفقیت انجام شد' : 'درخواست تکراری می باشد.',
      txn,
    );
  };

  const verifyFamily = (call: typeof verify, op: string): ((request: BankRequest) => Promise<void>) => {
    return async ({ req, res }) => {
      const body = await readFields(req);
      const key = req.headers['x-operation-key']?.toString() ?? `${op}:${text(body.refnum)}`;
      call(body, key, res);
    };
  };

  return (method, path) => {
    if (method !== 'POST') return undefined;
    const lower = path.toLowerCase();
    if (lower === '/onlinepg/onlinepg') return token;
    if (lower === VERIFY_PATH) return verifyFamily(verify, 'confirm');
    if (lower === REVERSE_PATH) return verifyFamily(reverse, 'reverse');
    return undefined;
  };
}
