/**
 * Assembles the OpenAPI 3.1 document from the operation list and the same
 * TypeBox schemas that validate requests (openapi3-ts's builder). Named
 * schemas become components referenced by $ref; everything else is inlined.
 */
import {
  OpenApiBuilder,
  type CallbackObject,
  type OpenAPIObject,
  type OperationObject,
  type ParameterObject,
  type PathItemObject,
  type ResponseObject,
  type SchemaObject,
} from 'openapi3-ts/oas31';
import type { TSchema } from '@sinclair/typebox';
import { ErrorSchema } from '../src/api/schemas.ts';
import { EVENT_TYPES, type EventType } from '../src/domain/events.ts';
import { RETURN_STATUSES } from '../src/domain/payment.ts';
import { PaymentSchema } from '../src/domain/payment-schemas.ts';
import { PaymentLinkSchema } from '../src/domain/payment-link.ts';
import { MandateSchema } from '../src/domain/mandate-schemas.ts';
import { PlanSchema, SubscriptionSchema } from '../src/domain/subscription-schemas.ts';
import { RefundSchema } from '../src/domain/refund-schemas.ts';
import { BeneficiaryPayoutSchema, SettlementSchema } from '../src/domain/settlement-schemas.ts';
import type { AmountBounds } from '../src/domain/schema.ts';
import { EventSchema, WebhookAttemptSchema, WebhookEndpointSchema } from '../src/domain/webhook-schemas.ts';
import { ERROR_STATUS, type ErrorCode } from '../src/errors.ts';
import { operations, type Operation } from './operations.ts';

/** Schemas shown once under components.schemas and referenced elsewhere, by identity. */
const COMPONENTS: [string, TSchema][] = [
  ['Payment', PaymentSchema],
  ['PaymentLink', PaymentLinkSchema],
  ['Mandate', MandateSchema],
  ['Plan', PlanSchema],
  ['Subscription', SubscriptionSchema],
  ['Refund', RefundSchema],
  ['WebhookEndpoint', WebhookEndpointSchema],
  ['Settlement', SettlementSchema],
  ['BeneficiaryPayout', BeneficiaryPayoutSchema],
  ['Event', EventSchema],
  ['WebhookAttempt', WebhookAttemptSchema],
  ['Error', ErrorSchema],
];

const ERROR_EXAMPLE_MESSAGES: Partial<Record<ErrorCode, string>> = {
  validation_failed: 'The request body is invalid: amount must be >= 10000',
  amount_mismatch: 'The amount does not match the payment amount.',
};

/** A plain JSON Schema of a TypeBox schema: symbols dropped, named parts replaced by $ref. */
export function toSchema(schema: unknown, top?: TSchema): SchemaObject {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const component = COMPONENTS.find(([, s]) => s === node);
    if (component !== undefined && node !== top) return { $ref: `#/components/schemas/${component[0]}` };
    return Object.fromEntries(
      Object.entries(node)
        .filter(([k]) => k !== '$id')
        .map(([k, v]) => [k, walk(v)]),
    );
  };
  return walk(schema) as SchemaObject;
}

/** Every authenticated answer tells the key's rate-limit budget (IETF RateLimit header fields draft). */
const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': { $ref: '#/components/headers/RateLimit-Limit' },
  'RateLimit-Remaining': { $ref: '#/components/headers/RateLimit-Remaining' },
  'RateLimit-Reset': { $ref: '#/components/headers/RateLimit-Reset' },
};

function errorResponses(codes: ErrorCode[]): Record<string, ResponseObject> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  const out: Record<string, ResponseObject> = {};
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    out[String(status)] = {
      description: `Error: ${list.map((c) => `\`${c}\``).join(', ')}`,
      headers: {
        'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
        ...(status === 503 || status === 429 ? { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } : {}),
      },
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/Error' },
          examples: Object.fromEntries(
            list.map((code) => [
              code,
              {
                value: {
                  code,
                  message: ERROR_EXAMPLE_MESSAGES[code] ?? `An example ${code.replace(/_/g, ' ')} message.`,
                  request_id: 'req_4f1c2a9e0b7d4c3e8a6f5b2d1c0e9f8a',
                },
              },
            ]),
          ),
        },
      },
    };
  }
  return out;
}

function queryParameters(query: TSchema | undefined): ParameterObject[] {
  if (query === undefined) return [];
  const properties = (query as unknown as { properties: Record<string, TSchema> }).properties;
  const required = new Set((query as { required?: string[] }).required ?? []);
  return Object.entries(properties).map(([name, schema]) => ({
    name,
    in: 'query',
    required: required.has(name),
    schema: toSchema(schema),
    ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
  }));
}

function withRateLimitHeaders(
  op: Operation,
  responses: Record<string, ResponseObject>,
): Record<string, ResponseObject> {
  if (!op.auth) return responses;
  return Object.fromEntries(
    Object.entries(responses).map(([status, r]) => [
      status,
      status === '401' ? r : { ...r, headers: { ...r.headers, ...RATE_LIMIT_HEADERS } },
    ]),
  );
}

/** `/api/v1/test_helpers/payments/{id}/advance` → `payment`: the collection just before `{id}`, singular. */
function resourceOf(path: string): string {
  const segments = path.split('/');
  return segments[segments.indexOf('{id}') - 1]!.replace(/s$/, '').replace(/_/g, ' ');
}

/**
 * The customer's return to the merchant (docs/PAYMENTS.md): the browser GETs
 * the payment's `callback_url` with four parameters added, a hint only.
 */
const RETURN_ADDRESS_CALLBACK: CallbackObject = {
  '{$request.body#/callback_url}': {
    get: {
      summary: "The customer's return to your callback_url",
      security: [],
      description:
        "After the bank and our result page, the customer's browser comes back to `callback_url` with these parameters added (its own query is kept). They are a hint only: verify the payment from your server before you deliver.",
      parameters: [
        {
          name: 'payment_id',
          in: 'query',
          required: true,
          schema: { type: 'string', format: 'uuid' },
          description: 'the payment',
        },
        {
          name: 'status',
          in: 'query',
          required: true,
          schema: { type: 'string', enum: [...RETURN_STATUSES] },
          description:
            '`success` (paid or verified), `pending` (the bank is still confirming) or `failed` (anything else)',
        },
        {
          name: 'merchant_reference',
          in: 'query',
          required: true,
          schema: { type: 'string' },
          description: 'your order reference',
        },
        {
          name: 'tracking_code',
          in: 'query',
          required: true,
          schema: { type: 'string', pattern: '^[0-9]{12}$' },
          description: 'the tracking code shown to the customer',
        },
      ],
      responses: { '200': { description: 'Your page for the customer.' } },
    },
  },
};

const SIGNATURE_HEADERS: ParameterObject[] = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    schema: { type: 'string' },
    description: 'the event id; the same on every attempt: use it to ignore duplicates',
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    schema: { type: 'integer' },
    description: 'Unix seconds when this attempt was signed; refuse one older than 5 minutes',
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    schema: { type: 'string' },
    description:
      '`v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>`, space-separated when two secrets sign during a rotation; compare in constant time',
  },
];

/** One `webhooks` entry per event type: what your endpoint receives (docs/WEBHOOKS.md). */
function webhookItem(type: EventType): PathItemObject {
  // The object in `data`: the part of the type before the dot, and its component schema.
  const object = type.slice(0, type.indexOf('.'));
  const component = {
    payment: 'Payment',
    refund: 'Refund',
    webhook_endpoint: 'WebhookEndpoint',
    settlement: 'Settlement',
    beneficiary_payout: 'BeneficiaryPayout',
    mandate: 'Mandate',
    subscription: 'Subscription',
  }[object];
  return {
    post: {
      operationId: `${type.replace(/[._](\w)/g, (_, c: string) => c.toUpperCase())}Webhook`,
      summary: type,
      // No key: the receiver checks the webhook-signature header (Standard Webhooks) instead.
      security: [],
      description: `Sent to every enabled endpoint subscribed to \`${type}\`; \`data.${object}\` is the ${object.replace('_', ' ')} after the change. Answer 2xx quickly; anything else is retried with the same \`webhook-id\`; 410 disables the endpoint.`,
      parameters: SIGNATURE_HEADERS,
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              allOf: [
                { $ref: '#/components/schemas/Event' },
                {
                  type: 'object',
                  properties: {
                    type: { const: type },
                    data: {
                      type: 'object',
                      required: [object],
                      properties: { [object]: { $ref: `#/components/schemas/${component}` } },
                    },
                  },
                },
              ],
            },
          },
        },
      },
      responses: { '200': { description: 'Received; any 2xx counts.' } },
    },
  };
}

function operationObject(op: Operation): OperationObject {
  const pathParams: ParameterObject[] = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1]!,
    in: 'path',
    required: true,
    schema: { type: 'string', maxLength: 64 },
    description: `identifier of the ${m[1] === 'id' ? resourceOf(op.path) : m[1]!}`,
  }));
  const responses: Record<string, ResponseObject> = {};
  for (const [status, r] of Object.entries(op.responses)) {
    responses[status] = {
      description: r.description,
      headers: {
        'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
        ...(op.idempotent === true
          ? { 'Idempotent-Replayed': { $ref: '#/components/headers/Idempotent-Replayed' } }
          : {}),
        ...Object.fromEntries(
          Object.entries(r.headers ?? {}).map(([name, h]) => [
            name,
            {
              description: h.description,
              schema: { type: 'string' },
              ...(h.example === undefined ? {} : { example: h.example }),
            },
          ]),
        ),
      },
      ...(r.schema === undefined && r.contentType === undefined
        ? {}
        : {
            content: {
              [r.contentType ?? 'application/json']: {
                schema: r.schema === undefined ? { type: 'object' } : toSchema(r.schema),
                ...(r.example === undefined ? {} : { example: r.example }),
              },
            },
          }),
    };
  }
  return {
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description === undefined ? {} : { description: op.description }),
    tags: [op.tag],
    security: op.auth ? [{ bearerAuth: [] }] : [],
    parameters: [
      ...pathParams,
      ...queryParameters(op.query),
      ...(op.idempotent === true ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
    ],
    ...(op.body === undefined
      ? {}
      : {
          requestBody: {
            required: op.bodyOptional !== true,
            content: {
              'application/json': {
                schema: toSchema(op.body),
                ...(op.example === undefined ? {} : { example: op.example }),
              },
            },
          },
        }),
    responses: withRateLimitHeaders(op, { ...responses, ...errorResponses(op.errors) }),
    ...(op.operationId === 'createPayment' ? { callbacks: { customerReturn: RETURN_ADDRESS_CALLBACK } } : {}),
  };
}

const TAG_DESCRIPTIONS: Record<string, string> = {
  Payments: 'Create payments, read them, and verify them before you deliver.',
  Refunds: 'Return money of a verified payment, in part or in full.',
  'Payment links':
    'Pages where customers pay you without a server of yours; the gateway verifies their payments itself.',
  Mandates: "Direct debit (Payman): the customer's signed permission to debit within limits.",
  Subscriptions: 'Plans, and subscriptions that charge a plan on a mandate every period.',
  Webhooks: 'Endpoints that receive signed events, and the events themselves.',
  Reports: 'Files for reconciliation with your accountant and your bank.',
  Settlements: 'Your balance, and the daily settlements that pay it to your IBAN.',
  Service: 'Health probes and this document.',
  'Test helpers': 'Test keys only: drive a test payment or subscription from your CI without a browser or a wait.',
};

/** `serverUrl` defaults to `/`: the API is served from the same origin as the document. */
export function buildOpenApiDocument(bounds: AmountBounds, serverUrl = '/'): OpenAPIObject {
  const builder = OpenApiBuilder.create({
    openapi: '3.1.0',
    info: {
      title: 'Dargah payment gateway API',
      version: '1.0.0',
      description:
        'Create payments in Iranian rials, send the customer to the hosted payment page, and verify before you deliver. ' +
        'A payment not verified by `verify_deadline_at` is returned to the customer automatically. ' +
        'Every error is `{ code, message, request_id }`; every response carries `X-Request-Id`.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: serverUrl }],
    paths: {},
    components: {},
  });
  builder.addSecurityScheme('bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description:
      'Your secret key: `sk_test_…` (test mode) or `sk_live_…` (live mode). Keep it on your server. A live key creates refunds only once the merchant granted it the `refunds` scope (403 `insufficient_scope` otherwise); a test key holds every scope.',
  });
  for (const [name, schema] of COMPONENTS) builder.addSchema(name, toSchema(schema, schema));
  builder.addParameter('IdempotencyKey', {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'One key per logical operation (1–255 printable ASCII characters), kept 24 h per merchant and mode. The same key and body replay the first response; another body is 422 `idempotency_key_reused`; while the first request runs it is 409 `idempotency_key_in_use`.',
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  });
  builder.addHeader('X-Request-Id', {
    description: 'Identifies this request and response; quote it to support.',
    schema: { type: 'string' },
  });
  builder.addHeader('Retry-After', { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } });
  builder.addHeader('RateLimit-Limit', {
    description:
      "Requests the key may make in the current window (the tighter of the key's and, on test-mode creates, the merchant's per-minute quota).",
    schema: { type: 'integer' },
  });
  builder.addHeader('RateLimit-Remaining', {
    description: 'Requests left in the current window.',
    schema: { type: 'integer' },
  });
  builder.addHeader('RateLimit-Reset', {
    description: 'Seconds until the window resets.',
    schema: { type: 'integer' },
  });
  builder.addHeader('Idempotent-Replayed', {
    description: '`true` when this response replays an earlier one for the same Idempotency-Key.',
    schema: { type: 'string' },
  });
  const tags = new Set<string>();
  const paths: Record<string, Record<string, OperationObject>> = {};
  for (const op of operations(bounds)) {
    tags.add(op.tag);
    (paths[op.path] ??= {})[op.method] = operationObject(op);
  }
  for (const [path, item] of Object.entries(paths)) builder.addPath(path, item);
  for (const tag of tags) builder.addTag({ name: tag, description: TAG_DESCRIPTIONS[tag] ?? tag });
  for (const type of EVENT_TYPES) builder.addWebhook(type, webhookItem(type));
  return builder.getSpec();
}
