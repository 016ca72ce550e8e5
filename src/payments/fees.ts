/** The fee preview (docs/API.md#fee-preview): what a payment of an amount would cost under the caller's fee plan. */
import type { AuthState } from '../domain/merchant.ts';
import { feeQuote, type FeeQuote } from '../domain/payment.ts';
import type { FeePreviewQuery } from '../domain/payment-schemas.ts';

/** The split of `amount` between the customer, the gateway and the merchant, for who pays the fee (the merchant unless named). */
export function previewFee(auth: AuthState, query: FeePreviewQuery): FeeQuote {
  return feeQuote(query.amount, auth.merchant.fee_plan, query.fee_payer ?? 'merchant');
}
