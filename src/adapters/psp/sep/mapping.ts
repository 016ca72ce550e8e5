/**
 * SEP's messages as Dargah reads them (docs/psps/sep.md): its result codes,
 * its inquiry's standings and the fields its page posts back to us. Pure
 * code, no network: the client (client.ts) and the return route share it.
 */
import type { BankCallback } from '../../../domain/payment-workflow.ts';
import type { Inquiry } from '../psp-client.ts';

/** SEP's result codes that matter here (ResultCode of the verify family). */
export const RESULT = {
  OK: 0,
  /** Already done with this RefNum: SEP answers a repeated verify with 2 and the same detail. */
  DUPLICATE: 2,
  /** Our extension for "delay in verification": ask again later. */
  IN_PROGRESS: 100,
  NOT_FOUND: -2,
} as const;

/** The inquiry's Status, as the gateway reads it; any other (Reversed, Open, a new one) decides nothing. */
export const INQUIRY_STANDING: Record<string, Inquiry['standing']> = { Succeeded: 'succeeded', Failed: 'failed', CanceledByUser: 'canceled' };

/**
 * The fields of SEP's post to our return route (State, RefNum, ResNum, Token; the rest comes from
 * the bank's confirm), checked for shape only. ResNum is the payment's id: another than
 * `paymentId`, when given, is not this payment's return.
 */
export function sepCallback(fields: Record<string, string>, paymentId?: string): BankCallback | undefined {
  const state = fields.State ?? '';
  const refNum = fields.RefNum ?? '';
  const resNum = fields.ResNum ?? '';
  const token = fields.Token ?? '';
  if (!/^[A-Za-z]{1,40}$/.test(state) || !/^[0-9]{0,40}$/.test(refNum) || resNum === '' || !/^[A-Za-z0-9_-]{1,64}$/.test(token)) return undefined;
  if (paymentId !== undefined && resNum !== paymentId) return undefined;
  if (state === 'OK' && refNum === '') return undefined;
  return { state, ref_num: refNum, res_num: resNum, token };
}
