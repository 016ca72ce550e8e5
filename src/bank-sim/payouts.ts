/** Paya: a transfer to a merchant's IBAN (a settlement's payout), once per TransferId (a repeat is answered 2 with the first transfer). */
import type { FaultSwitches } from './faults.ts';
import { json, readJson, type Routes } from './http.ts';
import { digits, now, type Ledger } from './ledger.ts';

export function payoutRoutes({
  ledger,
  faults,
  terminalId,
}: {
  ledger: Ledger;
  faults: FaultSwitches;
  terminalId: string;
}): Routes {
  return (method, path) => {
    if (method !== 'POST' || path !== '/paya/transfer') return undefined;
    return async ({ req, res }) => {
      const body = await readJson(req);
      const transferId = typeof body.TransferId === 'string' ? body.TransferId : '';
      const iban = typeof body.Iban === 'string' ? body.Iban : '';
      const amount = Number(body.Amount);
      const work = () => {
        if (transferId === '' || ledger.transfer(transferId) !== undefined) return;
        ledger.addTransfer({
          transfer_id: transferId,
          iban,
          amount,
          description: typeof body.Description === 'string' ? body.Description : '',
          trace_no: digits(12),
          at: now(),
        });
      };
      if (faults.apply('payout', res, work)) return;
      if (String(body.TerminalId) !== terminalId)
        return json(res, 200, { ResultCode: -4, ResultDescription: 'terminal not found' });
      if (transferId === '' || !/^IR[0-9]{24}$/.test(iban) || !Number.isSafeInteger(amount) || amount <= 0) {
        return json(res, 200, { ResultCode: -3, ResultDescription: 'invalid transfer' });
      }
      const before = ledger.transfer(transferId);
      work();
      const done = ledger.transfer(transferId)!;
      json(res, 200, {
        ResultCode: before === undefined ? 0 : 2,
        ResultDescription: before === undefined ? 'transferred' : 'already transferred',
        TraceNo: done.trace_no,
      });
    };
  };
}
