/**
 * What makes the bank's confirmation of a payment genuine (docs/BANK.md),
 * and the shapes of the bank's references that the payment resource's
 * schema (payment-schemas.ts) checks too: one pattern for each, here. Pure
 * code: the payment workflow judges the bank's answer with it.
 */

/**
 * The bank's reference of a payment: SEP's RefNum, a Base64-like digital receipt of about 50
 * characters (letters, digits, '+', '/', '='; '-' and '_' of the URL-safe variant), or Mellat's
 * SaleReferenceId, digits (docs/psps/sep.md, docs/psps/mellat.md).
 */
export const BANK_REFERENCE_PATTERN = '^[A-Za-z0-9+/=_-]{1,128}$';
/** The retrieval reference number (RRN) the bank gives a paid payment: 12 digits. */
export const RRN_PATTERN = '^[0-9]{12}$';
/** A masked card number: its first six and last four digits, stars between (`603799******1234`). */
export const MASKED_CARD_PAN_PATTERN = '^[0-9]{6}\\*+[0-9]{4}$';

const BANK_REFERENCE = new RegExp(BANK_REFERENCE_PATTERN);
const RRN = new RegExp(RRN_PATTERN);
const MASKED_CARD_PAN = new RegExp(MASKED_CARD_PAN_PATTERN);

/**
 * The bank's answer that it holds a payment, as the bank activity hands it to the workflow: the
 * bank's own detail of what it verified (rrn and card_pan strings), or (`basis: 'result_code'`) a
 * protocol's bare "verified" code for the transaction the call named, which gives no RRN or card.
 */
export interface ConfirmedAtBank {
  result: 'confirmed';
  basis?: 'result_code';
  ref_num: string;
  /**
   * The payment's id as the bank's answer names it; null where the answer names none (SEP's
   * TransactionDetail has no ResNum: docs/psps/sep.md), so the return's RefNum identifies it.
   */
  res_num: string | null;
  amount: number;
  rrn: string | null;
  card_pan: string | null;
  /** Whether the answer names our own terminal (the activity knows the terminal; the workflow does not). */
  terminal_matches?: boolean;
  /**
   * For a payment restricted to cards only: whether the card the bank names (by its hash) is one
   * the merchant allowed; absent when any card may pay. The activity judges it: the workflow never
   * sees a card's number or hash.
   */
  card_allowed?: boolean;
}

/**
 * Whether the bank's confirmation is of this payment and this return, and
 * well formed: our terminal, the payment's amount and id (ResNum, where the
 * answer names one), the RefNum the customer came back with, and references
 * of the shapes a paid payment records. Anything else pays nothing.
 *
 * An answer that names no payment (`res_num` null: SEP's verify) is judged by
 * the RefNum the return carried, the amount and the terminal: the RefNum is
 * SEP's receipt of one transaction, so its verify can confirm no other. Every
 * answer recorded before carried a ResNum and is judged as it was.
 *
 * The RRN and the masked card are required of every answer but one on a
 * protocol's own terms: a verify that answers its result code alone
 * (Behpardakht Mellat's, docs/psps/mellat.md) has neither to give, so such an
 * answer must carry neither (null), never one made up. An answer without
 * `basis` (SEP's, and every answer recorded before this rule) is judged as
 * it always was, so running histories replay to the same verdict.
 */
export function isGenuineConfirmation(
  answer: ConfirmedAtBank,
  payment: { id: string; amount: number },
  refNum: string,
): boolean {
  const ofThisPayment =
    answer.terminal_matches === true &&
    answer.amount === payment.amount &&
    (answer.res_num === null || answer.res_num === payment.id) &&
    answer.ref_num === refNum &&
    BANK_REFERENCE.test(answer.ref_num);
  if (!ofThisPayment) return false;
  if (answer.basis === 'result_code') return answer.rrn === null && answer.card_pan === null;
  return (
    answer.rrn !== null && RRN.test(answer.rrn) && answer.card_pan !== null && MASKED_CARD_PAN.test(answer.card_pan)
  );
}
