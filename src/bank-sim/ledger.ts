/**
 * The simulator's own ledger: every transaction it handed a token for, and
 * every operation it did, kept in a JSON file (written whole and renamed
 * into place) so that a restart of the simulator loses nothing.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export type Outcome = 'success' | 'failure' | 'cancel' | 'delay';

export interface Transaction {
  token: string;
  terminal: string;
  amount: number;
  res_num: string;
  redirect_url: string;
  created_at: string;
  /** The customer's choice on the bank's page; set once. */
  outcome?: Outcome;
  chosen_at?: string;
  ref_num?: string;
  rrn?: string;
  trace_no?: string;
  card_pan?: string;
  /** "Delay in verification": confirm answered "in progress" at least once. */
  answered_in_progress?: boolean;
  confirmed_at?: string;
  settled_at?: string;
  reversed_at?: string;
  /** The "callback repeated" fault: the gateway's HTTP status for each copy the bank posted itself (0: no answer). */
  repeated_callbacks?: number[];
  /** Refund id → amount. */
  refunds: Record<string, number>;
}

export interface Operation {
  kind: 'token' | 'confirm' | 'settle' | 'reverse' | 'refund';
  operation_key: string;
  res_num: string;
  ref_num: string | null;
  amount: number;
  at: string;
}

/** A Paya transfer to a merchant's IBAN (a settlement's payout), one per transfer id. */
export interface Transfer {
  transfer_id: string;
  iban: string;
  amount: number;
  description: string;
  trace_no: string;
  at: string;
}

interface State {
  transactions: Record<string, Transaction>;
  operations: Operation[];
  /** Transfer id → transfer; absent in files written before payouts existed. */
  transfers?: Record<string, Transfer>;
}

export class Ledger {
  private state: State;

  constructor(private readonly file: string) {
    this.state = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as State) : { transactions: {}, operations: [] };
  }

  byToken(token: string): Transaction | undefined {
    return Object.hasOwn(this.state.transactions, token) ? this.state.transactions[token] : undefined;
  }

  byRef(refNum: string): Transaction | undefined {
    return Object.values(this.state.transactions).find((t) => t.ref_num === refNum);
  }

  byResNum(resNum: string): Transaction[] {
    return Object.values(this.state.transactions).filter((t) => t.res_num === resNum);
  }

  /** Transactions the customer paid (or left in "delay") that nobody confirmed or reversed yet. */
  unconfirmedPaid(): Transaction[] {
    return Object.values(this.state.transactions).filter(
      (t) => (t.outcome === 'success' || t.outcome === 'delay') && t.confirmed_at === undefined && t.reversed_at === undefined,
    );
  }

  operations(resNum?: string): Operation[] {
    return resNum === undefined ? [...this.state.operations] : this.state.operations.filter((o) => o.res_num === resNum);
  }

  transfer(transferId: string): Transfer | undefined {
    const transfers = this.state.transfers ?? {};
    return Object.hasOwn(transfers, transferId) ? transfers[transferId] : undefined;
  }

  transfers(): Transfer[] {
    return Object.values(this.state.transfers ?? {});
  }

  addTransfer(transfer: Transfer): void {
    this.state.transfers = { ...this.state.transfers, [transfer.transfer_id]: transfer };
    this.save();
  }

  add(txn: Transaction): void {
    this.state.transactions[txn.token] = txn;
    this.save();
  }

  record(op: Operation): void {
    this.state.operations.push(op);
    this.save();
  }

  /** After a change to a transaction object returned by this ledger. */
  save(): void {
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.state));
    renameSync(tmp, this.file);
  }
}
