/**
 * The bank simulator (docs/BANK.md): a separate process that speaks one PSP's
 * protocol, SEP's as its conformance corpus shows it (test/fixtures/psps/sep/; protocol.ts, with Paya
 * payouts, payouts.ts) or Behpardakht Mellat's (src/adapters/psp/mellat/client.ts;
 * mellat.ts) or Sadad's (test/fixtures/psps/sadad/; sadad.ts), with the customer's page of that protocol (customer-page.ts),
 * its own ledger (ledger.ts) and fault switches for tests (faults.ts, set
 * through admin.ts); no daily report, which no reference shows either PSP serving. One process a PSP, each on its own port with its own
 * terminal and ledger. It imports nothing of the gateway: it is the bank, not part of us.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { adminRoutes } from './admin.ts';
import { customerPageRoutes, SEP_PAGE } from './customer-page.ts';
import { FaultSwitches } from './faults.ts';
import { json, type Routes } from './http.ts';
import { Ledger, now } from './ledger.ts';
import { listenMellat, MELLAT_PAGE } from './mellat.ts';
import { payoutRoutes } from './payouts.ts';
import { protocolRoutes } from './protocol.ts';
import { SADAD_PAGE, sadadRoutes } from './sadad.ts';

export interface SimulatorOptions {
  /** The PSP protocol this process speaks: SEP's REST IPG (default), Behpardakht Mellat's SOAP IPG or Sadad's JSON IPG. */
  protocol?: 'sep' | 'mellat' | 'sadad';
  stateFile: string;
  /** The one terminal this bank knows; token and verify calls must name it. */
  terminalId: string;
  /** The terminal's password: every server-to-server call must carry it ('' when none is set). */
  password: string;
  /** Mellat's terminal user name, checked with the password on every call ('' for SEP, which has none). */
  userName?: string;
  /** Sadad only: the merchant number every token request names. */
  merchantId?: string;
  /** Sadad only: the terminal's key (base64 of 24 bytes) SignData is checked with. */
  terminalKey?: string;
  /**
   * The bearer token of the admin endpoints (the ledger's listings, the fault switches);
   * absent or '': they do not exist, so nothing reachable by customers can switch the bank.
   */
  adminToken?: string;
  /**
   * The origins a token's RedirectUrl may have (the gateway's): `scheme://host:port`, or
   * `scheme://host:*` for any port. The bank's page sends customers there and `callback_repeat`
   * posts there, so no other address of the network can be made a target.
   */
  redirectOrigins: readonly string[];
  /** "Delay in verification": how long confirm answers "in progress" after the customer's choice. */
  delaySeconds: number;
  /**
   * A paid transaction nobody confirmed within this many seconds of the customer's choice is
   * reversed by the bank itself, as Shaparak PSPs do (SEP: 30 minutes, Behpardakht: 20): the customer's money
   * comes back even when the gateway never answers. 0 turns it off.
   */
  autoReverseSeconds?: number;
  /** How long after its verify SEP still takes a ReverseTransaction (SEP: 50 minutes, docs/psps/sep.md); 0: no limit. */
  reversalWindowSeconds?: number;
  /** Mellat only: a verified sale nobody settled is settled by the bank itself this many seconds after its verify (Behpardakht: 180 minutes); 0 never. */
  autoSettleSeconds?: number;
}

export function createSimulator(options: SimulatorOptions): { server: Server; ledger: Ledger } {
  const ledger = new Ledger(options.stateFile);
  const faults = new FaultSwitches();
  const mellat = options.protocol === 'mellat';
  const admin = adminRoutes({ ledger, faults, token: options.adminToken ?? '' });
  // Mellat's server-to-server calls are a SOAP service on this server (listenMellat, below), not routes.
  const sadad = { ...options, merchantId: options.merchantId ?? '', terminalKey: options.terminalKey ?? '' };
  const areas: Routes[] = mellat
    ? [customerPageRoutes({ ledger, faults, dialect: MELLAT_PAGE }), admin]
    : options.protocol === 'sadad'
      ? [sadadRoutes({ ledger, faults, options: sadad }), customerPageRoutes({ ledger, faults, dialect: SADAD_PAGE }), admin]
      : [
        protocolRoutes({ ledger, faults, options }),
        customerPageRoutes({ ledger, faults, dialect: SEP_PAGE }),
        payoutRoutes({ ledger, faults, terminalId: options.terminalId }),
        admin,
      ];

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

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://bank');
    const method = req.method ?? 'GET';
    if (method === 'GET' && url.pathname === '/healthz') return json(res, 200, { ok: true });
    for (const routes of areas) {
      const handler = routes(method, url.pathname);
      if (handler !== undefined) return handler({ req, res, url });
    }
    json(res, 404, { error: 'not found' });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) json(res, 400, { error: 'bad request' });
      else res.end();
    });
  });
  if (mellat) listenMellat(server, { ledger, faults, options: { ...options, userName: options.userName ?? '' } });
  if (autoReverseMs > 0) {
    const sweep = setInterval(reverseUnconfirmed, Math.min(5_000, Math.max(250, autoReverseMs / 4)));
    sweep.unref();
    server.on('close', () => clearInterval(sweep));
  }
  return { server, ledger };
}
