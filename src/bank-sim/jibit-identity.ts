/**
 * The identity provider's simulator (docs/identity.md): Jibit's identity service as its conformance
 * corpus shows it (test/fixtures/identity/jibit/), a process of its own (`BANK_SIM_PROTOCOL=jibit-identity
 * npm run bank-sim`, main.ts), beside the PSPs' simulators. It answers:
 *
 *   POST /ide/v1/tokens/generate {apiKey, secretKey}      → {accessToken, refreshToken}; other keys: 403 forbidden
 *   GET  /ide/v1/cards?number=<card>&iban=true  (Bearer)  → {number, type, ibanInfo}; 400 card.not_valid for a card it does not hold
 *   GET  /ide/v1/ibans?value=IR…                (Bearer)  → {value, ibanInfo}; 400 iban.not_valid / iban.not_found
 *
 * and nothing else (no call no reference shows). Its accounts are fixed (IDENTITY_TEST_ACCOUNTS): one
 * for every test card the PSP simulators' pages print (customer-page.ts's dialects), each with an IBAN
 * of valid check digits and a Persian owner's name, and one blocked account known by its IBAN only.
 * The fault switch `identity` (the admin endpoints, with BANK_SIM_ADMIN_TOKEN) breaks both inquiries:
 * `down`, `timeout`, `slow`, `error` (503), `unknown` (every card and IBAN refused as unknown).
 * It imports nothing of the gateway.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { answerLate, dropConnection, FAULT_KINDS, FaultSwitches, hang, type FaultKind } from './faults.ts';
import { json, readBody } from './http.ts';

/** BANK_SIM_PROTOCOL's value for this simulator. */
export const JIBIT_IDENTITY_PROTOCOL = 'jibit-identity';

/** Its defaults: the port (`npm start`'s, test mode's default address SANDBOX_IDENTITY_URL) and the keys it takes. */
export const JIBIT_IDENTITY_DEFAULTS = {
  port: 3120,
  apiKey: 'dargah-identity-test-key',
  secretKey: 'dargah-identity-test-secret',
} as const;

/** Where Jibit's calls are, under the host: the base address ends in it. */
export const JIBIT_IDENTITY_PREFIX = '/ide';

export interface IdentityTestAccount {
  /** The card that pays from this account; null for an account known by its IBAN only. */
  card: string | null;
  iban: string;
  owner: { firstName: string; lastName: string };
  /** The bank's name as Jibit spells it (node-jibit's enum). */
  bank: string;
  depositNumber: string;
  status: 'ACTIVE' | 'BLOCK_WITH_DEPOSIT';
}

/**
 * The accounts the simulator holds: the test cards of the PSP simulators' pages (SEP's and Asan
 * Pardakht's 6037991234567893, Sadad's 6037997123456783, Mellat's 6104331234567890, Parsian's
 * 6221061234567891, Pasargad's 5022291234567897; a unit test holds every page's card here), and a
 * blocked account.
 */
export const IDENTITY_TEST_ACCOUNTS: readonly IdentityTestAccount[] = [
  {
    card: '6037991234567893',
    iban: 'IR110170000000123456789001',
    owner: { firstName: 'علی', lastName: 'رضایی' },
    bank: 'MELLI',
    depositNumber: '0123456789001',
    status: 'ACTIVE',
  },
  {
    card: '6037997123456783',
    iban: 'IR470170000000712345678301',
    owner: { firstName: 'مریم', lastName: 'احمدی' },
    bank: 'MELLI',
    depositNumber: '0712345678301',
    status: 'ACTIVE',
  },
  {
    card: '6104331234567890',
    iban: 'IR480120000000123456789002',
    owner: { firstName: 'رضا', lastName: 'کریمی' },
    bank: 'MELLAT',
    depositNumber: '0123456789002',
    status: 'ACTIVE',
  },
  {
    card: '6221061234567891',
    iban: 'IR460540000000123456789003',
    owner: { firstName: 'سارا', lastName: 'محمدی' },
    bank: 'PARSIAN',
    depositNumber: '0123456789003',
    status: 'ACTIVE',
  },
  {
    card: '5022291234567897',
    iban: 'IR700570000000123456789005',
    owner: { firstName: 'نرگس', lastName: 'حسینی' },
    bank: 'PASARGAD',
    depositNumber: '0123456789005',
    status: 'ACTIVE',
  },
  {
    card: null,
    iban: 'IR710560000000123456789004',
    owner: { firstName: 'حسین', lastName: 'نوری' },
    bank: 'SAMAN',
    depositNumber: '0123456789004',
    status: 'BLOCK_WITH_DEPOSIT',
  },
];

/** A well-formed card (Luhn-valid) the simulator does not hold: refused with card.not_valid. */
export const IDENTITY_UNKNOWN_CARD = '6037990000000006';
/** A well-formed IBAN (valid check digits) the simulator does not hold: refused with iban.not_found. */
export const IDENTITY_UNKNOWN_IBAN = 'IR410170000000999999999999';

export interface IdentitySimulatorOptions {
  apiKey: string;
  secretKey: string;
  /** The admin endpoints' bearer token; '' or absent: no admin endpoints. */
  adminToken?: string;
}

const digest = (text: string) => createHash('sha256').update(text).digest();
const same = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

function luhn(card: string): boolean {
  let sum = 0;
  for (let i = 0; i < card.length; i++) {
    let d = Number(card[card.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

function validIban(iban: string): boolean {
  if (!/^IR[0-9]{24}$/.test(iban)) return false;
  const rearranged = `${iban.slice(4)}1827${iban.slice(2, 4)}`;
  let remainder = 0;
  for (const digit of rearranged) remainder = (remainder * 10 + Number(digit)) % 97;
  return remainder === 1;
}

/** Jibit's error body, with the texts Jibit.Net's resources give them. */
const ERRORS = {
  forbidden: 'دسترسی غیرمجاز',
  'card.is_required': 'وارد کردن شماره کارت اجباری است.',
  'card.not_valid': 'شماره کارت وارد شده نامعتبر است.',
  'parameters.not_acceptable': 'پارامترهای ارسالی نامعتبر هستند.',
  'iban.is_required': 'وارد کردن شماره شبا الزامی است.',
  'iban.not_valid': 'شماره شبا وارد شده نامعتبر است.',
  'iban.not_found': 'شماره شبا وارد شده یافت نشد',
  'server.error': 'خطایی در سرور رخ داده است.',
} as const;
const refuse = (res: ServerResponse, status: number, code: keyof typeof ERRORS) =>
  json(res, status, { code, message: ERRORS[code] });

const ibanInfo = (a: IdentityTestAccount) => ({
  bank: a.bank,
  depositNumber: a.depositNumber,
  iban: a.iban,
  status: a.status,
  owners: [{ firstName: a.owner.firstName, lastName: a.owner.lastName }],
});

/** The identity simulator's server (not listening yet) and its fault switches. */
export function createIdentitySimulator(options: IdentitySimulatorOptions): { server: Server; faults: FaultSwitches } {
  const faults = new FaultSwitches();
  const tokens = new Set<string>();
  const byCard = new Map(IDENTITY_TEST_ACCOUNTS.flatMap((a) => (a.card === null ? [] : [[a.card, a] as const])));
  const byIban = new Map(IDENTITY_TEST_ACCOUNTS.map((a) => [a.iban, a] as const));

  const bearer = (req: IncomingMessage): boolean => {
    const header = req.headers.authorization ?? '';
    return header.startsWith('Bearer ') && tokens.has(header.slice('Bearer '.length));
  };

  /** The switched-on fault of the inquiries, applied; answers whether the request is answered (or left hanging). */
  const faulted = (res: ServerResponse, unknown: () => void): boolean => {
    const kind: FaultKind | undefined = faults.take('identity');
    if (kind === undefined) return false;
    if (kind === 'slow') {
      answerLate(res);
      return false;
    }
    if (kind === 'down') dropConnection(res);
    else if (kind === 'timeout') hang(res);
    else if (kind === 'unknown') unknown();
    else json(res, 503, { code: 'server.error', message: ERRORS['server.error'] });
    return true;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://identity');
    const method = req.method ?? 'GET';
    const path = url.pathname;
    if (method === 'GET' && path === '/healthz') return json(res, 200, { ok: true });
    if (path.startsWith('/admin/')) return admin(method, path, req, res);

    if (method === 'POST' && path === `${JIBIT_IDENTITY_PREFIX}/v1/tokens/generate`) {
      const body = JSON.parse(await readBody(req)) as { apiKey?: unknown; secretKey?: unknown };
      const ok =
        typeof body.apiKey === 'string' &&
        typeof body.secretKey === 'string' &&
        same(body.apiKey, options.apiKey) &&
        same(body.secretKey, options.secretKey);
      if (!ok) return refuse(res, 403, 'forbidden');
      const accessToken = randomBytes(24).toString('base64url');
      tokens.add(accessToken);
      return json(res, 200, { accessToken, refreshToken: randomBytes(24).toString('base64url') });
    }

    if (method === 'GET' && path === `${JIBIT_IDENTITY_PREFIX}/v1/cards`) {
      if (!bearer(req)) return refuse(res, 403, 'forbidden');
      const number = url.searchParams.get('number') ?? '';
      if (faulted(res, () => refuse(res, 400, 'card.not_valid'))) return;
      if (number === '') return refuse(res, 400, 'card.is_required');
      // Only the conversion Dargah asks for: iban=true (the others, deposit and nationalCode, are not simulated).
      if (url.searchParams.get('iban') !== 'true') return refuse(res, 400, 'parameters.not_acceptable');
      const account = /^[0-9]{16}$/.test(number) && luhn(number) ? byCard.get(number) : undefined;
      if (account === undefined) return refuse(res, 400, 'card.not_valid');
      return json(res, 200, { number, type: 'DEBIT', ibanInfo: ibanInfo(account) });
    }

    if (method === 'GET' && path === `${JIBIT_IDENTITY_PREFIX}/v1/ibans`) {
      if (!bearer(req)) return refuse(res, 403, 'forbidden');
      const value = (url.searchParams.get('value') ?? '').toUpperCase();
      if (faulted(res, () => refuse(res, 400, 'iban.not_found'))) return;
      if (value === '') return refuse(res, 400, 'iban.is_required');
      if (!validIban(value)) return refuse(res, 400, 'iban.not_valid');
      const account = byIban.get(value);
      if (account === undefined) return refuse(res, 400, 'iban.not_found');
      return json(res, 200, { value, ibanInfo: ibanInfo(account) });
    }
    json(res, 404, { code: 'not_found', message: 'not found' });
  };

  /** The fault switch `identity`, as the PSP simulators' admin endpoints take theirs (admin.ts), under the same token. */
  const admin = async (method: string, path: string, req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const token = options.adminToken ?? '';
    const header = req.headers.authorization;
    if (token === '' || header === undefined || !same(header, `Bearer ${token}`) || path !== '/admin/faults')
      return json(res, 404, { error: 'not found' });
    if (method === 'GET') return json(res, 200, faults.view());
    if (method === 'DELETE') {
      faults.clear();
      return json(res, 200, { ok: true });
    }
    if (method !== 'POST') return json(res, 404, { error: 'not found' });
    const body = JSON.parse(await readBody(req)) as { operation?: unknown; fault?: unknown; times?: unknown };
    if (body.operation === 'identity' && body.fault === 'clear') {
      faults.clear('identity');
      return json(res, 200, { ok: true });
    }
    const kind = FAULT_KINDS.find((k) => k === body.fault && k !== 'in_progress' && k !== 'other_amount');
    const times = body.times === undefined ? undefined : Math.trunc(Number(body.times));
    if (body.operation !== 'identity' || kind === undefined || (times !== undefined && !(times >= 1)))
      return json(res, 400, {
        error: 'operation: identity, fault: down|timeout|slow|error|unknown|clear, times: n >= 1 (none: until cleared)',
      });
    faults.set('identity', kind, times);
    json(res, 200, { ok: true });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) json(res, 400, { code: 'invalid.request_body', message: 'bad request' });
      else res.end();
    });
  });
  return { server, faults };
}
