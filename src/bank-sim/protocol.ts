/**
 * The PSP's server-to-server calls, as src/adapters/psp/sep.ts speaks
 * them (SEP's names): a token for a payment, then confirm (SEP's Verify),
 * settle, reverse and refund of a paid transaction by its RefNum. Each
 * operation happens once per operation key (a repeat answers 2, "already"),
 * and each has its fault switch.
 */
import { randomBytes } from 'node:crypto';
import type { FaultOperation, FaultSwitches } from './faults.ts';
import { answer, json, readJson, type BankRequest, type Routes } from './http.ts';
import { now, type Ledger, type Transaction } from './ledger.ts';

export interface ProtocolOptions {
  terminalId: string;
  password: string;
  delaySeconds: number;
}

const VERIFY_FAMILY = /^\/verifyTxnRandomSessionkey\/ipg\/(Verify|Settle|Reverse|Refund)Transaction$/;
const OPERATION_OF_CALL = { Verify: 'confirm', Settle: 'settle', Reverse: 'reverse', Refund: 'refund' } as const;

export function protocolRoutes({ ledger, faults, options }: { ledger: Ledger; faults: FaultSwitches; options: ProtocolOptions }): Routes {
  const token = async ({ req, res }: BankRequest) => {
    const body = await readJson(req);
    const amount = Number(body.Amount);
    const resNum = typeof body.ResNum === 'string' ? body.ResNum : '';
    let redirect: URL | undefined;
    try {
      redirect = new URL(String(body.RedirectUrl));
    } catch {
      redirect = undefined;
    }
    if (body.action !== 'token' || String(body.TerminalId) !== options.terminalId) return json(res, 200, { status: -1, errorCode: '12', errorDesc: 'terminal not found' });
    if (!Number.isSafeInteger(amount) || amount <= 0 || resNum === '' || redirect === undefined || !/^https?:$/.test(redirect.protocol)) {
      return json(res, 200, { status: -1, errorCode: '5', errorDesc: 'invalid parameters' });
    }
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
    if (options.password !== '' && body.Password !== options.password) return undefined;
    const txn = typeof body.RefNum === 'string' && body.RefNum !== '' ? ledger.byRef(body.RefNum) : undefined;
    return txn?.outcome === 'success' || txn?.outcome === 'delay' ? txn : undefined;
  };

  const detail = (txn: Transaction) => ({
    RRN: txn.rrn,
    RefNum: txn.ref_num,
    ResNum: txn.res_num,
    MaskedPan: txn.card_pan,
    HashedPan: '',
    TerminalNumber: Number(txn.terminal),
    OrginalAmount: txn.amount,
    AffectiveAmount: txn.amount,
    StraceDate: txn.chosen_at,
    StraceNo: txn.trace_no,
  });

  const reply = (res: BankRequest['res'], code: number, description: string, txn?: Transaction) => answer(res, code, description, txn === undefined ? undefined : detail(txn));

  const verifyFamily: Record<FaultOperation, (body: Record<string, unknown>, key: string, res: BankRequest['res']) => void> = {
    confirm(body, key, res) {
      const txn = byRef(body);
      const work = () => {
        if (txn === undefined || txn.reversed_at !== undefined) return;
        if (txn.outcome === 'delay') {
          const due = Date.parse(txn.chosen_at ?? now()) + options.delaySeconds * 1000;
          if (!txn.answered_in_progress || Date.now() < due) {
            txn.answered_in_progress = true;
            ledger.changed(txn);
            return;
          }
        }
        if (txn.confirmed_at === undefined) {
          txn.confirmed_at = now();
          ledger.changed(txn);
          ledger.record({ kind: 'confirm', operation_key: key, res_num: txn.res_num, ref_num: txn.ref_num ?? null, amount: txn.amount, at: now() });
        }
      };
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
      const work = () => {
        if (txn === undefined || txn.confirmed_at === undefined || txn.reversed_at !== undefined || txn.settled_at !== undefined) return;
        txn.settled_at = now();
        ledger.changed(txn);
        ledger.record({ kind: 'settle', operation_key: key, res_num: txn.res_num, ref_num: txn.ref_num ?? null, amount: txn.amount, at: now() });
      };
      if (faults.apply('settle', res, work)) return;
      if (txn === undefined || txn.confirmed_at === undefined) return reply(res, -2, 'no verified transaction');
      if (txn.reversed_at !== undefined) return reply(res, -6, 'transaction reversed', txn);
      const before = txn.settled_at;
      work();
      reply(res, before === undefined ? 0 : 2, before === undefined ? 'settled' : 'already settled', txn);
    },
    reverse(body, key, res) {
      const txn = byRef(body);
      const work = () => {
        if (txn === undefined || txn.settled_at !== undefined || txn.reversed_at !== undefined) return;
        txn.reversed_at = now();
        ledger.changed(txn);
        ledger.record({ kind: 'reverse', operation_key: key, res_num: txn.res_num, ref_num: txn.ref_num ?? null, amount: txn.amount, at: now() });
      };
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
