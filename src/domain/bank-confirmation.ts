/**
 * What makes the bank's confirmation of a payment genuine (docs/BANK.md),
 * and the shapes of the bank's references that the payment resource's
 * schema (payment-schemas.ts) checks too: one pattern for each, here. Pure
 * code: the payment workflow judges the bank's answer with it.
 */

/** The bank's reference of a payment (SEP's RefNum): digits only. */
export const BANK_REFERENCE_PATTERN = '^[0-9]+$';
/** The retrieval reference number (RRN) the bank gives a paid payment: 12 digits. */
export const RRN_PATTERN = '^[0-9]{12}$';
/** A masked card number: its first six and last four digits, stars between (`603799******1234`). */
export const MASKED_CARD_PAN_PATTERN = '^[0-9]{6}\\*+[0-9]{4}$';

const BANK_REFERENCE = new RegExp(BANK_REFERENCE_PATTERN);
const RRN = new RegExp(RRN_PATTERN);
const MASKED_CARD_PAN = new RegExp(MASKED_CARD_PAN_PATTERN);

/** The bank's answer that it holds a payment, as the bank activity hands it to the workflow. */
export interface ConfirmedAtBank {
  result: 'confirmed';
  ref_num: string;
  res_num: string;
  amount: number;
  rrn: string;
  card_pan: string;
  /** Whether the answer names our own terminal (the activity knows the terminal; the workflow does not). */
  terminal_matches?: boolean;
}

/**
 * Whether the bank's confirmation is of this payment and this return, and
 * well formed: our terminal, the payment's amount and id (ResNum), the
 * RefNum the customer came back with, and references of the shapes a paid
 * payment records. Anything else pays nothing.
 */
export function isGenuineConfirmation(answer: ConfirmedAtBank, payment: { id: string; amount: number }, refNum: string): boolean {
  return (
    answer.terminal_matches === true &&
    answer.amount === payment.amount &&
    answer.res_num === payment.id &&
    answer.ref_num === refNum &&
    BANK_REFERENCE.test(answer.ref_num) &&
    RRN.test(answer.rrn) &&
    MASKED_CARD_PAN.test(answer.card_pan)
  );
}
