/**
 * The PSP's server-to-server calls, as src/adapters/psp/sep/client.ts speaks
 * them (SEP's names): a token for a payment, then confirm (SEP's Verify),
 * settle, reverse and refund of a paid transaction by its RefNum, and the
 * inquiry of a payment's standing by its ResNum. Each operation happens once
 * per operation key (a repeat answers 2, "already"); the token and each
 * operation have their fault switch; the inquiry changes nothing, so it needs neither.
 */
import { randomBytes } from 'node:crypto';
import type { FaultSwitches, VerifyOperation } from './faults.ts';
import { answer, json, readJson, type BankRequest, type Routes } from './http.ts';
import { now, type Ledger, type Transaction } from './ledger.ts';
import { confirmOnce, reverseOnce, settleOnce } from './operations.ts';

export interface ProtocolOptions {
  terminalId: string;
  password: string;
  delaySeconds: number;
  redirectOrigins: readonly string[];
}

/** Whether `url`'s origin is one of `origins` (`scheme://host:*`: any port of that host). */
export function redirectAllowed(url: URL, origins: readonly string[]): boolean {
  return origins.some((origin) => {
    const anyPort = /^(https?:\/\/[^/:]+):\*$/.exec(origin);
    return anyPort !== null ? `${url.protocol}//${url.hostname}` === anyPort[1] : url.origin === origin;
  });
}

const VERIFY_FAMILY = /^\/verifyTxnRandomSessionkey\/ipg\/(Verify|Settle|Reverse|Refund)Transaction$/;
const INQUIRY_PATH = '/verifyTxnRandomSessionkey/ipg/InquiryTransaction';
const OPERATION_OF_CALL = { Verify: 'confirm', Settle: 'settle', Reverse: 'reverse', Refund: 'refund' } as const;

export function protocolRoutes({ ledger, faults, options }: { ledger: Ledger; faults: FaultSwitches; options: ProtocolOptions }): Routes {
  /** The terminal's password, when it has one, on every server-to-server call. */
  const passwordMatches = (given: unknown) => options.password === '' || given === options.password;
  const token = async ({ req, res }: BankRequest) => {
    const body = await readJson(req);
    // A token the caller never gets is not made: a hanging token call does no work.
    if (faults.apply('token', res, () => undefined)) return;
    const amount = Number(body.Amount);
    const resNum = typeof body.ResNum === 'string' ? body.ResNum : '';
    let redirect: URL | undefined;
    try {
      redirect = new URL(String(body.RedirectUrl));
    } catch {
      redirect = undefined;
    }
    if (body.action !== 'token' || String(body.TerminalId) !== options.terminalId || !passwordMatches(body.Password)) {
      return json(res, 200, { status: -1, errorCode: '12', errorDesc: 'terminal not found' });
    }
    if (!Number.isSafeInteger(amount) || amount <= 0 || resNum === '' || redirect === undefined || !/^https?:$/.test(redirect.protocol)) {
      return json(res, 200, { status: -1, errorCode: '5', errorDesc: 'invalid parameters' });
    }
    // Only back to the merchant's gateway: the page's form and callback_repeat go to this address.
    if (!redirectAllowed(redirect, options.redirectOrigins)) return json(res, 200, { status: -1, errorCode: '6', errorDesc: 'redirect address not registered for this terminal' });
    // One token per (terminal, ResNum): a retried token request answers the same token.
    const existing = ledger.byResNum(resNum).find((t) => t.amount === amount && t.outcome === undefined);
    if (existing !== undefined) return json(res, 200, { status: 1, token: existing.token });
    const txn: Transaction = { token: randomBytes(16).toString('hex'), terminal: options.terminalId, amount, res_num: resNum, redirect_url: redirect.toString(), created_at: now(), refunds: {} };
    ledger.add(txn);
    ledger.record({ kind: 'token', operation_key: req.headers['x-operation-key']?.toString() ?? '', res_num: resNum, ref_num: null, amount, at: now() });
    json(res, 200, { status: 1, token: txn.token });
  };

  /** A transaction on the verify family's calls: by RefNum and terminal (and password, when set). */
  const byRef = (body: Record<string, unknown>): Transaction | undefined => {
    const terminal = body.TerminalNumber;
    if ((typeof terminal === 'string' || typeof terminal === 'number' ? String(terminal) : '') !== options.terminalId) return undefined;
    if (!passwordMatches(body.Password)) return undefined;
    const txn = typeof body.RefNum === 'string' && body.RefNum !== '' ? ledger.byRef(body.RefNum) : undefined;
    return txn?.outcome === 'success' || txn?.outcome === 'delay' ? txn : undefined;
  };

  const detail = (txn: Transaction) => ({
    RRN: txn.rrn,
    RefNum: txn.ref_num,
    ResNum: txn.res_num,
    MaskedPan: txn.card_pan,
    // The SHA-256 of the full card, hex: how SEP names the card server to server (the gateway holds it against a payment's allowed cards).
    HashedPan: txn.card_sha256 ?? '',
    TerminalNumber: Number(txn.terminal),
    OrginalAmount: txn.amount,
    AffectiveAmount: txn.amount,
    StraceDate: txn.chosen_at,
    StraceNo: txn.trace_no,
  });

  const reply = (res: BankRequest['res'], code: number, description: string, txn?: Transaction) => answer(res, code, description, txn === undefined ? undefined : detail(txn));

  /**
   * The inquiry: what became of the payment `ResNum` at this terminal, asked by the payment's id
   * because a return that says "failed" may carry no RefNum, or a forged one. The customer's
   * choice as the bank holds it, and nothing of the card: Succeeded (paid or "delay", not
   * reversed), Reversed, Failed, CanceledByUser, or Open (a token, no choice yet); -2 when the
   * terminal, its password or the ResNum is unknown.
   */
  const inquiry = async ({ req, res }: BankRequest) => {
    const body = await readJson(req);
    const terminal = body.TerminalNumber;
    const resNum = typeof body.ResNum === 'string' ? body.ResNum : '';
    const known = (typeof terminal === 'string' || typeof terminal === 'number' ? String(terminal) : '') === options.terminalId && passwordMatches(body.Password);
    const txns = known && resNum !== '' ? ledger.byResNum(resNum).filter((t) => t.terminal === options.terminalId) : [];
    if (txns.length === 0) return json(res, 200, { ResultCode: -2, ResultDescription: 'transaction not found', Success: false });
    const standing = (t: Transaction): string => {
      if (t.outcome === 'success' || t.outcome === 'delay') return t.reversed_at === undefined ? 'Succeeded' : 'Reversed';
      if (t.outcome === 'failure') return 'Failed';
      if (t.outcome === 'cancel') return 'CanceledByUser';
      return 'Open';
    };
    // A paid transaction outranks the others: one ResNum may have had a token the customer never used.
    const order = ['Succeeded', 'Open', 'Reversed', 'CanceledByUser', 'Failed'];
    const status = txns.map(standing).sort((a, b) => order.indexOf(a) - order.indexOf(b))[0];
    json(res, 200, { ResultCode: 0, ResultDescription: 'found', Success: true, Status: status, ResNum: resNum });
  };

  const verifyFamily: Record<VerifyOperation, (body: Record<string, unknown>, key: string, res: BankRequest['res']) => void> = {
    confirm(body, key, res) {
      const txn = byRef(body);
      const work = () => confirmOnce(ledger, txn, key, options.delaySeconds);
      if (faults.apply('confirm', res, work)) return;
      if (txn === undefined) return reply(res, -2, 'transaction not found');
      if (txn.reversed_at !== undefined) return reply(res, -6, 'transaction reversed', txn);
      const before = txn.confirmed_at;
      work();
      if (txn.confirmed_at === undefined) return reply(res, 100, 'in progress: ask again later');
      reply(res, before === undefined ? 0 : 2, before === undefined ? 'verified' : 'already verified', txn);
    },
    settle(body, key, res) {
      const txn = byRef(body);
      const work = () => settleOnce(ledger, txn, key);
      if (faults.apply('settle', res, work)) return;
      if (txn === undefined || txn.confirmed_at === undefined) return reply(res, -2, 'no verified transaction');
      if (txn.reversed_at !== undefined) return reply(res, -6, 'transaction reversed', txn);
      const before = txn.settled_at;
      work();
      reply(res, before === undefined ? 0 : 2, before === undefined ? 'settled' : 'already settled', txn);
    },
    reverse(body, key, res) {
      const txn = byRef(body);
      const work = () => reverseOnce(ledger, txn, key);
      if (faults.apply('reverse', res, work)) return;
      if (txn === undefined) return reply(res, -2, 'transaction not found');
      if (txn.settled_at !== undefined) return reply(res, -7, 'a settled transaction cannot be reversed', txn);
      const before = txn.reversed_at;
      work();
      reply(res, before === undefined ? 0 : 2, before === undefined ? 'reversed' : 'already reversed', txn);
    },
    refund(body, key, res) {
      const txn = byRef(body);
      const refundId = typeof body.RefundId === 'string' ? body.RefundId : '';
      const amount = Number(body.Amount);
      const refused = (): [number, string] | undefined => {
        if (txn === undefined || txn.settled_at === undefined) return [-2, 'no settled transaction'];
        if (refundId === '' || !Number.isSafeInteger(amount) || amount <= 0) return [-3, 'invalid refund'];
        if (Object.hasOwn(txn.refunds, refundId)) return undefined;
        const refunded = Object.values(txn.refunds).reduce((a, b) => a + b, 0);
        if (refunded + amount > txn.amount) return [-8, 'refunds exceed the amount'];
        return undefined;
      };
      const work = () => {
        if (txn === undefined || refused() !== undefined || Object.hasOwn(txn.refunds, refundId)) return;
        txn.refunds[refundId] = amount;
        ledger.changed(txn);
        ledger.record({ kind: 'refund', operation_key: key, res_num: txn.res_num, ref_num: txn.ref_num ?? null, amount, at: now() });
      };
      if (faults.apply('refund', res, work)) return;
      const refusal = refused();
      if (refusal !== undefined) return reply(res, refusal[0], refusal[1]);
      const before = txn !== undefined && Object.hasOwn(txn.refunds, refundId);
      work();
      reply(res, before ? 2 : 0, before ? 'already refunded' : 'refunded', txn);
    },
  };

  return (method, path) => {
    if (method !== 'POST') return undefined;
    if (path.toLowerCase() === '/onlinepg/onlinepg') return token;
    if (path === INQUIRY_PATH) return inquiry;
    const call = VERIFY_FAMILY.exec(path);
    if (call === null) return undefined;
    const op = OPERATION_OF_CALL[call[1] as keyof typeof OPERATION_OF_CALL];
    return async ({ req, res }) => {
      const body = await readJson(req);
      const key = req.headers['x-operation-key']?.toString() ?? `${op}:${String(body.RefNum)}`;
      verifyFamily[op](body, key, res);
    };
  };
}
