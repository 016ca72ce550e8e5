/** The fee preview (docs/API.md#fee-preview): what a payment of an amount would cost under the caller's fee plan. */
import type { Config } from '../config.ts';
import type { AuthState } from '../domain/merchant.ts';
import { feeQuote, type FeeQuote } from '../domain/payment.ts';
import type { FeePreviewQuery } from '../domain/payment-schemas.ts';
import { chargedAmountFor } from './create.ts';

/**
 * The split of `amount` between the customer, the gateway and the merchant, for who pays the fee (the merchant
 * unless named). A quote create would refuse is refused the same way: a customer-pays charge past AMOUNT_MAX is
 * 422 `charged_amount_exceeds_max`, by create's own rule.
 */
export function previewFee(auth: AuthState, query: FeePreviewQuery, config: Pick<Config, 'AMOUNT_MAX'>): FeeQuote {
  const feePayer = query.fee_payer ?? 'merchant';
  chargedAmountFor({ amount: query.amount, fee_payer: feePayer }, auth.merchant.fee_plan, config);
  return feeQuote(query.amount, auth.merchant.fee_plan, feePayer);
}
