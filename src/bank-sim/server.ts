/**
 * The bank simulator (docs/BANK.md): a separate process that speaks the
 * PSP protocol of src/adapters/psp/sep.ts (protocol.ts), with the
 * customer's page (customer-page.ts), Paya payouts (payouts.ts), its own
 * ledger (ledger.ts) and fault switches for tests (faults.ts, set through
 * admin.ts). It imports nothing of the gateway: it is the bank, not part of us.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { adminRoutes } from './admin.ts';
import { customerPageRoutes } from './customer-page.ts';
import { FaultSwitches } from './faults.ts';
import { json, type Routes } from './http.ts';
import { Ledger, now } from './ledger.ts';
import { payoutRoutes } from './payouts.ts';
import { protocolRoutes } from './protocol.ts';

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

export function createSimulator(options: SimulatorOptions): { server: Server; ledger: Ledger } {
  const ledger = new Ledger(options.stateFile);
  const faults = new FaultSwitches();
  const areas: Routes[] = [
    protocolRoutes({ ledger, faults, options }),
    customerPageRoutes({ ledger, faults }),
    payoutRoutes({ ledger, faults, terminalId: options.terminalId }),
    adminRoutes({ ledger, faults }),
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
  if (autoReverseMs > 0) {
    const sweep = setInterval(reverseUnconfirmed, Math.min(5_000, Math.max(250, autoReverseMs / 4)));
    sweep.unref();
    server.on('close', () => clearInterval(sweep));
  }
  return { server, ledger };
}
