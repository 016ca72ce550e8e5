/**
 * The bank's post to our return route, read by the connector of the PSP that
 * posted it (docs/psps/): each PSP's page posts its own fields, which its
 * connector (registry.ts) normalizes to the one BankCallback the payment workflow takes.
 */
import type { BankCallback } from '../domain/payment-workflow.ts';
import { ORIGINAL_PSP, PSP_NAMES, type PspName } from './profiles.ts';
import { PSP_CONNECTORS } from './registry.ts';

/**
 * The PSP whose page posted `fields`, for a payment that has no PSP recorded: the first connector
 * other than SEP's that recognises them by their own names (Mellat's RefId, ResCode and SaleOrderId),
 * else SEP, whose page was the only one before payments recorded their PSP.
 */
export function pspOfReturn(fields: Record<string, string>): PspName {
  return PSP_NAMES.find((psp) => psp !== ORIGINAL_PSP && PSP_CONNECTORS[psp].recognisesReturn(fields)) ?? ORIGINAL_PSP;
}

/**
 * The normalized callback of payment `paymentId` from `fields`, read as PSP `psp`'s when the
 * payment's PSP is known, else as the PSP's whose fields they are (pspOfReturn); undefined when the
 * fields are not of that shape or name another payment.
 */
export function parseBankCallback(
  fields: Record<string, string>,
  paymentId: string,
  psp?: PspName,
): BankCallback | undefined {
  return PSP_CONNECTORS[psp ?? pspOfReturn(fields)].parseReturn(fields, paymentId);
}
