/** The admin endpoints for tests: the ledger as the bank sees it, and the fault switches (faults.ts). */
import { SWITCHED_OPERATIONS, type FaultKind, type FaultSwitches, type SwitchedOperation } from './faults.ts';
import { json, readBody, type Routes } from './http.ts';
import type { Ledger } from './ledger.ts';

export function adminRoutes({ ledger, faults }: { ledger: Ledger; faults: FaultSwitches }): Routes {
  return (method, path) => {
    if (method === 'GET' && path === '/admin/transfers') return ({ res }) => json(res, 200, { transfers: ledger.transfers() });
    if (method === 'GET' && path === '/admin/transactions') {
      return ({ res, url }) => {
        const resNum = url.searchParams.get('res_num') ?? '';
        json(res, 200, { transactions: ledger.byResNum(resNum), operations: ledger.operations(resNum) });
      };
    }
    if (method === 'POST' && path === '/admin/faults') {
      return async ({ req, res }) => {
        const body = JSON.parse(await readBody(req)) as { operation?: string; fault?: string; times?: number; callback_other_amount?: number; callback_repeat?: number };
        if (body.callback_other_amount !== undefined || body.callback_repeat !== undefined) {
          if (body.callback_other_amount !== undefined) faults.callback.other_amount = body.callback_other_amount;
          if (body.callback_repeat !== undefined) faults.callback.repeat = Math.max(0, Math.trunc(body.callback_repeat));
          return json(res, 200, { ok: true });
        }
        const operationOk = SWITCHED_OPERATIONS.includes(body.operation as SwitchedOperation);
        const faultOk = ['timeout', 'error', 'unknown'].includes(body.fault ?? '') || (body.fault === 'in_progress' && body.operation === 'confirm');
        if (!operationOk || !faultOk) {
          return json(res, 400, { error: 'operation: confirm|settle|reverse|refund|payout, fault: timeout|error|unknown (in_progress: confirm only), times: n' });
        }
        faults.set(body.operation as SwitchedOperation, body.fault as FaultKind, Math.max(1, Math.trunc(body.times ?? 1)));
        json(res, 200, { ok: true });
      };
    }
    if (method === 'DELETE' && path === '/admin/faults') {
      return ({ res }) => {
        faults.clear();
        json(res, 200, { ok: true });
      };
    }
    return undefined;
  };
}
