/**
 * The kinds of event a merchant can receive by webhook
 * (docs/WEBHOOKS.md#event-types-and-body). Pure code, shared by the schemas, the
 * recording activities and the delivery.
 */
import type { PaymentStatus } from './payment.ts';

export const EVENT_TYPES = [
  'payment.created',
  'payment.pending',
  'payment.paid',
  'payment.verified',
  'payment.failed',
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
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The event a payment emits on entering `status`, if any (every transition in docs/PAYMENTS.md has one). */
export function paymentEventType(status: PaymentStatus): EventType | undefined {
  const type = `payment.${status}`;
  return (EVENT_TYPES as readonly string[]).includes(type) ? (type as EventType) : undefined;
}

/** Whether an endpoint subscribed to `events` (null: every type) receives `type`. */
export function isSubscribed(events: readonly string[] | null, type: string): boolean {
  return events === null || events.includes(type);
}
