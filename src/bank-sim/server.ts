/**
 * The bank simulator (docs/BANK.md): a separate process that speaks the
 * PSP protocol of src/adapters/bank-protocol.ts, with the customer's page
 * (four outcomes, Persian by default, English with ?lang=en), its own
 * ledger (ledger.ts) and fault switches for tests (/admin/faults). It
 * imports nothing of the gateway: it is the bank, not part of us.
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Ledger, type Outcome, type Transaction } from './ledger.ts';

export interface SimulatorOptions {
  stateFile: string;
  /** The one terminal this bank knows; token and verify calls must name it. */
  terminalId: string;
  /** '' when server-to-server calls need no password. */
  password: string;
  /** "Delay in verification": how long confirm answers "in progress" after the customer's choice. */
  delaySeconds: number;
  /**
   * A paid transaction nobody confirmed within this many seconds of the customer's choice is
   * reversed by the bank itself, as Shaparak PSPs do (SEP: 30 minutes): the customer's money
   * comes back even when the gateway never answers. 0 turns it off.
   */
  autoReverseSeconds?: number;
}

const OUTCOMES: readonly Outcome[] = ['success', 'failure', 'cancel', 'delay'];
type FaultOperation = 'confirm' | 'settle' | 'reverse' | 'refund';
/** Paya transfers (payouts to merchants) have fault switches of the same kinds. */
type SwitchedOperation = FaultOperation | 'payout';
/** `in_progress` only for confirm: the bank keeps answering "in progress" as long as it is on. */
type FaultKind = 'timeout' | 'error' | 'unknown' | 'in_progress';
interface Fault {
  kind: FaultKind;
  remaining: number;
}
/** Faults for the customer's return: the callback carries another amount, or reaches the gateway more than once. */
interface CallbackFaults {
  other_amount: number;
  /** How many extra times the bank posts the callback to the gateway itself, before the customer's own post. */
  repeat: number;
}

const TEXT = {
  fa: {
    title: 'درگاه پرداخت بانک (شبیه‌ساز)',
    amount: 'مبلغ',
    rials: 'ریال',
    choose: 'نتیجهٔ پرداخت را انتخاب کنید:',
    success: 'پرداخت موفق',
    failure: 'پرداخت ناموفق',
    cancel: 'انصراف',
    delay: 'تأخیر در تأیید',
    back: 'بازگشت به فروشگاه',
    backHint: 'برای پایان خرید به فروشگاه برگردید.',
    unknown: 'تراکنش پیدا نشد یا منقضی شده است.',
    other: 'English',
  },
  en: {
    title: 'Bank payment gateway (simulator)',
    amount: 'Amount',
    rials: 'rials',
    choose: 'Choose the outcome of the payment:',
    success: 'Successful payment',
    failure: 'Failed payment',
    cancel: 'Cancel',
    delay: 'Delay in verification',
    back: 'Return to the shop',
    backHint: 'Go back to the shop to finish your purchase.',
    unknown: 'The transaction was not found or has expired.',
    other: 'فارسی',
  },
} as const;
type Lang = keyof typeof TEXT;

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const digits = (n: number) => Array.from({ length: n }, () => String(randomInt(10))).join('');

const CSS = `body{font-family:sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;background:#f4f6fb}
main{background:#fff;border-radius:8px;padding:1.5rem}button{display:block;width:100%;margin:.5rem 0;padding:.75rem;font-size:1rem}
.amount{font-size:1.4rem;font-weight:bold}`;

export function createSimulator(options: SimulatorOptions): { server: Server; ledger: Ledger } {
  const ledger = new Ledger(options.stateFile);
  const faults = new Map<SwitchedOperation, Fault>();
  let callbackFaults: Partial<CallbackFaults> = {};

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body));
  };

  const html = (res: ServerResponse, status: number, lang: Lang, body: string, formTarget?: string) => {
    const formAction = formTarget === undefined ? "'self'" : `'self' ${new URL(formTarget).origin}`;
    res.writeHead(status, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': `default-src 'none'; style-src 'self'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    });
    const t = TEXT[lang];
    res.end(`<!doctype html><html lang="${lang}" dir="${lang === 'fa' ? 'rtl' : 'ltr'}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${t.title}</title><link rel="stylesheet" href="/bank.css"></head>
<body><main><h1>${t.title}</h1>${body}</main></body></html>`);
  };

  const readBody = (req: IncomingMessage): Promise<string> =>
    new Promise((resolve, reject) => {
      let size = 0;
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size > 16_384) reject(new Error('too large'));
        else chunks.push(c);
      });
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      req.on('error', reject);
    });

  const formatAmount = (amount: number, lang: Lang) => `${new Intl.NumberFormat(lang === 'fa' ? 'fa-IR' : 'en-US').format(amount)} ${TEXT[lang].rials}`;

  /** The fields the bank posts back to the merchant's RedirectUrl (SEP's names). */
  const callbackFields = (txn: Transaction): Record<string, string> => {
    const ok = txn.outcome === 'success' || txn.outcome === 'delay';
    const [state, status] = ok ? ['OK', '2'] : txn.outcome === 'cancel' ? ['CanceledByUser', '1'] : ['Failed', '3'];
    const amount = txn.amount + (callbackFaults.other_amount ?? 0);
    return {
      MID: txn.terminal,
      TerminalId: txn.terminal,
      State: state,
      Status: status,
      RefNum: ok ? (txn.ref_num ?? '') : '',
      ResNum: txn.res_num,
      TraceNo: ok ? (txn.trace_no ?? '') : '',
      RRN: ok ? (txn.rrn ?? '') : '',
      SecurePan: ok ? (txn.card_pan ?? '') : '',
      HashedCardNumber: ok ? createHash('sha256').update(txn.card_pan ?? '').digest('hex') : '',
      Amount: String(amount),
      AffectiveAmount: String(amount),
      Wage: '0',
      Token: txn.token,
    };
  };

  /**
   * The "callback repeated" fault: the bank posts the return fields to the gateway itself, as a
   * PSP's server-side notification or a customer's double submit would, before the customer's post.
   */
  const repeatCallback = async (txn: Transaction) => {
    for (let i = 0; i < (callbackFaults.repeat ?? 0); i += 1) {
      const status = await fetch(txn.redirect_url, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(callbackFields(txn)).toString(),
        signal: AbortSignal.timeout(10_000),
      }).then(
        (res) => res.status,
        () => 0, // a gateway that does not answer misses this copy; the customer's post still comes
      );
      (txn.repeated_callbacks ??= []).push(status);
      ledger.changed(txn);
    }
  };

  /** Reverses, as the bank does on its own, paid transactions nobody confirmed in time. */
  const autoReverseMs = (options.autoReverseSeconds ?? 1800) * 1000;
  const reverseUnconfirmed = () => {
    const cutoff = Date.now() - autoReverseMs;
    for (const txn of ledger.unconfirmedPaid()) {
      if (Date.parse(txn.chosen_at ?? now()) > cutoff) continue;
      txn.reversed_at = now();
      ledger.changed(txn);
      ledger.record({ kind: 'reverse', operation_key: `auto-reverse:${txn.ref_num ?? txn.token}`, res_num: txn.res_num, ref_num: txn.ref_num ?? null, amount: txn.amount, at: now() });
    }
  };

  const returnPage = (res: ServerResponse, txn: Transaction, lang: Lang) => {
    const t = TEXT[lang];
    const fields = Object.entries(callbackFields(txn))
      .map(([k, v]) => `<input type="hidden" name="${k}" value="${esc(v)}">`)
      .join('');
    const redirect = new URL(txn.redirect_url);
    if (lang === 'en') redirect.searchParams.set('lang', 'en');
    html(
      res,
      200,
      lang,
      `<p id="outcome" data-outcome="${txn.outcome ?? ''}">${t[txn.outcome ?? 'failure']}</p><p>${t.backHint}</p>
<form method="post" action="${esc(redirect.toString())}">${fields}<button type="submit" id="back">${t.back}</button></form>`,
      redirect.toString(),
    );
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

  const answer = (res: ServerResponse, code: number, description: string, txn?: Transaction) =>
    json(res, 200, { ...(txn === undefined ? {} : { TransactionDetail: detail(txn) }), ResultCode: code, ResultDescription: description, Success: code === 0 || code === 2 });

  const now = () => new Date().toISOString();

  /** Applies a switched-on fault; answers whether the request is already answered (or left hanging). */
  const fault = (op: SwitchedOperation, res: ServerResponse, work: () => void): boolean => {
    const f = faults.get(op);
    if (f === undefined) return false;
    f.remaining -= 1;
    if (f.remaining <= 0) faults.delete(op);
    if (f.kind === 'error') json(res, 503, { ResultCode: -1, ResultDescription: 'service unavailable' });
    else if (f.kind === 'unknown') answer(res, -2, 'transaction not found');
    else if (f.kind === 'in_progress') answer(res, 100, 'in progress: ask again later');
    else {
      // The bank did the work but its answer never arrives: the caller times out and asks again.
      work();
      setTimeout(() => res.destroy(), 120_000).unref();
    }
    return true;
  };

  const verifyFamily: Record<FaultOperation, (body: Record<string, unknown>, key: string, res: ServerResponse) => void> = {
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
      if (fault('confirm', res, work)) return;
      if (txn === undefined) return answer(res, -2, 'transaction not found');
      if (txn.reversed_at !== undefined) return answer(res, -6, 'transaction reversed', txn);
      const before = txn.confirmed_at;
      work();
      if (txn.confirmed_at === undefined) return answer(res, 100, 'in progress: ask again later');
      answer(res, before === undefined ? 0 : 2, before === undefined ? 'verified' : 'already verified', txn);
    },
    settle(body, key, res) {
      const txn = byRef(body);
      const work = () => {
        if (txn === undefined || txn.confirmed_at === undefined || txn.reversed_at !== undefined || txn.settled_at !== undefined) return;
        txn.settled_at = now();
        ledger.changed(txn);
        ledger.record({ kind: 'settle', operation_key: key, res_num: txn.res_num, ref_num: txn.ref_num ?? null, amount: txn.amount, at: now() });
      };
      if (fault('settle', res, work)) return;
      if (txn === undefined || txn.confirmed_at === undefined) return answer(res, -2, 'no verified transaction');
      if (txn.reversed_at !== undefined) return answer(res, -6, 'transaction reversed', txn);
      const before = txn.settled_at;
      work();
      answer(res, before === undefined ? 0 : 2, before === undefined ? 'settled' : 'already settled', txn);
    },
    reverse(body, key, res) {
      const txn = byRef(body);
      const work = () => {
        if (txn === undefined || txn.settled_at !== undefined || txn.reversed_at !== undefined) return;
        txn.reversed_at = now();
        ledger.changed(txn);
        ledger.record({ kind: 'reverse', operation_key: key, res_num: txn.res_num, ref_num: txn.ref_num ?? null, amount: txn.amount, at: now() });
      };
      if (fault('reverse', res, work)) return;
      if (txn === undefined) return answer(res, -2, 'transaction not found');
      if (txn.settled_at !== undefined) return answer(res, -7, 'a settled transaction cannot be reversed', txn);
      const before = txn.reversed_at;
      work();
      answer(res, before === undefined ? 0 : 2, before === undefined ? 'reversed' : 'already reversed', txn);
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
      if (fault('refund', res, work)) return;
      const refusal = refused();
      if (refusal !== undefined) return answer(res, refusal[0], refusal[1]);
      const before = txn !== undefined && Object.hasOwn(txn.refunds, refundId);
      work();
      answer(res, before ? 2 : 0, before ? 'already refunded' : 'refunded', txn);
    },
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://bank');
    const lang: Lang = url.searchParams.get('lang') === 'en' ? 'en' : 'fa';
    const path = url.pathname;
    const method = req.method ?? 'GET';

    if (method === 'GET' && path === '/healthz') return json(res, 200, { ok: true });
    if (method === 'GET' && path === '/bank.css') {
      res.writeHead(200, { 'content-type': 'text/css; charset=utf-8' });
      res.end(CSS);
      return;
    }

    if (method === 'POST' && path.toLowerCase() === '/onlinepg/onlinepg') {
      const body = JSON.parse(await readBody(req)) as Record<string, unknown>;
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
      return json(res, 200, { status: 1, token: txn.token });
    }

    if (method === 'GET' && path === '/OnlinePG/SendToken') {
      const txn = ledger.byToken(url.searchParams.get('token') ?? '');
      const t = TEXT[lang];
      if (txn === undefined) return html(res, 404, lang, `<p id="unknown">${t.unknown}</p>`);
      if (txn.outcome !== undefined) return returnPage(res, txn, lang);
      const other = new URL(url);
      other.searchParams.set('lang', lang === 'fa' ? 'en' : 'fa');
      const buttons = OUTCOMES.map((o) => `<button type="submit" name="outcome" value="${o}">${t[o]}</button>`).join('');
      return html(
        res,
        200,
        lang,
        `<p><a id="lang" href="${esc(other.pathname + other.search)}">${t.other}</a></p>
<p>${t.amount}: <span class="amount" id="amount">${formatAmount(txn.amount, lang)}</span></p><p>${t.choose}</p>
<form method="post" action="/OnlinePG/pay${lang === 'en' ? '?lang=en' : ''}"><input type="hidden" name="token" value="${esc(txn.token)}">${buttons}</form>`,
      );
    }

    if (method === 'POST' && path === '/OnlinePG/pay') {
      const form = new URLSearchParams(await readBody(req));
      const txn = ledger.byToken(form.get('token') ?? '');
      const outcome = form.get('outcome') as Outcome;
      if (txn === undefined) return html(res, 404, lang, `<p id="unknown">${TEXT[lang].unknown}</p>`);
      if (!OUTCOMES.includes(outcome)) return html(res, 400, lang, `<p>${TEXT[lang].unknown}</p>`);
      // The first choice stands: a second post shows the same return.
      if (txn.outcome === undefined) {
        txn.outcome = outcome;
        txn.chosen_at = now();
        if (outcome === 'success' || outcome === 'delay') {
          txn.ref_num = digits(14);
          txn.rrn = digits(12);
          txn.trace_no = digits(6);
          txn.card_pan = `603799******${digits(4)}`;
        }
        ledger.changed(txn);
        await repeatCallback(txn);
      }
      return returnPage(res, txn, lang);
    }

    const verify = /^\/verifyTxnRandomSessionkey\/ipg\/(Verify|Settle|Reverse|Refund)Transaction$/.exec(path);
    if (method === 'POST' && verify !== null) {
      const op = ({ Verify: 'confirm', Settle: 'settle', Reverse: 'reverse', Refund: 'refund' } as const)[verify[1] as 'Verify' | 'Settle' | 'Reverse' | 'Refund'];
      const body = JSON.parse(await readBody(req)) as Record<string, unknown>;
      const key = req.headers['x-operation-key']?.toString() ?? `${op}:${String(body.RefNum)}`;
      return verifyFamily[op](body, key, res);
    }

    // Paya: a transfer to a merchant's IBAN, once per TransferId (a repeat is answered 2 with the first transfer).
    if (method === 'POST' && path === '/paya/transfer') {
      const body = JSON.parse(await readBody(req)) as Record<string, unknown>;
      const transferId = typeof body.TransferId === 'string' ? body.TransferId : '';
      const iban = typeof body.Iban === 'string' ? body.Iban : '';
      const amount = Number(body.Amount);
      const work = () => {
        if (transferId === '' || ledger.transfer(transferId) !== undefined) return;
        ledger.addTransfer({ transfer_id: transferId, iban, amount, description: typeof body.Description === 'string' ? body.Description : '', trace_no: digits(12), at: now() });
      };
      if (fault('payout', res, work)) return;
      if (String(body.TerminalId) !== options.terminalId) return json(res, 200, { ResultCode: -4, ResultDescription: 'terminal not found' });
      if (transferId === '' || !/^IR[0-9]{24}$/.test(iban) || !Number.isSafeInteger(amount) || amount <= 0) {
        return json(res, 200, { ResultCode: -3, ResultDescription: 'invalid transfer' });
      }
      const before = ledger.transfer(transferId);
      work();
      const done = ledger.transfer(transferId)!;
      return json(res, 200, { ResultCode: before === undefined ? 0 : 2, ResultDescription: before === undefined ? 'transferred' : 'already transferred', TraceNo: done.trace_no });
    }

    // Admin endpoints for tests: the ledger, and fault switches.
    if (method === 'GET' && path === '/admin/transfers') return json(res, 200, { transfers: ledger.transfers() });
    if (method === 'GET' && path === '/admin/transactions') {
      const resNum = url.searchParams.get('res_num') ?? '';
      return json(res, 200, { transactions: ledger.byResNum(resNum), operations: ledger.operations(resNum) });
    }
    if (method === 'POST' && path === '/admin/faults') {
      const body = JSON.parse(await readBody(req)) as { operation?: string; fault?: string; times?: number; callback_other_amount?: number; callback_repeat?: number };
      if (body.callback_other_amount !== undefined || body.callback_repeat !== undefined) {
        if (body.callback_other_amount !== undefined) callbackFaults.other_amount = body.callback_other_amount;
        if (body.callback_repeat !== undefined) callbackFaults.repeat = Math.max(0, Math.trunc(body.callback_repeat));
        return json(res, 200, { ok: true });
      }
      const operationOk = ['confirm', 'settle', 'reverse', 'refund', 'payout'].includes(body.operation ?? '');
      const faultOk = ['timeout', 'error', 'unknown'].includes(body.fault ?? '') || (body.fault === 'in_progress' && body.operation === 'confirm');
      if (!operationOk || !faultOk) {
        return json(res, 400, { error: 'operation: confirm|settle|reverse|refund|payout, fault: timeout|error|unknown (in_progress: confirm only), times: n' });
      }
      faults.set(body.operation as SwitchedOperation, { kind: body.fault as FaultKind, remaining: Math.max(1, Math.trunc(body.times ?? 1)) });
      return json(res, 200, { ok: true });
    }
    if (method === 'DELETE' && path === '/admin/faults') {
      faults.clear();
      callbackFaults = {};
      return json(res, 200, { ok: true });
    }
    json(res, 404, { error: 'not found' });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) json(res, 400, { error: 'bad request' });
      else res.end();
    });
  });
  if (autoReverseMs > 0) {
    const sweep = setInterval(reverseUnconfirmed, Math.min(5_000, Math.max(250, autoReverseMs / 4)));
    sweep.unref();
    server.on('close', () => clearInterval(sweep));
  }
  return { server, ledger };
}
