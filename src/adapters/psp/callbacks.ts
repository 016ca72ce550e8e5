/**
 * The bank's post to our return route, read by the connector of the PSP that
 * posted it (docs/psps/): each PSP's page posts its own fields, which its
 * mapping normalizes to the one BankCallback the payment workflow takes.
 */
import type { BankCallback } from '../../domain/payment-workflow.ts';
import { isMellatCallback, mellatCallback } from './mellat/mapping.ts';
import type { PspName } from './psp-client.ts';
import { sepCallback } from './sep/mapping.ts';

const PARSERS: Record<PspName, (fields: Record<string, string>, paymentId: string) => BankCallback | undefined> = { sep: sepCallback, mellat: mellatCallback };

/**
 * The normalized callback of payment `paymentId` from `fields`, read as PSP `psp`'s when the
 * payment's PSP is known, else by the fields' own names (RefId, ResCode and SaleOrderId are
 * Mellat's); undefined when the fields are not of that shape or name another payment.
 */
export function parseBankCallback(fields: Record<string, string>, paymentId: string, psp?: PspName): BankCallback | undefined {
  return PARSERS[psp ?? (isMellatCallback(fields) ? 'mellat' : 'sep')](fields, paymentId);
}
