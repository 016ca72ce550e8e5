/**
 * The bank simulator (docs/BANK.md): a separate process that speaks one PSP's protocol, as that PSP's
 * conformance corpus shows it (test/fixtures/psps/<psp>/): the protocol's own module, listed in
 * protocols.ts (SEP's REST IPG with Paya payouts, sep.ts; Behpardakht Mellat's SOAP IPG, mellat.ts), with
 * the customer's page in that protocol's dialect (customer-page.ts), its own ledger (ledger.ts) and fault
 * switches for tests (faults.ts, set through admin.ts); no daily report, which no reference shows a PSP
 * serving. One process a PSP, each on its own port with its own terminal and ledger. It imports nothing
 * of the gateway: it is the bank, not part of us.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { adminRoutes } from './admin.ts';
import { customerPageRoutes } from './customer-page.ts';
import { FaultSwitches } from './faults.ts';
import { json, type Routes } from './http.ts';
import { Ledger, now } from './ledger.ts';
import { SIMULATOR_PROTOCOLS, simulatorProtocol } from './protocols.ts';
import type { SimulatorOptions } from './simulator-protocol.ts';

export type { SimulatorOptions } from './simulator-protocol.ts';

export function createSimulator(options: SimulatorOptions): { server: Server; ledger: Ledger } {
  const ledger = new Ledger(options.stateFile);
  const faults = new FaultSwitches();
  const protocol = simulatorProtocol(options.protocol ?? 'sep');
  if (protocol === undefined)
    throw new Error(
      `the simulator speaks no protocol "${options.protocol}" (${Object.keys(SIMULATOR_PROTOCOLS).join(', ')})`,
    );
  const context = { ledger, faults, options };
  const admin = adminRoutes({ ledger, faults, token: options.adminToken ?? '' });
  // The protocol's calls first (a SOAP service listens on the server instead, below), then its page, then the admin endpoints.
  const areas: Routes[] = [
    ...(protocol.routes?.(context) ?? []),
    customerPageRoutes({ ledger, faults, dialect: protocol.page }),
    admin,
  ];

  /** Reverses, as the bank does on its own, paid transactions nobody confirmed in time. */
  const autoReverseMs = (options.autoReverseSeconds ?? protocol.defaults.autoReverseSeconds) * 1000;
  const reverseUnconfirmed = () => {
    const cutoff = Date.now() - autoReverseMs;
    for (const txn of ledger.unconfirmedPaid()) {
      if (Date.parse(txn.chosen_at ?? now()) > cutoff) continue;
      txn.reversed_at = now();
      ledger.changed(txn);
      ledger.record({
        kind: 'reverse',
        operation_key: `auto-reverse:${txn.ref_num ?? txn.token}`,
        res_num: txn.res_num,
        ref_num: txn.ref_num ?? null,
        amount: txn.amount,
        at: now(),
      });
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
  protocol.listen?.(server, context);
  if (autoReverseMs > 0) {
    const sweep = setInterval(reverseUnconfirmed, Math.min(5_000, Math.max(250, autoReverseMs / 4)));
    sweep.unref();
    server.on('close', () => clearInterval(sweep));
  }
  return { server, ledger };
}
