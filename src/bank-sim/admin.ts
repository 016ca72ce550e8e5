/**
 * The admin endpoints for tests: the ledger as the bank sees it, and the fault switches
 * (faults.ts). They share the customers' port, so each needs the admin token
 * (`Authorization: Bearer <BANK_SIM_ADMIN_TOKEN>`); without a token configured they do not exist.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { faultApplies, FAULT_KINDS, SWITCHED_OPERATIONS, type FaultSwitches } from './faults.ts';
import { json, readBody, type Routes } from './http.ts';
import type { Ledger } from './ledger.ts';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether the request carries the admin token (compared in constant time, by digest). */
function authorized(header: string | undefined, token: string): boolean {
  return token !== '' && header !== undefined && timingSafeEqual(digest(header), digest(`Bearer ${token}`));
}

export interface AdminOptions {
  ledger: Ledger;
  faults: FaultSwitches;
  token: string;
}

export function adminRoutes({ ledger, faults, token }: AdminOptions): Routes {
  const routes: Routes = (method, path) => {
    if (method === 'GET' && path === '/admin/transfers')
      return ({ res }) => json(res, 200, { transfers: ledger.transfers() });
    if (method === 'GET' && path === '/admin/transactions') {
      return ({ res, url }) => {
        const resNum = url.searchParams.get('res_num') ?? '';
        json(res, 200, { transactions: ledger.byResNum(resNum), operations: ledger.operations(resNum) });
      };
    }
    if (method === 'GET' && path === '/admin/faults') return ({ res }) => json(res, 200, faults.view());
    if (method === 'POST' && path === '/admin/faults') {
      return async ({ req, res }) => {
        const body = JSON.parse(await readBody(req)) as {
          operation?: string;
          fault?: string;
          times?: number;
          callback_other_amount?: number;
          callback_repeat?: number;
        };
        if (body.callback_other_amount !== undefined || body.callback_repeat !== undefined) {
          if (body.callback_other_amount !== undefined) faults.callback.other_amount = body.callback_other_amount;
          if (body.callback_repeat !== undefined)
            faults.callback.repeat = Math.max(0, Math.trunc(body.callback_repeat));
          return json(res, 200, { ok: true });
        }
        const operation = SWITCHED_OPERATIONS.find((op) => op === body.operation);
        if (operation !== undefined && body.fault === 'clear') {
          faults.clear(operation);
          return json(res, 200, { ok: true });
        }
        const kind = FAULT_KINDS.find((k) => k === body.fault);
        const times = body.times === undefined ? undefined : Math.trunc(Number(body.times));
        if (
          operation === undefined ||
          kind === undefined ||
          !faultApplies(operation, kind) ||
          (times !== undefined && !(times >= 1))
        ) {
          return json(res, 400, {
            error: `operation: ${SWITCHED_OPERATIONS.join('|')}, fault: ${FAULT_KINDS.join('|')}|clear (unknown: not token; in_progress: confirm only), times: n >= 1 (none: until cleared)`,
          });
        }
        faults.set(operation, kind, times);
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
  return (method, path) => {
    const handler = routes(method, path);
    if (handler === undefined) return undefined;
    // Unknown to anyone without the token: the same 404 as any path the bank does not have.
    return (request) =>
      authorized(request.req.headers.authorization, token)
        ? handler(request)
        : json(request.res, 404, { error: 'not found' });
  };
}
