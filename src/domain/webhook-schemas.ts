/**
 * Schemas of webhook endpoints, events and delivery attempts
 * (docs/WEBHOOKS.md): the one source for request validation, the OpenAPI
 * document and the TypeScript types, like the payment schemas.
 */
import { MandateSchema } from './mandate-schemas.ts';
import { SubscriptionSchema } from './subscription-schemas.ts';
import { Type, type Static } from '@sinclair/typebox';
import { EVENT_TYPES } from './events.ts';
import { WEBHOOK_ATTEMPT_ERRORS } from './webhook-delivery.ts';
import { KEY_MODES } from './merchant.ts';
import { PaymentSchema } from './payment-schemas.ts';
import { RefundSchema } from './refund-schemas.ts';
import { BeneficiaryPayoutSchema, SettlementSchema } from './settlement-schemas.ts';
import { listOf, listQuery, Nullable, StringEnum, Timestamp } from './schema.ts';

export const EventTypeSchema = StringEnum(EVENT_TYPES, { description: 'kind of event' });

export const CreateWebhookEndpointRequestSchema = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'where deliveries are POSTed: https on a public address (test mode also allows http://localhost)',
      examples: ['https://shop.example/webhooks/dargah'],
    }),
    events: Type.Optional(
      Type.Array(EventTypeSchema, {
        minItems: 1,
        uniqueItems: true,
        description: 'event types to receive; omit to receive every type',
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateWebhookEndpointRequest = Static<typeof CreateWebhookEndpointRequestSchema>;

export const RotateSecretRequestSchema = Type.Object(
  {
    previous_secret_expires_in: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 604_800,
        description: 'seconds the old secret keeps signing deliveries (default: the server setting, 24 h)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const WebhookEndpointSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    url: Type.String(),
    events: Type.Union([Type.Array(EventTypeSchema), Type.Null()], {
      description: 'subscribed event types; null: every type',
    }),
    mode: StringEnum(KEY_MODES),
    status: StringEnum(['enabled', 'disabled'] as const, {
      description:
        '`disabled` after the receiver answered 410 Gone or a delivery failed every attempt (a `webhook_endpoint.disabled` event); `POST …/enable` enables it again',
    }),
    disabled_reason: Type.Union([Type.String(), Type.Null()]),
    previous_secret_expires_at: Nullable(
      Timestamp('until then deliveries carry a signature with the previous secret too'),
      'null unless a rotation is in progress',
    ),
    created_at: Timestamp('creation time'),
  },
  { additionalProperties: false },
);
export type WebhookEndpoint = Static<typeof WebhookEndpointSchema>;

export const WebhookEndpointWithSecretSchema = Type.Object(
  {
    webhook_endpoint: WebhookEndpointSchema,
    secret: Type.String({
      pattern: '^whsec_[A-Za-z0-9+/=]+$',
      description: 'signing secret, shown only in this response',
    }),
  },
  { additionalProperties: false },
);

export const WebhookEndpointListSchema = listOf(WebhookEndpointSchema);

/** The body of every delivery of an event, and its representation in the API. */
export const EventSchema = Type.Object(
  {
    id: Type.String({ pattern: '^evt_[0-9a-f]{32}$', description: 'also the `webhook-id` header of every delivery' }),
    type: EventTypeSchema,
    created_at: Timestamp('when the change happened'),
    data: Type.Object(
      {
        payment: Type.Optional(PaymentSchema),
        refund: Type.Optional(RefundSchema),
        webhook_endpoint: Type.Optional(WebhookEndpointSchema),
        settlement: Type.Optional(SettlementSchema),
        beneficiary_payout: Type.Optional(BeneficiaryPayoutSchema),
        mandate: Type.Optional(MandateSchema),
        subscription: Type.Optional(SubscriptionSchema),
        payment_id: Type.Optional(
          Type.String({ format: 'uuid', description: "subscription.charged and .past_due: the charge's payment" }),
        ),
      },
      {
        additionalProperties: false,
        description:
          "the object after the change: the payment for payment.*, the refund for refund.*, the endpoint for webhook_endpoint.*, the settlement for settlement.*, a beneficiary's transfer for beneficiary_payout.*, the mandate for mandate.*, the subscription for subscription.*",
      },
    ),
  },
  { additionalProperties: false },
);
export type Event = Static<typeof EventSchema>;

export const WebhookAttemptSchema = Type.Object(
  {
    endpoint_id: Type.String({ format: 'uuid' }),
    delivery_id: Type.String({ description: 'the first delivery, or a redelivery' }),
    attempt: Type.Integer({ minimum: 1, description: 'attempt number within its delivery' }),
    attempted_at: Timestamp('when the request was sent'),
    response_status: Type.Union([Type.Integer(), Type.Null()], {
      description: "the receiver's HTTP status; null when none came",
    }),
    latency_ms: Type.Integer({ minimum: 0 }),
    error: Type.Union([StringEnum(WEBHOOK_ATTEMPT_ERRORS), Type.Null()], {
      description:
        "why the attempt failed, as a class only (the connection error itself stays in the gateway's logs): `timeout` (no answer within the time limit), `connection_failed` (no connection, or it broke), `tls_error` (the TLS handshake or certificate check failed), `http_status` (the receiver answered outside 2xx: see response_status), `address_refused` (the URL now resolves to an address the gateway does not send to); null when it succeeded",
    }),
    succeeded: Type.Boolean({ description: 'true for a 2xx answer' }),
  },
  { additionalProperties: false },
);
export type WebhookAttempt = Static<typeof WebhookAttemptSchema>;

export const EventWithAttemptsSchema = Type.Object(
  { event: EventSchema, attempts: Type.Array(WebhookAttemptSchema) },
  { additionalProperties: false },
);

export const EventListSchema = listOf(EventSchema);

export const ListEventsQuerySchema = listQuery({ type: Type.Optional(EventTypeSchema) });
export type ListEventsQuery = Static<typeof ListEventsQuerySchema>;

export const ListWebhookEndpointsQuerySchema = listQuery({});
export type ListWebhookEndpointsQuery = Static<typeof ListWebhookEndpointsQuerySchema>;

export const RedeliverRequestSchema = Type.Object(
  {
    endpoint_id: Type.Optional(
      Type.String({
        format: 'uuid',
        description: 'only to this endpoint; default: every subscribed, enabled endpoint',
      }),
    ),
  },
  { additionalProperties: false },
);

export const RedeliverResponseSchema = Type.Object(
  {
    event_id: Type.String(),
    deliveries: Type.Array(
      Type.Object(
        { endpoint_id: Type.String({ format: 'uuid' }), delivery_id: Type.String() },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const WebhookEndpointResponseSchema = Type.Object(
  { webhook_endpoint: WebhookEndpointSchema },
  { additionalProperties: false },
);

export const DeletedWebhookEndpointSchema = Type.Object(
  { id: Type.String({ format: 'uuid' }), deleted: Type.Literal(true) },
  { additionalProperties: false },
);
