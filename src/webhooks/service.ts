/**
 * What the API does with webhook endpoints and events. Everything is scoped
 * to the key's merchant and mode: another merchant's objects, or the other
 * mode's, answer 404 `not_found` as if they did not exist.
 */
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { newWebhookSecret } from '../adapters/webhook-signing.ts';
import {
  checkWebhookUrl,
  merchantWebhookUrlPolicy,
  WebhookUrlRefused,
  type Resolver,
} from '../adapters/webhook-url-policy.ts';
import type { Config } from '../config.ts';
import type { Selectable } from 'kysely';
import type { Database, Db } from '../db/database.ts';
import { subscribedEndpointIds, tenantEventById, tenantEventsAbout, tenantEventsPage } from '../db/events.ts';
import { operatorNetworkWebhooksAllowed, setOperatorNetworkWebhooks } from '../db/merchants.ts';
import { attemptsOfEvent, attemptsOfEvents } from '../db/webhook-attempts.ts';
import {
  enableTenantEndpoint,
  endpointFromRow,
  insertWebhookEndpointInPlace,
  liveEndpointById,
  liveEndpointCount,
  liveEndpointsPage,
  lockEndpointSecret,
  markEndpointDeleted,
  rotateEndpointSecret,
} from '../db/webhook-endpoints.ts';
import type { EventType } from '../domain/events.ts';
import type { Tenant } from '../domain/merchant.ts';
import { attemptErrorOf } from '../domain/webhook-delivery.ts';
import type {
  CreateWebhookEndpointRequest,
  Event,
  ListEventsQuery,
  ListWebhookEndpointsQuery,
  WebhookAttempt,
  WebhookEndpoint,
} from '../domain/webhook-schemas.ts';
import { DomainError } from '../errors.ts';
import { temporalCall } from '../temporal/call.ts';
import { redeliverEvent } from '../temporal/deliveries.ts';

export interface WebhookServiceDeps {
  db: Db;
  temporal: Client;
  config: Config;
  /** DNS for the URL policy; the system resolver unless a test passes its own. */
  resolve?: Resolver;
}

/**
 * The operator lets a merchant's webhook receivers sit on WEBHOOK_ALLOWED_NETWORKS (`npm run cli --
 * merchants allow-operator-network`), or takes it back (`disallow-operator-network`): those networks
 * count for the merchants allowed there and nobody else (docs/WEBHOOKS.md#receivers-on-the-operators-network).
 * Taken back, the merchant's next attempt to an endpoint there is refused (`address_refused`).
 */
export async function setOperatorNetworkAllowed(
  db: Db,
  config: Pick<Config, 'WEBHOOK_ALLOWED_NETWORKS'>,
  merchantId: string,
  allowed: boolean,
) {
  if (!(await setOperatorNetworkWebhooks(db, merchantId, allowed ? new Date() : null)))
    throw new Error(`no merchant ${merchantId}`);
  return { merchant_id: merchantId, operator_network: allowed, networks: config.WEBHOOK_ALLOWED_NETWORKS };
}

/**
 * Endpoints a merchant may have per mode: enough for any shop, a bound on fan-out. Each endpoint holds one of
 * these places (migration 0046's unique key and check), so requests at the same instant never exceed it.
 */
export const MAX_ENDPOINTS = 16;

export async function createWebhookEndpoint(
  { db, config, resolve }: WebhookServiceDeps,
  auth: Tenant,
  request: CreateWebhookEndpointRequest,
) {
  try {
    await checkWebhookUrl(
      request.url,
      auth.mode,
      await merchantWebhookUrlPolicy(config, () => operatorNetworkWebhooksAllowed(db, auth.merchant.id), resolve),
    );
  } catch (error) {
    if (!(error instanceof WebhookUrlRefused)) throw error;
    throw new DomainError('validation_failed', `url ${error.message}.`, [{ path: 'url', message: error.message }]);
  }
  const tooMany = () =>
    new DomainError(
      'validation_failed',
      `A merchant can have at most ${MAX_ENDPOINTS} webhook endpoints per mode; delete one first.`,
      [{ path: 'url', message: `at most ${MAX_ENDPOINTS} endpoints` }],
    );
  // Counted first for a merchant that has more (made before the bound was a place each); the place decides.
  if ((await liveEndpointCount(db, auth)) >= MAX_ENDPOINTS) throw tooMany();
  const id = randomUUID();
  const secret = newWebhookSecret();
  const placed = await insertWebhookEndpointInPlace(
    db,
    {
      id,
      merchant_id: auth.merchant.id,
      mode: auth.mode,
      url: request.url,
      events: request.events === undefined ? null : JSON.stringify(request.events),
      secret,
      created_at: new Date(),
    },
    MAX_ENDPOINTS,
  );
  if (!placed) throw tooMany();
  return { webhook_endpoint: await getWebhookEndpoint(db, auth, id), secret };
}

const notFound = (what: string, id: string) => new DomainError('not_found', `No ${what} ${id}.`);

export async function getWebhookEndpoint(db: Db, auth: Tenant, id: string): Promise<WebhookEndpoint> {
  const row = await liveEndpointById(db, auth, id);
  if (row === undefined) throw notFound('webhook endpoint', id);
  return endpointFromRow(row);
}

/** Newest first, with the same cursor pagination as payments. */
export async function listWebhookEndpoints(db: Db, auth: Tenant, query: ListWebhookEndpointsQuery) {
  return liveEndpointsPage(db, auth, query, (r) => endpointFromRow(r));
}

/** Deletes an endpoint: it receives nothing more; its past attempts stay on their events. */
export async function deleteWebhookEndpoint(db: Db, auth: Tenant, id: string) {
  await getWebhookEndpoint(db, auth, id);
  await markEndpointDeleted(db, id);
  return { id, deleted: true };
}

/**
 * Enables an endpoint again after it was disabled (410 Gone, or a delivery
 * that failed every attempt): new events reach it from now on; what it
 * missed meanwhile can be sent with redeliver. Enabling an enabled endpoint
 * changes nothing.
 */
export async function enableWebhookEndpoint(db: Db, auth: Tenant, id: string) {
  await getWebhookEndpoint(db, auth, id);
  await enableTenantEndpoint(db, auth, id);
  return { webhook_endpoint: await getWebhookEndpoint(db, auth, id) };
}

/**
 * A new secret, shown once. The old one keeps signing too (a second
 * signature in the same header) until the window ends, so the merchant can
 * switch the receiver over without missing a delivery.
 */
export async function rotateWebhookSecret(
  { db, config }: WebhookServiceDeps,
  auth: Tenant,
  id: string,
  expiresInSeconds: number | undefined,
) {
  const secret = newWebhookSecret();
  const now = new Date();
  const windowMs = (expiresInSeconds ?? config.WEBHOOK_SECRET_ROTATION_SECONDS) * 1000;
  await db.transaction().execute(async (trx) => {
    const row = await lockEndpointSecret(trx, auth, id);
    if (row === undefined) throw notFound('webhook endpoint', id);
    await rotateEndpointSecret(trx, id, {
      secret,
      previous_secret: row.secret,
      previous_secret_expires_at: new Date(now.getTime() + windowMs),
    });
  });
  return { webhook_endpoint: await getWebhookEndpoint(db, auth, id), secret };
}

/** Newest first; filter by type. */
export async function listEvents(db: Db, auth: Tenant, query: ListEventsQuery) {
  return tenantEventsPage(db, auth, query, (r) => JSON.parse(r.body) as Event);
}

async function findEvent(db: Db, auth: Tenant, id: string) {
  const row = await tenantEventById(db, auth, id);
  if (row === undefined) throw notFound('event', id);
  return { ...row, type: row.type as EventType };
}

/** The event as it is sent, with every delivery attempt so far, oldest first. */
export async function getEvent(
  db: Db,
  auth: Tenant,
  id: string,
): Promise<{ event: Event; attempts: WebhookAttempt[] }> {
  const event = await findEvent(db, auth, id);
  const attempts = await attemptsOfEvent(db, id);
  return { event: JSON.parse(event.body) as Event, attempts: attempts.map(attemptFromRow) };
}

function attemptFromRow(a: Selectable<Database['webhook_attempts']>): WebhookAttempt {
  return {
    endpoint_id: a.endpoint_id,
    delivery_id: a.delivery_id,
    attempt: a.attempt,
    attempted_at: a.attempted_at.toISOString(),
    response_status: a.response_status,
    latency_ms: a.latency_ms,
    error: attemptErrorOf(a.error, a.response_status, Boolean(a.succeeded)),
    succeeded: Boolean(a.succeeded),
  };
}

/** Events a payment's page shows, at most: a payment has one per transition and per refund step. */
const EVENTS_ABOUT_LIMIT = 200;

/**
 * The events about these objects (a payment and its refunds), oldest first,
 * each with its delivery attempts oldest first: a payment's timeline.
 * Reads through the indexes events_by_object and webhook_attempts_event.
 */
export async function eventsAbout(
  db: Db,
  tenant: Tenant,
  objectIds: readonly string[],
): Promise<{ event: Event; attempts: WebhookAttempt[] }[]> {
  if (objectIds.length === 0) return [];
  const events = await tenantEventsAbout(db, tenant, objectIds, EVENTS_ABOUT_LIMIT);
  if (events.length === 0) return [];
  const attempts = await attemptsOfEvents(
    db,
    events.map((e) => e.id),
  );
  return events.map((e) => ({
    event: JSON.parse(e.body) as Event,
    attempts: attempts.filter((a) => a.event_id === e.id).map(attemptFromRow),
  }));
}

/** Sends an event again, with the same `webhook-id`, to one endpoint or every subscribed one. */
export async function redeliver(
  { db, temporal, config }: WebhookServiceDeps,
  auth: Tenant,
  id: string,
  endpointId: string | undefined,
) {
  const event = await findEvent(db, auth, id);
  let endpointIds: string[];
  if (endpointId === undefined) {
    endpointIds = await subscribedEndpointIds(db, event);
  } else {
    const endpoint = await getWebhookEndpoint(db, auth, endpointId);
    if (endpoint.status !== 'enabled') {
      throw new DomainError('validation_failed', 'That webhook endpoint is disabled.', [
        { path: 'endpoint_id', message: 'is disabled' },
      ]);
    }
    endpointIds = [endpointId];
  }
  const deliveries = await temporalCall(temporal, () => redeliverEvent(temporal, config, event.id, endpointIds));
  return { event_id: event.id, deliveries };
}
