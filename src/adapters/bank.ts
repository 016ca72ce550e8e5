/**
 * The in-worker sandbox bank of payments started before the bank protocol
 * (`patched('bank-protocol')` in workflows/payment.ts, docs/BANK.md#replay):
 * only their old activities (captureSandboxPayment, reverseSandboxPayment,
 * refundPayment) still call it. It moves no money (only test payments ever
 * used it: live payments had no bank) and keeps no ledger any more (migration
 * 0008 dropped bank_operations; the bank simulator keeps its own): each answer
 * is derived from the operation key, so a retried operation answers the same.
 */
import { createHash } from 'node:crypto';
import { maskCardPan } from '../domain/payment.ts';

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

/** 64 decimal digits drawn from the operation key: the same key, the same digits. */
const digitsOf = (operationKey: string) =>
  createHash('sha256')
    .update(`dargah-legacy-sandbox:${operationKey}`)
    .digest('hex')
    .split('')
    .map((c) => String(parseInt(c, 16) % 10))
    .join('');

const operation = (operationKey: string): BankOperationResult => {
  const d = digitsOf(operationKey);
  return { reference_id: `1${d.slice(0, 9)}`, rrn: d.slice(10, 22) };
};

export class LegacySandboxBank implements BankAdapter {
  capture(paymentId: string): Promise<CaptureResult> {
    const key = `capture:${paymentId}`;
    // A test card of Bank Melli's range; only its masked form leaves this function.
    return Promise.resolve({ ...operation(key), card_pan: maskCardPan(`603799${digitsOf(key).slice(22, 32)}`) });
  }

  reverse(paymentId: string): Promise<BankOperationResult> {
    return Promise.resolve(operation(`reverse:${paymentId}`));
  }

  refund(_paymentId: string, refundId: string): Promise<BankOperationResult> {
    return Promise.resolve(operation(`refund:${refundId}`));
  }
}
