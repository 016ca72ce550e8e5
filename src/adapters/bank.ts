/**
 * The bank behind payments. `BankAdapter` is what the workflow needs from a
 * bank; the sandbox implementation simulates one for test mode, keeping a
 * ledger of operations in MySQL so that every operation happens once, however
 * often an activity is retried.
 */
import { randomInt } from 'node:crypto';
import { maskCardPan } from '../domain/payment.ts';
import type { Db } from '../db/database.ts';

export interface CaptureResult {
  reference_id: string;
  rrn: string;
  card_pan: string;
}

export interface BankOperationResult {
  reference_id: string;
  rrn: string;
}

export interface BankAdapter {
  capture(paymentId: string, amount: number): Promise<CaptureResult>;
  reverse(paymentId: string, amount: number): Promise<BankOperationResult>;
  /**
   * Returns `amount` of a captured payment to the customer, once per refund
   * id. A refusal by the bank is a non-retryable ApplicationFailure (its type
   * becomes the refund's failure code); anything else is retried.
   */
  refund(paymentId: string, refundId: string, amount: number): Promise<BankOperationResult>;
}

const digits = (n: number) => Array.from({ length: n }, () => String(randomInt(10))).join('');

export class SandboxBank implements BankAdapter {
  constructor(private readonly db: Db) {}

  async capture(paymentId: string, amount: number): Promise<CaptureResult> {
    // A test card of Bank Melli's range; only its masked form leaves this function.
    const card_pan = maskCardPan(`603799${digits(10)}`);
    const op = await this.once('capture', `capture:${paymentId}`, paymentId, amount, card_pan);
    return { reference_id: op.reference_id, rrn: op.rrn, card_pan: op.card_pan ?? card_pan };
  }

  async reverse(paymentId: string, amount: number): Promise<BankOperationResult> {
    return this.once('reverse', `reverse:${paymentId}`, paymentId, amount, null);
  }

  async refund(paymentId: string, refundId: string, amount: number): Promise<BankOperationResult> {
    return this.once('refund', `refund:${refundId}`, paymentId, amount, null);
  }

  /** Inserts the operation unless its key exists, and answers the stored one either way. */
  private async once(kind: 'capture' | 'reverse' | 'refund', operationKey: string, paymentId: string, amount: number, cardPan: string | null) {
    await this.db
      .insertInto('bank_operations')
      .ignore()
      .values({
        payment_id: paymentId,
        kind,
        operation_key: operationKey,
        amount,
        reference_id: digits(10),
        rrn: digits(12),
        card_pan: cardPan,
        created_at: new Date(),
      })
      .execute();
    return this.db
      .selectFrom('bank_operations')
      .select(['reference_id', 'rrn', 'card_pan'])
      .where('operation_key', '=', operationKey)
      .executeTakeFirstOrThrow();
  }
}
