/**
 * The simulator's third protocol (BANK_SIM_PROTOCOL=asanpardakht): Asan Pardakht's REST IPG as the
 * conformance corpus shows it (test/fixtures/psps/asanpardakht/, docs/psps/asanpardakht.md), not as
 * our connector happens to speak it. JSON calls under /v1 answered by HTTP status (200 done, Asan
 * Pardakht's own 4xx and 5xx otherwise), the credentials in the `usr` and `pwd` headers:
 *
 *   POST /v1/Token        → 200 and the RefId as a JSON string; 489 an invoice id used before
 *   GET  /v1/TranResult   → 200 and the paid transaction's JSON; 472 none paid by that invoice id
 *   POST /v1/Verify       → 200; 472 verified before; 571 not yet processed ("delay in verification")
 *   POST /v1/Settlement   → 200; 474 settled before; 472 not verified
 *   POST /v1/Reverse      → 200 (an unverified transaction); 473 reversed before; 472 verified: Cancel instead
 *   POST /v1/Cancel       → 200 (a verified, unsettled transaction); 813 canceled before; 805 settled; 814 late
 *
 * and the payment page at / (a POST of RefId), whose return to the callback URL posts nothing: the
 * callback URL's own query is the return (no reference reads a field the page posts). A transaction
 * is found by its invoice id (the ledger's res_num) or its payGateTranID (the ledger's ref_num). Each
 * operation happens once per operation key (the X-Operation-Key header, the simulator's own
 * bookkeeping); the fault switches apply as on the other protocols (faults.ts): `error` a 503 with
 * no body, `unknown` 471 ("original transaction was failed"), `in_progress` (Verify only) 571. A paid
 * transaction nobody verifies is reversed by the bank itself (server.ts's sweep): how soon Asan
 * Pardakht does no reference says; the launcher gives 20 minutes (its profile). TranResult still
 * answers a reversed or settled transaction, so that a retried Reverse finds it and answers "before":
 * what Asan Pardakht does there no reference says either.
 */
import { openSale, returnAddress } from '../../bank-sim/sale.ts';
import { randomBytes, randomInt } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { PageDialect } from '../../bank-sim/customer-page.ts';
import { answerLate, dropConnection, hang, type FaultSwitches, type VerifyOperation } from '../../bank-sim/faults.ts';
import { json, readBody, type BankRequest, type Routes } from '../../bank-sim/http.ts';
import { digits, type Ledger, type Transaction } from '../../bank-sim/ledger.ts';
import { confirmOnce, reverseOnce, settleOnce } from '../../bank-sim/operations.ts';
import { type ProtocolOptions } from '../../bank-sim/simulator-protocol.ts';
import type { SimulatorProtocol } from '../../bank-sim/simulator-protocol.ts';

export interface AsanpardakhtOptions extends ProtocolOptions {
  /** The merchant's user name (the usr header), checked with its password (pwd) on every call. */
  userName: string;
}

/** Asan Pardakht's page: a POST of RefId to its root, the choice to /pay; its return posts no field. */
export const ASANPARDAKHT_PAGE: PageDialect = {
  pagePath: '/',
  pageMethod: 'POST',
  choicePath: '/pay',
  tokenField: 'RefId',
  // payGateTranID is a long: no leading zero.
  paidNumbers: () => ({ ref_num: `${randomInt(1, 10)}${digits(11)}`, rrn: digits(12), trace_no: digits(6) }),
  defaultCard: '6037991234567893',
  callbackFields: () => ({}),
};

const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v).trim() : '');
const paid = (txn: Transaction | undefined): txn is Transaction =>
  txn?.outcome === 'success' || txn?.outcome === 'delay';

/** An answer: a status and its body (a JSON value; undefined: none), or nothing (the fault switch dropped or holds the connection). */
type Reply = { status: number; body?: unknown } | { none: true };
const status = (code: number, body?: unknown): Reply => ({ status: code, body });

export function asanpardakhtRoutes({
  ledger,
  faults,
  options,
}: {
  ledger: Ledger;
  faults: FaultSwitches;
  options: AsanpardakhtOptions;
}): Routes {
  const reversalWindowMs = (options.reversalWindowSeconds ?? 3000) * 1000;
  /** The credentials of every call: the usr and pwd headers (the password only when one is set). */
  const credentialsMatch = (req: BankRequest['req']) =>
    text(req.headers.usr) === options.userName &&
    (options.password === '' || text(req.headers.pwd) === options.password);
  const ourConfiguration = (value: unknown) => text(value) === options.terminalId;
  const operationKey = (req: BankRequest['req'], fallback: string) =>
    String(req.headers['x-operation-key'] ?? '') || fallback;

  const send = (res: ServerResponse, reply: Reply) => {
    if ('none' in reply) return;
    if (reply.body === undefined) {
      res.writeHead(reply.status, { 'cache-control': 'no-store' });
      res.end();
      return;
    }
    json(res, reply.status, reply.body);
  };

  const token = async ({ req, res }: BankRequest): Promise<Reply> => {
    const body = JSON.parse(await readBody(req)) as Record<string, unknown>;
    // A token the caller never gets is not made.
    const fault = faults.take('token');
    if (fault === 'slow') answerLate(res);
    if (fault === 'down') return unanswered(res, dropConnection);
    if (fault === 'timeout') return unanswered(res, hang);
    if (fault === 'error') return status(503);
    if (!credentialsMatch(req)) return status(473);
    if (!ourConfiguration(body.merchantConfigurationId)) return status(490);
    const invoice = text(body.localInvoiceId);
    const amount = Number(text(body.amountInRials));
    if (!/^[1-9][0-9]{0,18}$/.test(invoice)) return status(475);
    if (!Number.isSafeInteger(amount) || amount <= 0) return status(476);
    if (!/^[0-9]{8} [0-9]{6}$/.test(text(body.localDate))) return status(478);
    if (text(body.serviceTypeId) !== '1') return status(479);
    // Only back to the merchant's gateway: the page's form and callback_repeat go to this address.
    const redirect = returnAddress(text(body.callbackURL), options.redirectOrigins);
    if (redirect === undefined) return status(488);
    // One RefId per invoice id: a retried request answers the same RefId; an invoice id used before is a duplicate.
    const earlier = ledger.byResNum(invoice);
    const open = earlier.find((t) => t.amount === amount && t.outcome === undefined);
    if (open !== undefined) return status(200, open.token);
    if (earlier.length > 0) return status(489);
    const txn = openSale(ledger, {
      token: randomBytes(10).toString('hex'),
      terminal: options.terminalId,
      amount,
      resNum: invoice,
      redirectUrl: redirect,
      operationKey: operationKey(req, `token:${invoice}`),
    });
    return status(200, txn.token);
  };

  /** TranResult's JSON of a paid transaction (the corpus's tranresult-answer-paid.json). */
  const tranResultOf = (txn: Transaction) => ({
    cardNumber: txn.card_pan ?? '',
    rrn: txn.rrn ?? '',
    refID: txn.token,
    amount: String(txn.amount),
    payGateTranID: Number(txn.ref_num),
    salesOrderID: Number(txn.res_num),
    hash: '',
    serviceTypeId: 1,
    serviceStatusCode: '',
    payGateTranDate: (txn.chosen_at ?? txn.created_at).slice(0, 19),
    payGateTranDateEpoch: Math.floor(Date.parse(txn.chosen_at ?? txn.created_at) / 1000),
  });

  const tranResult = ({ req, url }: BankRequest): Reply => {
    const query = new Map([...url.searchParams].map(([k, v]) => [k.toLowerCase(), v]));
    if (!credentialsMatch(req) || !ourConfiguration(query.get('merchantconfigurationid'))) return status(471);
    const txn = ledger.byResNum(query.get('localinvoiceid') ?? '').find(paid);
    return txn === undefined ? status(472) : status(200, tranResultOf(txn));
  };

  const verify = (txn: Transaction | undefined, key: string) => {
    const work = () => confirmOnce(ledger, txn, key, options.delaySeconds);
    const reply = (): Reply => {
      if (txn === undefined) return status(471);
      if (txn.reversed_at !== undefined) return status(474);
      if (txn.settled_at !== undefined) return status(473);
      const before = txn.confirmed_at;
      work();
      if (txn.confirmed_at === undefined) return status(571);
      return status(before === undefined ? 200 : 472);
    };
    return { work, reply };
  };

  const settle = (txn: Transaction | undefined, key: string) => {
    const work = () => settleOnce(ledger, txn, key);
    const reply = (): Reply => {
      if (txn === undefined) return status(471);
      if (txn.reversed_at !== undefined) return status(473);
      if (txn.confirmed_at === undefined) return status(472);
      const before = txn.settled_at;
      work();
      return status(before === undefined ? 200 : 474);
    };
    return { work, reply };
  };

  /** Reverse: of a transaction nobody verified only; a verified one answers 472 (Cancel undoes it). */
  const reverse = (txn: Transaction | undefined, key: string) => {
    const verified = txn?.confirmed_at !== undefined && txn.reversed_at === undefined;
    const work = () => {
      if (!verified) reverseOnce(ledger, txn, key);
    };
    const reply = (): Reply => {
      if (txn === undefined) return status(471);
      if (txn.settled_at !== undefined) return status(474);
      if (txn.reversed_at !== undefined) return status(473);
      if (verified) return status(472);
      work();
      return status(200);
    };
    return { work, reply };
  };

  /** Cancel: undoes a verify (the money back to the card) within the window after it; not after a settlement. */
  const cancel = (txn: Transaction | undefined, key: string) => {
    const late =
      txn?.confirmed_at !== undefined &&
      txn.reversed_at === undefined &&
      reversalWindowMs > 0 &&
      Date.now() - Date.parse(txn.confirmed_at) > reversalWindowMs;
    const work = () => {
      if (txn?.confirmed_at !== undefined && !late) reverseOnce(ledger, txn, key);
    };
    const reply = (): Reply => {
      if (txn === undefined) return status(803);
      if (txn.settled_at !== undefined) return status(805);
      if (txn.reversed_at !== undefined) return status(txn.confirmed_at === undefined ? 806 : 813);
      if (txn.confirmed_at === undefined) return status(804);
      if (late) return status(814);
      work();
      return status(200);
    };
    return { work, reply };
  };

  /**
   * A call on a paid transaction (merchantConfigurationId and payGateTranId) under its operation's
   * fault switch: an error is a 503 with no body, "unknown" 471, "in progress" (Verify only) 571, a
   * timeout does the work and never answers.
   */
  const switched =
    (
      operation: VerifyOperation,
      call: (txn: Transaction | undefined, key: string) => { work: () => void; reply: () => Reply },
      identityRefused: number,
    ) =>
    async ({ req, res }: BankRequest): Promise<Reply> => {
      const body = JSON.parse(await readBody(req)) as Record<string, unknown>;
      if (!credentialsMatch(req) || !ourConfiguration(body.merchantConfigurationId)) return status(identityRefused);
      const ref = text(body.payGateTranId);
      const found = ref === '' ? undefined : ledger.byRef(ref);
      const txn = paid(found) && found.terminal === options.terminalId ? found : undefined;
      const { work, reply } = call(txn, operationKey(req, `${operation}:${ref}`));
      const fault = faults.take(operation);
      if (fault === 'slow') answerLate(res);
      if (fault === 'down') return unanswered(res, dropConnection);
      if (fault === 'error') return status(503);
      if (fault === 'unknown') return status(471);
      if (fault === 'in_progress') return status(571);
      if (fault === 'timeout') {
        work();
        return unanswered(res, hang);
      }
      return reply();
    };

  const calls: Record<string, (request: BankRequest) => Reply | Promise<Reply>> = {
    'POST /v1/token': token,
    'GET /v1/tranresult': tranResult,
    'POST /v1/verify': switched('confirm', verify, 477),
    'POST /v1/settlement': switched('settle', settle, 477),
    'POST /v1/reverse': switched('reverse', reverse, 477),
    'POST /v1/cancel': switched('reverse', cancel, 810),
  };

  return (method, path) => {
    const call = calls[`${method} ${path.toLowerCase()}`];
    if (call === undefined) return undefined;
    return async (request) => send(request.res, await call(request));
  };
}

/** A call left without an answer (`fault` drops or holds its connection). */
function unanswered(res: ServerResponse, fault: (res: ServerResponse) => void): Reply {
  fault(res);
  return { none: true };
}

/** Asan Pardakht's REST IPG in the simulator's table of protocols (protocols.ts). */
export const ASANPARDAKHT_SIMULATOR: SimulatorProtocol = {
  name: 'asanpardakht',
  title: "Asan Pardakht's REST IPG",
  defaults: { port: 3102, terminalId: '44556677', autoReverseSeconds: 1200, settings: { USERNAME: 'dargah' } },
  page: ASANPARDAKHT_PAGE,
  routes: ({ ledger, faults, options }) => [
    asanpardakhtRoutes({
      ledger,
      faults,
      options: { ...options, userName: options.userName ?? options.settings?.USERNAME ?? '' },
    }),
  ],
};
