/**
 * Why the gateway refuses a PSP's `confirmed` answer (docs/PAYMENTS.md#a-confirmation-the-gateway-refuses):
 * the PSP's verify already did its work (SEP's captured the money; Behpardakht's verified the sale,
 * which it settles by itself later), so a refused confirmation is money held at the PSP for a payment
 * the gateway will not record as paid. Pure code: the payment workflow classifies the answer it
 * refused (isGenuineConfirmation decides whether it refuses), and the bank activity acts on the reason.
 */
import type { ConfirmedAtBank } from './bank-confirmation.ts';

/**
 * `other_payment`: the answer names another of our payments (its ResNum): that payment's money, never
 * reversed on this one's word. `terminal`, `amount`, `reference`: the answer names another terminal,
 * another amount, or another RefNum than the one asked about. `malformed`: references of shapes a paid
 * payment does not record (RRN, masked card, RefNum), or anything else the gateway's rule refuses.
 * `late_return`: a paid return for a payment already ended (canceled, expired, failed), confirmed only
 * to be given back (docs/BANK.md#a-paid-return-for-an-ended-payment); never answered by
 * confirmationRefusalReason.
 */
export const CONFIRMATION_REFUSAL_REASONS = [
  'other_payment',
  'terminal',
  'amount',
  'reference',
  'malformed',
  'late_return',
] as const;
export type ConfirmationRefusalReason = (typeof CONFIRMATION_REFUSAL_REASONS)[number];

/**
 * The reason of a confirmation isGenuineConfirmation refused, the first that holds in the order above.
 * A ResNum is judged only where the answer carries one: SEP's VerifyTransaction detail has none.
 */
export function confirmationRefusalReason(
  answer: ConfirmedAtBank,
  payment: { id: string; amount: number },
  refNum: string,
): ConfirmationRefusalReason {
  const resNum = (answer as { res_num?: unknown }).res_num;
  if (typeof resNum === 'string' && resNum !== '' && resNum !== payment.id) return 'other_payment';
  if (answer.terminal_matches !== true) return 'terminal';
  if (answer.amount !== payment.amount) return 'amount';
  if (answer.ref_num !== refNum) return 'reference';
  return 'malformed';
}
