/**
 * The simulator's own ledger: every transaction it handed a token for, and
 * every operation it did, kept in memory with the indexes its calls look up
 * by, and journaled to a file a line per change (JSON Lines) so that a restart
 * of the simulator loses nothing. Appending a line keeps each change's cost
 * flat; rewriting the whole file on every change made a busy day's last
 * payments wait on a file of every payment before them.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Every time the ledger keeps: ISO 8601, UTC. */
export const now = () => new Date().toISOString();

/** The bank's own numbers (RefNum, RRN, trace numbers, the card's last digits): n random decimal digits. */
export const digits = (n: number) => Array.from({ length: n }, () => String(randomInt(10))).join('');

/** SEP's digital receipt (RefNum): 50 characters of Base64's alphabet, '+' and '/' included (test/fixtures/psps/sep/return-ok.json). */
export const sepRefNum = () => randomBytes(38).toString('base64').slice(0, 50);

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
  /** The card paid with, masked (first six, last four). */
  card_pan?: string;
  /** The SHA-256 (hex) of the full card paid with, as SEP's verify answers it (HashedPan); the full number is never kept. */
  card_sha256?: string;
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

/** One line of the journal: a transaction as it is now, an operation, a transfer; or a whole state written by the simulator before it kept a journal. */
interface Entry {
  txn?: Transaction;
  op?: Operation;
  transfer?: Transfer;
  transactions?: Record<string, Transaction>;
  operations?: Operation[];
  transfers?: Record<string, Transfer>;
}

export class Ledger {
  private readonly transactions = new Map<string, Transaction>();
  private readonly tokenByRef = new Map<string, string>();
  private readonly tokensByResNum = new Map<string, Set<string>>();
  /** Tokens of transactions paid (or left in "delay") that nobody confirmed or reversed yet. */
  private readonly unconfirmed = new Set<string>();
  private readonly allOperations: Operation[] = [];
  private readonly operationsByResNum = new Map<string, Operation[]>();
  private readonly transfersById = new Map<string, Transfer>();
  private readonly file: string;

  constructor(file: string) {
    this.file = file;
    mkdirSync(dirname(file), { recursive: true });
    if (!existsSync(file)) return;
    const text = readFileSync(file, 'utf8');
    const complete = this.load(text);
    // The next line must start on a line of its own: after a dropped half line, in its place.
    if (!complete) writeFileSync(file, text.slice(0, text.lastIndexOf('\n') + 1));
    else if (text !== '' && !text.endsWith('\n')) appendFileSync(file, '\n');
  }

  /**
   * Replays the journal; answers false when it dropped a half-written last line. A crash can leave the last line half written: that change never
   * answered its caller (it is written before the answer), so it is dropped; a bad line
   * anywhere else is a damaged file, and the simulator refuses to start on it.
   */
  private load(text: string): boolean {
    const lines = text.split('\n').filter((line) => line !== '');
    let complete = true;
    lines.forEach((line, i) => {
      let entry: Entry;
      try {
        entry = JSON.parse(line) as Entry;
      } catch (error) {
        if (i < lines.length - 1) throw new Error(`${this.file}: line ${i + 1} is not JSON`, { cause: error });
        complete = false;
        return;
      }
      for (const txn of Object.values(entry.transactions ?? {})) this.index(txn);
      for (const op of entry.operations ?? []) this.indexOperation(op);
      for (const transfer of Object.values(entry.transfers ?? {}))
        this.transfersById.set(transfer.transfer_id, transfer);
      if (entry.txn !== undefined) this.index(entry.txn);
      if (entry.op !== undefined) this.indexOperation(entry.op);
      if (entry.transfer !== undefined) this.transfersById.set(entry.transfer.transfer_id, entry.transfer);
    });
    return complete;
  }

  private index(txn: Transaction): void {
    this.transactions.set(txn.token, txn);
    if (txn.ref_num !== undefined) this.tokenByRef.set(txn.ref_num, txn.token);
    let tokens = this.tokensByResNum.get(txn.res_num);
    if (tokens === undefined) this.tokensByResNum.set(txn.res_num, (tokens = new Set()));
    tokens.add(txn.token);
    const paid = txn.outcome === 'success' || txn.outcome === 'delay';
    if (paid && txn.confirmed_at === undefined && txn.reversed_at === undefined) this.unconfirmed.add(txn.token);
    else this.unconfirmed.delete(txn.token);
  }

  private indexOperation(op: Operation): void {
    this.allOperations.push(op);
    let ops = this.operationsByResNum.get(op.res_num);
    if (ops === undefined) this.operationsByResNum.set(op.res_num, (ops = []));
    ops.push(op);
  }

  /** Appends one change: a line, not the whole ledger, so a change costs the same on the first day and the thousandth. */
  private append(entry: Entry): void {
    appendFileSync(this.file, `${JSON.stringify(entry)}\n`);
  }

  byToken(token: string): Transaction | undefined {
    return this.transactions.get(token);
  }

  byRef(refNum: string): Transaction | undefined {
    const token = this.tokenByRef.get(refNum);
    return token === undefined ? undefined : this.transactions.get(token);
  }

  byResNum(resNum: string): Transaction[] {
    return [...(this.tokensByResNum.get(resNum) ?? [])].map((token) => this.transactions.get(token)!);
  }

  /** Every transaction the bank handed a token for. */
  all(): Transaction[] {
    return [...this.transactions.values()];
  }

  /** Transactions the customer paid (or left in "delay") that nobody confirmed or reversed yet. */
  unconfirmedPaid(): Transaction[] {
    return [...this.unconfirmed].map((token) => this.transactions.get(token)!);
  }

  operations(resNum?: string): Operation[] {
    return [...(resNum === undefined ? this.allOperations : (this.operationsByResNum.get(resNum) ?? []))];
  }

  transfer(transferId: string): Transfer | undefined {
    return this.transfersById.get(transferId);
  }

  transfers(): Transfer[] {
    return [...this.transfersById.values()];
  }

  addTransfer(transfer: Transfer): void {
    this.append({ transfer });
    this.transfersById.set(transfer.transfer_id, transfer);
  }

  add(txn: Transaction): void {
    this.changed(txn);
  }

  record(op: Operation): void {
    this.append({ op });
    this.indexOperation(op);
  }

  /** After a change to a transaction object returned by this ledger. */
  changed(txn: Transaction): void {
    this.append({ txn });
    this.index(txn);
  }
}
