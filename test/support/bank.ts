import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../src/main/ports.ts';
import { waitFor } from './http.ts';
import { suiteSepUrl } from './suite-sep.ts';

export { suiteSepUrl };

/** The bank simulator's ledger (its admin endpoint): what the bank did for a payment. */
export interface BankOperation {
  kind: 'token' | 'confirm' | 'settle' | 'reverse' | 'refund';
  amount: number;
  operation_key: string;
}

/** The suite's bank simulator (SANDBOX_SEP_URL). */
export function simulatorUrl(): string {
  const base = suiteSepUrl();
  if (base === undefined) throw new Error('no bank simulator (SANDBOX_SEP_URL)');
  return base;
}

/** The suite's second simulator, speaking Behpardakht Mellat's IPG (SANDBOX_MELLAT_URL, docs/psps/mellat.md). */
export function mellatSimulatorUrl(): string {
  const base = process.env.SANDBOX_MELLAT_URL;
  if (base === undefined || base === '') throw new Error('no Mellat bank simulator (SANDBOX_MELLAT_URL)');
  return base;
}

/** The simulator's admin token (BANK_SIM_ADMIN_TOKEN, given to it and to the tests by the launcher). */
export function adminHeaders(): Record<string, string> {
  const token = process.env.BANK_SIM_ADMIN_TOKEN;
  if (token === undefined || token === '')
    throw new Error('no admin token of the bank simulator (BANK_SIM_ADMIN_TOKEN)');
  return { authorization: `Bearer ${token}` };
}

/** GET of an admin endpoint of the simulator at `base`, as JSON. */
export async function bankAdmin<T>(path: string, base = simulatorUrl()): Promise<T> {
  const res = await fetch(`${base}${path}`, { headers: adminHeaders() });
  if (res.status !== 200) throw new Error(`the simulator refused ${path}: ${res.status}`);
  return (await res.json()) as T;
}

export async function bankOperations(paymentId: string, kind?: BankOperation['kind']): Promise<BankOperation[]> {
  const base = simulatorUrl();
  const body = await bankAdmin<{ operations: BankOperation[] }>(
    `/admin/transactions?res_num=${encodeURIComponent(paymentId)}`,
    base,
  );
  // Tokens only when asked for: the other operations are what moves money.
  return body.operations.filter((op) => (kind === undefined ? op.kind !== 'token' : op.kind === kind));
}

/** A fault switch of the simulator (docs/BANK.md#the-simulator): `times` calls of `operation` answer so; without `times`, every call until cleared. */
export interface BankFault {
  operation?: 'token' | 'confirm' | 'settle' | 'reverse' | 'refund' | 'payout';
  fault?: 'down' | 'timeout' | 'error' | 'unknown' | 'in_progress' | 'other_amount' | 'clear';
  times?: number;
  callback_other_amount?: number;
  callback_repeat?: number;
}

/** Switches a fault on at the bank simulator (its admin endpoint), or, given null, every fault off. */
export async function bankFault(body: BankFault | null, base = simulatorUrl()): Promise<void> {
  const res = await fetch(`${base}/admin/faults`, {
    method: body === null ? 'DELETE' : 'POST',
    headers: { 'content-type': 'application/json', ...adminHeaders() },
    ...(body === null ? {} : { body: JSON.stringify(body) }),
  });
  if (res.status !== 200) throw new Error(`the simulator refused the fault switch: ${res.status} ${await res.text()}`);
}

/** The simulator's switches now on, and how many calls they answered by operation and fault (since every switch was last cleared). */
export interface BankFaultsView {
  switches: { operation: string; fault: string; remaining: number | null }[];
  answered: Record<string, Record<string, number> | undefined>;
}

export const bankFaults = (base = simulatorUrl()) => bankAdmin<BankFaultsView>('/admin/faults', base);

/** A Paya transfer the simulator made (a settlement's payout). */
export interface PayoutTransfer {
  transfer_id: string;
  amount: number;
  iban: string;
}

/** The transfers the bank made for a settlement, every attempt's. */
export async function payoutTransfers(settlementId: string, base = simulatorUrl()): Promise<PayoutTransfer[]> {
  const { transfers } = await bankAdmin<{ transfers: PayoutTransfer[] }>('/admin/transfers', base);
  return transfers.filter((t) => t.transfer_id.startsWith(`payout:${settlementId}:`));
}

/** A bank simulator process of a test's own (`npm run bank-sim`), with its state file, to kill and start again. */
export class OwnSimulator {
  private child: ChildProcess | undefined;
  private port = 0;
  private readonly stateFile = join(
    tmpdir(),
    `dargah-bank-own-${process.pid}-${Math.random().toString(36).slice(2)}.json`,
  );
  private readonly env: Record<string, string>;

  constructor(env: Record<string, string> = {}) {
    this.env = env;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (this.port === 0) this.port = await freePort();
    this.child = spawn(process.execPath, ['src/bank-sim/main.ts'], {
      env: {
        ...process.env,
        BANK_SIM_PORT: String(this.port),
        BANK_SIM_STATE_FILE: this.stateFile,
        SANDBOX_DELAY_SECONDS: '1',
        ...this.env,
      },
      stdio: 'ignore',
    });
    await waitFor(
      'the simulator to listen',
      async () =>
        (await fetch(`${this.url}/healthz`)
          .then((r) => r.ok)
          .catch(() => false)) || undefined,
      30_000,
      100,
    );
  }

  async kill(): Promise<void> {
    const child = this.child;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }

  async operations(paymentId: string): Promise<{ kind: string; operation_key: string }[]> {
    return (
      await bankAdmin<{ operations: { kind: string; operation_key: string }[] }>(
        `/admin/transactions?res_num=${paymentId}`,
        this.url,
      )
    ).operations;
  }

  async stop(): Promise<void> {
    await this.kill();
    rmSync(this.stateFile, { force: true });
  }
}
