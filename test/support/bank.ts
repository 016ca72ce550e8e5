/** The bank simulator's ledger (its admin endpoint): what the bank did for a payment. */
export interface BankOperation {
  kind: 'token' | 'confirm' | 'settle' | 'reverse' | 'refund';
  amount: number;
  operation_key: string;
}

export async function bankOperations(paymentId: string, kind?: BankOperation['kind']): Promise<BankOperation[]> {
  const base = process.env.SANDBOX_BANK_URL;
  if (base === undefined || base === '') throw new Error('no bank simulator (SANDBOX_BANK_URL)');
  const res = await fetch(`${base}/admin/transactions?res_num=${encodeURIComponent(paymentId)}`);
  const body = (await res.json()) as { operations: BankOperation[] };
  return body.operations.filter((op) => op.kind !== 'token' && (kind === undefined || op.kind === kind));
}

/** Switches a fault on at the bank simulator (its admin endpoint), or every fault off (null). */
export async function bankFault(body: Record<string, unknown> | null): Promise<void> {
  const res = await fetch(`${process.env.SANDBOX_BANK_URL}/admin/faults`, {
    method: body === null ? 'DELETE' : 'POST',
    headers: { 'content-type': 'application/json' },
    ...(body === null ? {} : { body: JSON.stringify(body) }),
  });
  if (res.status !== 200) throw new Error(`the bank simulator refused the fault: ${res.status}`);
}
