/**
 * The kinds of event a merchant can receive by webhook
 * (docs/WEBHOOKS.md#event-types-and-body). Pure code, shared by the schemas, the
 * recording activities and the delivery.
 */
import { PAYMENT_FAILURES, type PaymentStatus } from './payment.ts';

export const EVENT_TYPES = [
  'payment.created',
  'payment.pending',
  'payment.paid',
  'payment.verified',
  'payment.failed',
  'payment.card_not_allowed',
  'payment.canceled',
  'payment.expired',
  'payment.reversed',
  'payment.partially_refunded',
  'payment.refunded',
  'refund.created',
  'refund.succeeded',
  'refund.failed',
  'webhook_endpoint.disabled',
  'settlement.paid',
  'settlement.failed',
  'beneficiary_payout.paid',
  'beneficiary_payout.failed',
  'mandate.active',
  'mandate.declined',
  'mandate.canceled',
  'mandate.expired',
  'subscription.created',
  'subscription.charged',
  'subscription.past_due',
  'subscription.canceled',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * The event a payment emits on entering `status`, if any (every transition in docs/PAYMENTS.md has
 * one). A payment failed because another card than the allowed ones paid it (`failureCode`
 * card_not_allowed) emits `payment.card_not_allowed` instead of `payment.failed`: the customer's money
 * was taken and is being returned, which a merchant of an exchange or wallet watches for apart.
 */
export function paymentEventType(status: PaymentStatus, failureCode?: string): EventType | undefined {
  if (status === 'failed' && failureCode === PAYMENT_FAILURES.cardNotAllowed.code) return 'payment.card_not_allowed';
  const type = `payment.${status}`;
  return (EVENT_TYPES as readonly string[]).includes(type) ? (type as EventType) : undefined;
}

/** Whether an endpoint subscribed to `events` (null: every type) receives `type`. */
export function isSubscribed(events: readonly string[] | null, type: string): boolean {
  return events === null || events.includes(type);
}
