/**
 * Test mode's ZarinPal Payman (docs/psps/zarinpal-payman.md#the-simulator): the calls of the corpus
 * (test/fixtures/direct-debit/zarinpal/) on its own HTTP server, the signing page a customer's browser
 * sees, and a fault switch per call for tests. Like the PSPs' simulators it is the provider, not the
 * gateway: it imports nothing of Dargah but its own profile (plain data), and it is held to the
 * corpus's shapes by test/unit/direct-debit/zarinpal-simulator.test.ts, not to the connector. Its admin
 * endpoints (under the admin token) give the call counts, the fault switches and its own ledger of
 * checkouts, which the fault suite compares with the gateway's records.
 *
 * It keeps contracts (authority, limits, state, signature), prepared payments and checkouts in memory
 * and, when given a state file, in that file, rewritten on every change: a restarted simulator still
 * knows the contracts it signed. Its own rules, which no reference settles, are written where they
 * apply: checkouts counted per Tehran day and month against the contract's limits, a repeated checkout
 * of one authority answered as the first, a repeated cancel answered 100.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { ZARINPAL_PAYMAN_PROFILE } from './profile.ts';

export interface PaymanSimulatorOptions {
  merchantId?: string;
  /** The origins a contract's callback_url may have (`http://host:*` for any port); none: any. */
  redirectOrigins?: string[];
  adminToken?: string;
  stateFile?: string;
}

interface Contract {
  authority: string;
  mobile: string;
  ssn: string | null;
  expires_at: number;
  max_amount: number;
  max_daily_count: number;
  max_monthly_count: number;
  callback_url: string;
  status: 'pending' | 'signed' | 'declined' | 'canceled';
  bank_code: string | null;
  signature: string | null;
}

interface Prepared {
  authority: string;
  amount: number;
  /** The checkout's answer, once made: a repeat gets the same. */
  checkout: { refrence_id: number; amount: number; signature: string; at: number } | null;
}

interface State {
  contracts: Record<string, Contract>;
  payments: Record<string, Prepared>;
  nextReference: number;
}

type Operation = 'request' | 'verify' | 'payment' | 'checkout' | 'cancel';
/**
 * `down`: 503; `refuse`: an errors body; `timeout`: the call does its work (a checkout takes the money)
 * but its answer never comes: the response is held until the caller gives up, the switch is cleared, or
 * HANG_MS passes, the lost answer a gateway must survive (test/faults/16-subscription-charge-worker-kill.test.ts).
 */
type Fault = 'refuse' | 'down' | 'timeout';

/** How long a held answer is kept open at most: longer than any caller waits. */
const HANG_MS = 120_000;

/** The banks the simulator lists: the two of ZarinPal's own sample. */
const BANKS = [
  { name: 'بانک سامان', slug: 'Saman', bank_code: 'SABCIR', max_daily_amount: 100_000_000, max_daily_count: 25 },
  { name: 'بانک سينا', slug: 'Sina', bank_code: 'SINAIR', max_daily_amount: 100_000_000, max_daily_count: null },
];

const DAY_MS = 86_400_000;
const TEHRAN_OFFSET_MS = 210 * 60_000;

function validationError(field: string, why: string) {
  return {
    data: [],
    errors: { code: -9, message: 'The input params invalid, validation error.', validations: [{ [field]: why }] },
  };
}

const ok = (data: Record<string, unknown>) => ({ data: { ...data, code: 100, message: 'Success' }, errors: [] });

/** Responses of calls under a `timeout` fault: their work is done, their answer is never sent. */
const held = new WeakSet<ServerResponse>();

function send(res: ServerResponse, status: number, body: unknown): void {
  if (held.has(res)) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

async function readBody(req: IncomingMessage, limit = 64 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A count of the contract's kind: a whole number written as digits (the page types them String). */
function whole(value: unknown): number | undefined {
  const text = typeof value === 'number' ? String(value) : value;
  return typeof text === 'string' && /^\d{1,12}$/.test(text) ? Number(text) : undefined;
}

/** "Y-m-d H:i:s" on Tehran's wall clock, as the connector sends it. */
function tehranTime(text: unknown): number | undefined {
  if (typeof text !== 'string' || !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(text)) return undefined;
  const at = Date.parse(`${text.replace(' ', 'T')}Z`);
  return Number.isNaN(at) ? undefined : at - TEHRAN_OFFSET_MS;
}

function originAllowed(url: string, allowed: string[] | undefined): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  if (allowed === undefined || allowed.length === 0) return true;
  return allowed.some((origin) =>
    origin.endsWith(':*') ? `${parsed.protocol}//${parsed.hostname}` === origin.slice(0, -2) : parsed.origin === origin,
  );
}

export function createPaymanSimulator(options: PaymanSimulatorOptions = {}): { server: Server; state: State } {
  const merchantId = options.merchantId ?? ZARINPAL_PAYMAN_PROFILE.simulator.merchantId;
  const state: State = load(options.stateFile);
  const faults = new Map<Operation, Fault>();
  // The held responses of each operation, dropped when its switch is cleared (the answer is lost, not late).
  const holding = new Map<Operation, Set<ServerResponse>>();
  // How often each call was made since the start: a test proves a refused debit never reached the provider.
  const calls: Record<Operation, number> = { request: 0, verify: 0, payment: 0, checkout: 0, cancel: 0 };
  const save = () => {
    if (options.stateFile === undefined) return;
    // Written aside and renamed, so a simulator killed mid-write keeps the last whole state.
    writeFileSync(`${options.stateFile}.tmp`, JSON.stringify(state));
    renameSync(`${options.stateFile}.tmp`, options.stateFile);
  };

  /**
   * The fault switched on for `operation`, if any: `down` answers 503, `refuse` an errors body; both stop
   * the call (true). `timeout` lets the call do its work (false) and holds its answer.
   */
  const faulted = (res: ServerResponse, operation: Operation): boolean => {
    calls[operation] += 1;
    const fault = faults.get(operation);
    if (fault === 'timeout') {
      held.add(res);
      const open = holding.get(operation) ?? new Set<ServerResponse>();
      holding.set(operation, open);
      open.add(res);
      const drop = () => {
        open.delete(res);
        res.destroy();
      };
      res.once('close', () => open.delete(res));
      setTimeout(drop, HANG_MS).unref();
      return false;
    }
    if (fault === 'down') send(res, 503, { message: 'service unavailable' });
    else if (fault === 'refuse') send(res, 200, validationError(operation, 'The simulator refuses it (fault switch).'));
    return fault !== undefined;
  };

  const contractBySignature = (signature: unknown) =>
    typeof signature === 'string'
      ? Object.values(state.contracts).find((c) => c.signature !== null && c.signature === signature)
      : undefined;

  async function api(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (req.method === 'GET' && path === '/pg/v4/payman/banksList.json') return send(res, 200, ok({ banks: BANKS }));
    if (req.method !== 'POST') return send(res, 404, { message: 'not found' });
    let body: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(await readBody(req));
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      body = parsed as Record<string, unknown>;
    } catch {
      return send(res, 200, validationError('body', 'The body must be a JSON object.'));
    }
    if (body.merchant_id !== merchantId)
      return send(res, 200, { data: [], errors: { code: -74, message: 'Merchant id is invalid.', validations: [] } });
    switch (path) {
      case '/pg/v4/payman/request.json': {
        if (faulted(res, 'request')) return;
        const mobile = typeof body.mobile === 'string' && /^09\d{9}$/.test(body.mobile) ? body.mobile : undefined;
        if (mobile === undefined) return send(res, 200, validationError('mobile', 'The mobile is invalid.'));
        if (body.ssn !== undefined && (typeof body.ssn !== 'string' || !/^\d{10}$/.test(body.ssn)))
          return send(res, 200, validationError('ssn', 'The ssn is invalid.'));
        const expiresAt = tehranTime(body.expire_at);
        // ZarinPal's page: a contract of at least 30 days.
        if (expiresAt === undefined || expiresAt < Date.now() + 30 * DAY_MS)
          return send(res, 200, validationError('expire_at', 'The expire at must be a date after 30 days.'));
        const limits = {
          max_daily_count: whole(body.max_daily_count),
          max_monthly_count: whole(body.max_monthly_count),
          max_amount: whole(body.max_amount),
        };
        for (const [field, value] of Object.entries(limits))
          if (value === undefined || value < 1)
            return send(res, 200, validationError(field, `The ${field} is invalid.`));
        if (typeof body.callback_url !== 'string' || !originAllowed(body.callback_url, options.redirectOrigins))
          return send(res, 200, validationError('callback_url', 'The callback url is invalid.'));
        const authority = `payman_${randomBytes(9).toString('base64url').replace(/[-_]/g, 'x')}`;
        state.contracts[authority] = {
          authority,
          mobile,
          ssn: typeof body.ssn === 'string' ? body.ssn : null,
          expires_at: expiresAt,
          max_amount: limits.max_amount!,
          max_daily_count: limits.max_daily_count!,
          max_monthly_count: limits.max_monthly_count!,
          callback_url: body.callback_url,
          status: 'pending',
          bank_code: null,
          signature: null,
        };
        save();
        return send(res, 200, ok({ payman_authority: authority }));
      }
      case '/pg/v4/payman/verify.json': {
        if (faulted(res, 'verify')) return;
        const contract = typeof body.payman_authority === 'string' ? state.contracts[body.payman_authority] : undefined;
        if (contract === undefined || contract.status !== 'signed' || contract.signature === null)
          return send(res, 200, validationError('payman_authority', 'The contract is not signed.'));
        return send(res, 200, ok({ signature: contract.signature }));
      }
      case '/pg/v4/payment/request.json': {
        if (faulted(res, 'payment')) return;
        const amount = whole(body.amount);
        if (amount === undefined || amount < 1000)
          return send(res, 200, validationError('amount', 'The amount is invalid.'));
        // 36 characters, as the sample's A0000000000000000000000000002vm5y3lo.
        const authority = `A${randomBytes(30).toString('hex').slice(0, 35)}`;
        state.payments[authority] = { authority, amount, checkout: null };
        save();
        return send(res, 200, ok({ authority, fee_type: 'Merchant', fee: 0 }));
      }
      case '/pg/v4/payman/checkout.json': {
        if (faulted(res, 'checkout')) return;
        const payment = typeof body.authority === 'string' ? state.payments[body.authority] : undefined;
        if (payment === undefined) return send(res, 200, validationError('authority', 'The authority is invalid.'));
        // A repeat of a checkout made: the same answer (our choice: no reference shows a second checkout).
        if (payment.checkout !== null) {
          if (payment.checkout.signature !== body.signature)
            return send(res, 200, validationError('authority', 'The authority was paid under another contract.'));
          return send(res, 200, ok({ refrence_id: payment.checkout.refrence_id, amount: payment.checkout.amount }));
        }
        const contract = contractBySignature(body.signature);
        if (contract === undefined || contract.status !== 'signed' || contract.expires_at <= Date.now())
          return send(res, 200, validationError('signature', 'The contract is not active.'));
        if (payment.amount > contract.max_amount)
          return send(res, 200, validationError('amount', 'The amount is more than the contract allows.'));
        // The bank's own count: Tehran's day and month of each checkout under this contract.
        const now = Date.now();
        const day = (at: number) => new Date(at + TEHRAN_OFFSET_MS).toISOString().slice(0, 10);
        const checkouts = Object.values(state.payments).flatMap((p) =>
          p.checkout !== null && p.checkout.signature === contract.signature ? [p.checkout.at] : [],
        );
        if (checkouts.filter((at) => day(at) === day(now)).length >= contract.max_daily_count)
          return send(res, 200, validationError('signature', 'The daily count of the contract is used up.'));
        if (checkouts.filter((at) => day(at).slice(0, 7) === day(now).slice(0, 7)).length >= contract.max_monthly_count)
          return send(res, 200, validationError('signature', 'The monthly count of the contract is used up.'));
        payment.checkout = {
          refrence_id: state.nextReference++,
          amount: payment.amount,
          signature: contract.signature!,
          at: now,
        };
        save();
        return send(res, 200, ok({ refrence_id: payment.checkout.refrence_id, amount: payment.amount }));
      }
      case '/pg/v4/payman/cancelContract.json': {
        if (faulted(res, 'cancel')) return;
        const contract = contractBySignature(body.signature);
        if (contract === undefined) return send(res, 200, validationError('signature', 'The signature is invalid.'));
        contract.status = 'canceled';
        save();
        return send(res, 200, ok({}));
      }
      default:
        return send(res, 404, { message: 'not found' });
    }
  }

  /** The signing page: the contract's limits, and Sign or Refuse, each a form posted back here. */
  function page(res: ServerResponse, contract: Contract, bankCode: string): void {
    const bank = BANKS.find((b) => b.bank_code === bankCode);
    const callbackOrigin = new URL(contract.callback_url).origin;
    const action = `/pg/StartPayman/${encodeURIComponent(contract.authority)}/${encodeURIComponent(bankCode)}`;
    const rows = [
      ['سقف هر تراکنش (ریال) · Per debit (rials)', String(contract.max_amount)],
      ['تعداد روزانه · Daily count', String(contract.max_daily_count)],
      ['تعداد ماهانه · Monthly count', String(contract.max_monthly_count)],
      ['تاریخ پایان · Ends', new Date(contract.expires_at).toISOString().slice(0, 10)],
    ]
      .map(
        ([label, value]) =>
          `<tr><th scope="row">${escapeHtml(label!)}</th><td dir="ltr">${escapeHtml(value!)}</td></tr>`,
      )
      .join('');
    const html = `<!doctype html>
<html lang="fa" dir="rtl">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>امضای قرارداد پرداخت مستقیم · Sign the direct debit mandate</title></head>
<body>
<main>
<h1>امضای قرارداد پرداخت مستقیم <span lang="en" dir="ltr">(Sign the direct debit mandate)</span></h1>
<p>${escapeHtml(bank?.name ?? bankCode)} · <span dir="ltr">${escapeHtml(contract.mobile)}</span></p>
<table><caption>محدودیت‌ها · Limits</caption><tbody>${rows}</tbody></table>
<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="decision" value="sign">
<button type="submit">امضا · Sign</button></form>
<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="decision" value="refuse">
<button type="submit">انصراف · Refuse</button></form>
</main>
</body></html>`;
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      // No script, no style, no frames; the forms post here and are sent on to the merchant's return.
      'content-security-policy': `default-src 'none'; form-action 'self' ${callbackOrigin}; frame-ancestors 'none'; base-uri 'none'`,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    });
    res.end(html);
  }

  async function signing(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const match = /^\/pg\/StartPayman\/([A-Za-z0-9_-]{1,64})\/([A-Za-z0-9_-]{1,64})$/.exec(path);
    const contract = match === null ? undefined : state.contracts[match[1]!];
    if (match === null || contract === undefined) return send(res, 404, { message: 'no such contract' });
    const bankCode = match[2]!;
    if (!BANKS.some((b) => b.bank_code === bankCode)) return send(res, 404, { message: 'no such bank' });
    if (contract.status !== 'pending') return send(res, 409, { message: 'the contract was answered' });
    if (req.method === 'GET') return page(res, contract, bankCode);
    if (req.method !== 'POST') return send(res, 405, { message: 'method not allowed' });
    const decision = new URLSearchParams(await readBody(req, 4096)).get('decision');
    if (decision !== 'sign' && decision !== 'refuse') return send(res, 400, { message: 'no decision' });
    if (decision === 'sign') {
      contract.status = 'signed';
      contract.bank_code = bankCode;
      // 200 characters, as ZarinPal's page says; the alphabet is ours (no source shows a real one whole).
      contract.signature = randomBytes(150).toString('base64url');
    } else contract.status = 'declined';
    save();
    const back = new URL(contract.callback_url);
    back.searchParams.set('payman_authority', contract.authority);
    back.searchParams.set('status', decision === 'sign' ? 'OK' : 'NOK');
    res.writeHead(303, { location: back.toString() });
    res.end();
  }

  async function admin(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const token = options.adminToken ?? '';
    const given = Buffer.from((req.headers.authorization ?? '').replace(/^Bearer /, ''));
    if (token === '' || given.length !== Buffer.byteLength(token) || !timingSafeEqual(given, Buffer.from(token)))
      return send(res, 401, { message: 'admin token required' });
    if (req.method === 'GET' && path === '/admin/calls') return send(res, 200, calls);
    // The provider's own ledger: every checkout made (each authority's once), under which contract.
    if (req.method === 'GET' && path === '/admin/checkouts') {
      const contractOf = (signature: string) =>
        Object.values(state.contracts).find((c) => c.signature === signature)?.authority ?? null;
      const checkouts = Object.values(state.payments).flatMap((p) =>
        p.checkout === null
          ? []
          : [
              {
                authority: p.authority,
                contract: contractOf(p.checkout.signature),
                amount: p.checkout.amount,
                refrence_id: p.checkout.refrence_id,
                at: new Date(p.checkout.at).toISOString(),
              },
            ],
      );
      return send(res, 200, { checkouts });
    }
    if (req.method !== 'POST' || path !== '/admin/faults') return send(res, 404, { message: 'not found' });
    const { operation, fault } = JSON.parse(await readBody(req)) as { operation?: string; fault?: string };
    const operations: Operation[] = ['request', 'verify', 'payment', 'checkout', 'cancel'];
    if (!operations.includes(operation as Operation)) return send(res, 400, { message: 'unknown operation' });
    if (fault === 'clear') {
      faults.delete(operation as Operation);
      for (const open of holding.get(operation as Operation) ?? []) open.destroy();
    } else if (fault === 'refuse' || fault === 'down' || fault === 'timeout') faults.set(operation as Operation, fault);
    else return send(res, 400, { message: 'unknown fault' });
    return send(res, 200, { operation, fault });
  }

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://provider').pathname;
    const handle =
      req.method === 'GET' && path === '/healthz'
        ? Promise.resolve(send(res, 200, { ok: true }))
        : path.startsWith('/pg/StartPayman/')
          ? signing(req, res, path)
          : path.startsWith('/admin/')
            ? admin(req, res, path)
            : api(req, res, path);
    handle.catch(() => {
      if (!res.headersSent) send(res, 400, { message: 'bad request' });
      else res.end();
    });
  });
  return { server, state };
}

function load(file: string | undefined): State {
  if (file !== undefined) {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as State;
    } catch {
      // No file yet (or an unreadable one): a fresh provider.
    }
  }
  return { contracts: {}, payments: {}, nextReference: 201 };
}
