/**
 * Every patch of the workflows, in one place (docs/ARCHITECTURE.md#changing-workflow-code-safely): the
 * id each `patched()` asks, why, and (PATCH_INVENTORY) the workflow and file that ask it and the
 * generation of committed replay fixtures that holds its new path. ARCHITECTURE.md's inventory is
 * written from PATCH_INVENTORY (`npm run generate:patches`), and a unit test holds every `patched()` and `deprecatePatch()`
 * call of workflows/ to this list. An id never changes and is never reused: running histories carry it.
 */

/**
 * Returns that say "failed" or "canceled" are recorded only on the bank's answer to an inquiry
 * (docs/SECURITY.md): anyone with the payment's URL holds its bank token and can post one. Payments
 * whose history took such a return before this change replay as they ran, believing it.
 */
export const ASK_BANK_ON_FAILED_RETURN_PATCH = 'bank-return-failure-asks-bank';

/**
 * Several PSPs (docs/psps/routing.md): the token is asked of the payment's route, one PSP after the
 * other, before the customer is sent anywhere. Payments whose history asked SEP alone replay so.
 */
export const PSP_ROUTING_PATCH = 'psp-routing';

/**
 * Who pays the fee (docs/PAYMENTS.md#who-pays-the-fee): a customer-pays payment is charged its amount
 * plus the fee fixed at create, so its token, the confirmation's amount and what a reversal returns
 * are that charged amount. Only customer-pays payments take the marker: every other payment, and
 * every history recorded before fee payers existed, runs and replays as before.
 */
export const CUSTOMER_PAYS_FEE_PATCH = 'customer-pays-fee';

/**
 * Who may pay (docs/PAYMENTS.md#who-may-pay-cards-and-national-code): a confirmation whose card the
 * payment does not allow (the bank activity's `card_allowed: false`) is reversed at the bank and the
 * payment fails `card_not_allowed`, never paid. Histories recorded before this change paid it.
 */
export const CARD_RESTRICTION_PATCH = 'card-restriction';

/**
 * A payment link's payment is verified by its workflow as soon as the bank confirms it
 * (docs/PAYMENTS.md#payment-links): settled at the bank, the fee as verify computes it. Asked only
 * for payments whose input says `auto_verify`, so every other history replays without the marker.
 */
export const PAYMENT_LINK_AUTO_VERIFY_PATCH = 'payment-link-auto-verify';

/**
 * What the payment's PSP offers decides its path (docs/PAYMENTS.md#capture-at-verify-or-at-settle): where
 * the PSP's verify at the customer's return captures (SEP), the merchant's verify and a payment link's
 * own verify ask the PSP nothing more (no settle); where the PSP has no inquiry (SEP), a failed or
 * canceled return of this payment's bank session is recorded as it says. The capabilities are read once,
 * into the history, where the path first depends on them. Histories recorded before replay as they ran:
 * settled at verify, and a failed return asked of the PSP.
 */
export const PSP_CAPABILITIES_PATCH = 'psp-capabilities';

/**
 * Never money without a record (docs/PAYMENTS.md#a-confirmation-the-gateway-refuses): a `confirmed`
 * answer the gateway refuses (another amount, terminal or reference) is reversed at the PSP at once and
 * the payment fails `confirmation_mismatch`. Histories recorded before left such a payment as it was.
 */
export const REFUSED_CONFIRMATION_PATCH = 'refused-confirmation-reversed';

/**
 * Patch: each new refund's method is chosen by what the payment's PSP offers (its capabilities, read
 * once per run into the history): the PSP's refund operation, a reversal of the whole payment inside
 * the PSP's reversal window, or a transfer to the IBAN the merchant gave; otherwise it is refused
 * (`refund_needs_iban`). Histories from before it took every refund to the PSP's refund operation,
 * and replay so.
 */
export const REFUNDS_BY_CAPABILITY_PATCH = 'refunds-by-capability';

/**
 * Refunds go only to the payer (docs/PAYMENTS.md#how-a-refund-is-paid-out): where neither the PSP's refund
 * nor its reversal can return the money, a refund is paid to the account of the card that paid, once the
 * customer claims it with that card (`payer_card`, recorded `awaiting_payer`); an IBAN a person typed is
 * held for the operator's approval (`awaiting_approval`), and so is any refund the merchant's balance does
 * not cover. A reversal the PSP refuses is no longer paid to a typed IBAN. Histories from before it paid a
 * typed IBAN at once and refused a refund without one (`refund_needs_iban`), and replay so.
 */
export const REFUNDS_TO_PAYER_PATCH = 'refunds-to-payer';

/**
 * A mandate's end ends its subscriptions (docs/SUBSCRIPTIONS.md#a-mandates-end-ends-its-subscriptions):
 * once an active mandate is canceled or expires, its workflow cancels every active or past_due
 * subscription on it at once (`mandate_canceled`, `mandate_expired`) through their workflows, before
 * it answers the cancel. Histories from before it ended the mandate alone, and replay so.
 */
export const MANDATE_ENDS_SUBSCRIPTIONS_PATCH = 'mandate-ends-subscriptions';

/**
 * A live payment link's payment is verified by its workflow only while its merchant is still approved
 * for live mode (docs/SECURITY.md, live payment links): a merchant whose live mode was withdrawn after
 * the payment started has the customer's money given back instead (reversed). Histories recorded
 * before verified without asking.
 */
export const LINK_AUTO_VERIFY_LIVE_STANDING_PATCH = 'link-auto-verify-live-standing';

/**
 * A payment link's payment is asked to settle at the bank for a bounded time (linkAutoVerifyBoundMs), all
 * attempts together, and is then left `paid` for its deadline's reversal (the stuck-records listing raises it).
 * Histories recorded before retried the settle without limit: they replay without the marker.
 */
export const LINK_AUTO_VERIFY_BOUND_PATCH = 'link-auto-verify-bound';

/**
 * A PSP that verifies only at the merchant's verify and gives back by itself what nobody verifies
 * (capture `merchant_verify`: Sadad) takes only payments whose verify window ends in time
 * (pspTakesVerifyWindow): the route is planned with the payment's window. Histories recorded before
 * planned without it, as they ran.
 */
export const ROUTE_VERIFY_WINDOW_PATCH = 'route-verify-window';

/**
 * Each beneficiary's transfer is an activity of its own (payOutBeneficiary), asked one after the other before
 * the merchant's net, so many beneficiaries and a slow bank never add up to one activity's timeout; each is
 * retried alone under its own key. Histories recorded before paid every beneficiary inside payOutSettlement,
 * which still pays any left pending: they replay without the marker.
 */
export const BENEFICIARY_PAYOUTS_ONE_BY_ONE_PATCH = 'settlement-beneficiary-payouts-one-by-one';

/**
 * Deliveries that began before this change (on the payment task queue) replay
 * as they ran: their activity options, and no disabling at the end.
 */
export const DISABLE_EXHAUSTED_PATCH = 'webhook-disable-exhausted';

/**
 * Only a return of the payment's own bank session ends it (docs/SECURITY.md, "A stranger ends a payment"):
 * one to the session's signed return address, or carrying the session's PSP token. Any other failed or
 * canceled return, an Asan Pardakht return its PSP answers "canceled", or a refused confirmation of such a
 * return (reversed all the same) leaves the payment payable. Histories recorded before ended it.
 */
export const SIGNED_RETURN_PATCH = 'bank-return-signed';

/**
 * A paid return for a payment already ended (canceled, expired, failed) is confirmed and reversed at the
 * PSP, and recorded (docs/BANK.md#a-paid-return-for-an-ended-payment). Histories recorded before ignored it.
 */
export const LATE_RETURN_PATCH = 'bank-return-late-reversed';

/**
 * Where a patch stands (docs/ARCHITECTURE.md#the-patch-policy): `active`, asked with `patched()`, both paths
 * kept; `deprecated`, asked with `deprecatePatch()`, the old path gone and its fixtures retired; `removed`,
 * asked no more (its id stays here, never reused).
 */
export type PatchStage = 'active' | 'deprecated' | 'removed';

export interface PatchEntry {
  /** The id `patched()` asks, as histories carry it. */
  id: string;
  /** The workflow that asks it. */
  workflow: 'payment' | 'refunds' | 'settlement' | 'webhook delivery' | 'mandate';
  /** The file that asks it. */
  file: string;
  /**
   * The generation of committed fixtures (test/fixtures/histories/, a subfolder for other workflow
   * types) that records its new path; '' where the workflow tests hold its paths (docs/ARCHITECTURE.md).
   */
  fixtures: string;
  /** The day it shipped: its first commit, `git log -S'<id>' --reverse --format=%ad --date=short -- workflows/`. */
  added: string;
  stage: PatchStage;
  /**
   * Once deprecated: the day, and the committed fixtures of its old path retired (deleted) that day, by
   * name ('' when no committed history took its old path). A fixture is named once, by the first patch whose
   * deprecation retired it.
   */
  deprecated?: { on: string; retired: string };
}

/** The patches in the order they shipped. */
export const PATCH_INVENTORY: readonly PatchEntry[] = [
  {
    id: ASK_BANK_ON_FAILED_RETURN_PATCH,
    workflow: 'payment',
    file: 'workflows/bank-return.ts',
    fixtures: 'v8',
    added: '2026-11-25',
    stage: 'deprecated',
    deprecated: { on: '2026-12-03', retired: 'v7-cancel, v7-failure' },
  },
  {
    id: PSP_ROUTING_PATCH,
    workflow: 'payment',
    file: 'workflows/bank-token.ts',
    fixtures: 'v9, v10',
    added: '2026-11-25',
    stage: 'active',
  },
  {
    id: CUSTOMER_PAYS_FEE_PATCH,
    workflow: 'payment',
    file: 'workflows/bank-return.ts',
    fixtures: 'v11',
    added: '2026-11-26',
    stage: 'deprecated',
    deprecated: { on: '2026-12-03', retired: '' },
  },
  {
    id: CARD_RESTRICTION_PATCH,
    workflow: 'payment',
    file: 'workflows/bank-return.ts',
    fixtures: 'v12',
    added: '2026-11-26',
    stage: 'deprecated',
    deprecated: { on: '2026-12-03', retired: '' },
  },
  {
    id: PAYMENT_LINK_AUTO_VERIFY_PATCH,
    workflow: 'payment',
    file: 'workflows/payment-lifecycle.ts',
    fixtures: 'v13',
    added: '2026-11-26',
    stage: 'deprecated',
    deprecated: { on: '2026-12-03', retired: '' },
  },
  {
    id: PSP_CAPABILITIES_PATCH,
    workflow: 'payment',
    file: 'workflows/bank-return.ts',
    fixtures: 'v14',
    added: '2026-11-27',
    stage: 'active',
  },
  {
    id: REFUSED_CONFIRMATION_PATCH,
    workflow: 'payment',
    file: 'workflows/bank-return.ts',
    fixtures: 'v14',
    added: '2026-11-27',
    stage: 'deprecated',
    deprecated: { on: '2026-12-03', retired: '' },
  },
  {
    id: REFUNDS_BY_CAPABILITY_PATCH,
    workflow: 'refunds',
    file: 'workflows/refunds.ts',
    fixtures: 'v14',
    added: '2026-11-27',
    stage: 'active',
  },
  {
    id: LINK_AUTO_VERIFY_LIVE_STANDING_PATCH,
    workflow: 'payment',
    file: 'workflows/payment-lifecycle.ts',
    fixtures: '',
    added: '2026-11-27',
    stage: 'deprecated',
    deprecated: { on: '2026-12-03', retired: '' },
  },
  {
    id: LINK_AUTO_VERIFY_BOUND_PATCH,
    workflow: 'payment',
    file: 'workflows/payment-lifecycle.ts',
    fixtures: 'v15',
    added: '2026-11-27',
    stage: 'active',
  },
  {
    id: ROUTE_VERIFY_WINDOW_PATCH,
    workflow: 'payment',
    file: 'workflows/bank-token.ts',
    fixtures: 'v16',
    added: '2026-11-27',
    stage: 'active',
  },
  {
    id: BENEFICIARY_PAYOUTS_ONE_BY_ONE_PATCH,
    workflow: 'settlement',
    file: 'workflows/settlement.ts',
    fixtures: 'settlement/v2',
    added: '2026-11-27',
    stage: 'active',
  },
  {
    id: DISABLE_EXHAUSTED_PATCH,
    workflow: 'webhook delivery',
    file: 'workflows/webhook.ts',
    fixtures: 'webhook/v2',
    added: '2026-11-22',
    stage: 'active',
  },
  {
    id: SIGNED_RETURN_PATCH,
    workflow: 'payment',
    file: 'workflows/bank-return.ts',
    fixtures: '',
    added: '2026-12-01',
    stage: 'deprecated',
    deprecated: { on: '2026-12-03', retired: '' },
  },
  {
    id: LATE_RETURN_PATCH,
    workflow: 'payment',
    file: 'workflows/bank-return.ts',
    fixtures: '',
    added: '2026-12-01',
    stage: 'deprecated',
    deprecated: { on: '2026-12-03', retired: '' },
  },
  {
    id: REFUNDS_TO_PAYER_PATCH,
    workflow: 'refunds',
    file: 'workflows/refunds.ts',
    fixtures: '',
    added: '2026-12-01',
    stage: 'active',
  },
  {
    id: MANDATE_ENDS_SUBSCRIPTIONS_PATCH,
    workflow: 'mandate',
    file: 'workflows/mandate.ts',
    fixtures: 'mandate/v1',
    added: '2026-12-02',
    stage: 'active',
  },
];
