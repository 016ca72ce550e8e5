/**
 * What the hosted payment page (src/pages/routes.ts, docs/PAGES.md) reads of a payment: anyone with
 * its link may open it, so it is found by id alone, with its merchant's name, the PSP that gave its
 * token, Zibal's trackId where its return carries one, and whether its callback URL is on a domain
 * the merchant verified.
 */
import type { Db } from '../db/database.ts';
import { verifiedMerchantDomains } from '../db/merchant-domains.ts';
import { paymentWithMerchantName } from '../db/payment-listing.ts';
import { paymentFromRow } from '../db/payments.ts';
import { domainCovers } from '../domain/merchant.ts';
import type { Payment } from '../domain/payment-schemas.ts';

export interface HostedPayment {
  payment: Payment;
  merchantName: string;
  merchantId: string;
  /** Whether the callback URL is on a domain the merchant verified (always so for a live payment: create refuses others). */
  callbackDomainVerified: boolean;
  /**
   * The PSP that gave the payment's token: its connector reads the bank's post. None yet (or a payment
   * from before routing): the fields' own names tell SEP's from Mellat's.
   */
  psp?: string;
  /** Zibal's trackId of a payment its /v1/request made (the record's, not the API's shape): its return carries it. */
  zibalTrackId: string | null;
}

/** The payment with this id as its page shows it; undefined when there is none. */
export async function hostedPayment(db: Db, id: string): Promise<HostedPayment | undefined> {
  const row = await paymentWithMerchantName(db, id);
  if (row === undefined) return undefined;
  const verified = await verifiedMerchantDomains(db, row.merchant_id);
  const payment = paymentFromRow(row);
  // A payment link's customer returns to the gateway's own receipt, no domain of the merchant's.
  const callbackDomainVerified =
    payment.payment_link !== null ||
    domainCovers(
      verified.map((d) => d.domain),
      new URL(payment.callback_url).hostname,
    );
  return {
    payment,
    merchantName: row.merchant_name,
    merchantId: row.merchant_id,
    callbackDomainVerified,
    psp: row.psp ?? undefined,
    zibalTrackId: row.zibal_track_id,
  };
}
