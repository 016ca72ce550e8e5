/** The bank simulator's ledger (its admin endpoint): what the bank did for a payment. */
export interface BankOperation {
  kind: 'token' | 'confirm' | 'settle' | 'reverse' | 'refund';
  amount: number;
  operation_key: string;
}

/** The suite's bank simulator (SANDBOX_BANK_URL). */
export function simulatorUrl(): string {
  const base = process.env.SANDBOX_BANK_URL;
  if (base === undefined || base === '') throw new Error('no bank simulator (SANDBOX_BANK_URL)');
  return base;
}

export async function bankOperations(paymentId: string, kind?: BankOperation['kind']): Promise<BankOperation[]> {
  const base = simulatorUrl();
  const res = await fetch(`${base}/admin/transactions?res_num=${encodeURIComponent(paymentId)}`);
  const body = (await res.json()) as { operations: BankOperation[] };
  return body.operations.filter((op) => op.kind !== 'token' && (kind === undefined || op.kind === kind));
}

/** A fault switch of the simulator (docs/BANK.md#the-simulator): `times` calls of `operation` answer so. */
export interface BankFault {
  operation?: 'confirm' | 'settle' | 'reverse' | 'refund' | 'payout';
  fault?: 'timeout' | 'error' | 'unknown' | 'in_progress';
  times?: number;
  callback_other_amount?: number;
  callback_repeat?: number;
}

/** Switches a fault on at the bank simulator (its admin endpoint), or, given null, every fault off. */
export async function bankFault(body: BankFault | null, base = simulatorUrl()): Promise<void> {
  const res = await fetch(`${base}/admin/faults`, {
    method: body === null ? 'DELETE' : 'POST',
    headers: { 'content-type': 'application/json' },
    ...(body === null ? {} : { body: JSON.stringify(body) }),
  });
  if (res.status !== 200) throw new Error(`the simulator refused the fault switch: ${res.status} ${await res.text()}`);
}

/** A Paya transfer the simulator made (a settlement's payout). */
export interface PayoutTransfer {
  transfer_id: string;
  amount: number;
  iban: string;
}

/** The transfers the bank made for a settlement, every attempt's. */
export async function payoutTransfers(settlementId: string, base = simulatorUrl()): Promise<PayoutTransfer[]> {
  const { transfers } = (await (await fetch(`${base}/admin/transfers`)).json()) as { transfers: PayoutTransfer[] };
  return transfers.filter((t) => t.transfer_id.startsWith(`payout:${settlementId}:`));
}
