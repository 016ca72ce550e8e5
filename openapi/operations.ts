/**
 * The API's operations, described once with the very schema objects the
 * routes validate with. The OpenAPI document is assembled from this list,
 * and a test checks that it names exactly the routes the routers serve.
 * The list is kept in parts by area; its order is the document's.
 */
import type { AmountBounds } from '../src/domain/schema.ts';
import type { Operation } from './operation.ts';
import { mandateOperations } from './operations-mandates.ts';
import { moneyOperations } from './operations-money.ts';
import { paymentOperations } from './operations-payments.ts';
import { subscriptionOperations } from './operations-subscriptions.ts';
import { webhookAndServiceOperations } from './operations-webhooks.ts';

export type { Operation } from './operation.ts';

export function operations(bounds: AmountBounds): Operation[] {
  return [
    ...paymentOperations(bounds),
    ...mandateOperations(bounds),
    ...subscriptionOperations(bounds),
    ...moneyOperations(),
    ...webhookAndServiceOperations(),
  ];
}
