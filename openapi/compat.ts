/**
 * The second OpenAPI document, /openapi/compat.json: the compatible protocols' endpoints
 * (docs/COMPAT.md), built from the same TypeBox schemas that validate their requests, and their
 * codes from the same tables that answer them.
 */
import { OpenApiBuilder, type OpenAPIObject, type OperationObject, type ResponseObject } from 'openapi3-ts/oas31';
import type { TSchema } from '@sinclair/typebox';
import {
  ZarinpalAuthoritySchema,
  ZarinpalErrorAnswerSchema,
  ZarinpalInquiryAnswerSchema,
  ZarinpalMerchantSchema,
  ZarinpalRequestAnswerSchema,
  ZarinpalRequestSchema,
  ZarinpalReverseAnswerSchema,
  ZarinpalUnverifiedAnswerSchema,
  ZarinpalVerifyAnswerSchema,
  ZarinpalVerifySchema,
  ZibalErrorAnswerSchema,
  ZibalPaymentAnswerSchema,
  ZibalRequestAnswerSchema,
  ZibalRequestSchema,
  ZibalTrackSchema,
} from '../src/domain/compat-schemas.ts';
import { ERROR_STATUS, type ErrorCode } from '../src/errors.ts';
import type { ProtocolErrors } from '../src/compat/protocol-errors.ts';
import { ZARINPAL_API_PREFIX, ZARINPAL_ERRORS } from '../src/compat/zarinpal-routes.ts';
import { ZIBAL_API_PREFIX, ZIBAL_ERRORS } from '../src/compat/zibal-routes.ts';
import { toSchema } from './build.ts';

interface ProtocolOperation {
  path: string;
  summary: string;
  description: string;
  request: TSchema;
  answer: TSchema;
  /** Codes only the protocol has, beside those its table maps from Dargah's refusals. */
  extraCodes?: { code: number; status: number }[];
}

/** The protocol's error answers by HTTP status, each listing its codes. */
function errorAnswers(
  protocol: ProtocolErrors,
  errorSchema: TSchema,
  extra: { code: number; status: number }[],
): Record<string, ResponseObject> {
  const byStatus = new Map<number, Set<number>>();
  const add = (status: number, code: number) => {
    const shown = protocol.status?.(status) ?? status;
    byStatus.set(shown, (byStatus.get(shown) ?? new Set()).add(code));
  };
  for (const [name, code] of Object.entries(protocol.codes)) add(ERROR_STATUS[name as ErrorCode], code);
  for (const code of Object.values(protocol.fieldCodes ?? {})) add(ERROR_STATUS.validation_failed, code);
  for (const { code, status } of extra) add(status, code);
  add(ERROR_STATUS.validation_failed, protocol.fallback);
  add(ERROR_STATUS.service_unavailable, protocol.fallback);
  add(ERROR_STATUS.internal_error, protocol.fallback);
  return Object.fromEntries(
    [...byStatus]
      .sort((a, b) => a[0] - b[0])
      .map(([status, codes]) => [
        String(status),
        {
          description: `Refused: code ${[...codes].join(', ')}`,
          content: { 'application/json': { schema: toSchema(errorSchema) } },
        },
      ]),
  );
}

function operation(
  op: ProtocolOperation,
  tag: string,
  protocol: ProtocolErrors,
  errorSchema: TSchema,
): OperationObject {
  const { '200': refusedWith200, ...refusals } = errorAnswers(protocol, errorSchema, op.extraCodes ?? []);
  return {
    tags: [tag],
    summary: op.summary,
    description: op.description,
    operationId: `${tag}_${op.path.replace(/[^A-Za-z]+/g, '_').replace(/^_|_$/g, '')}`,
    security: [],
    requestBody: { required: true, content: { 'application/json': { schema: toSchema(op.request) } } },
    responses: {
      // Zibal answers its refusals with 200 too, told apart from success by `result`.
      '200': {
        description:
          refusedWith200 === undefined
            ? 'Done: code 100 (101 for a verify repeated)'
            : `Done: result 100 (201 for a verify repeated); or ${refusedWith200.description}`,
        content: {
          'application/json': {
            schema:
              refusedWith200 === undefined
                ? toSchema(op.answer)
                : { oneOf: [toSchema(op.answer), toSchema(errorSchema)] },
          },
        },
      },
      ...refusals,
    },
  };
}

const ZARINPAL_OPERATIONS: ProtocolOperation[] = [
  {
    path: '/request.json',
    summary: 'Create a payment',
    description:
      'A Dargah payment, created as the API creates one; `IRT` amounts are toman (×10 rials). Send the customer to `/pg/StartPay/{authority}`.',
    request: ZarinpalRequestSchema,
    answer: ZarinpalRequestAnswerSchema,
  },
  {
    path: '/verify.json',
    summary: 'Verify a paid payment',
    description:
      'Code 100 once: of several verifies, even at the same instant, exactly one answers 100 and every other 101 (never a second capture).',
    request: ZarinpalVerifySchema,
    answer: ZarinpalVerifyAnswerSchema,
  },
  {
    path: '/unVerified.json',
    summary: 'Paid payments not yet verified',
    description: 'Up to 100, newest first.',
    request: ZarinpalMerchantSchema,
    answer: ZarinpalUnverifiedAnswerSchema,
  },
  {
    path: '/inquiry.json',
    summary: 'Where a payment stands',
    description: '`VERIFIED`, `PAID`, `IN_BANK`, `FAILED` or `REVERSED`.',
    request: ZarinpalAuthoritySchema,
    answer: ZarinpalInquiryAnswerSchema,
  },
  {
    path: '/reverse.json',
    summary: "Return the customer's money",
    description:
      'A paid, unverified payment is reversed; a verified one is refunded in full within 30 minutes of its verify (-63 after).',
    request: ZarinpalAuthoritySchema,
    answer: ZarinpalReverseAnswerSchema,
    extraCodes: [
      { code: -61, status: 409 },
      { code: -63, status: 409 },
    ],
  },
];

const ZIBAL_OPERATIONS: ProtocolOperation[] = [
  {
    path: '/request',
    summary: 'Create a payment',
    description:
      'A Dargah payment, created as the API creates one (rials). Its trackId is sixteen random digits (not the tracking code the customer sees). Send the customer to `/start/{trackId}`.',
    request: ZibalRequestSchema,
    answer: ZibalRequestAnswerSchema,
    extraCodes: [{ code: 113, status: 200 }],
  },
  {
    path: '/verify',
    summary: 'Verify a paid payment',
    description:
      "Verifies the payment's own amount: result 100 once (of several verifies, even at the same instant, exactly one), 201 for every other (never a second capture), 202 when it is not paid.",
    request: ZibalTrackSchema,
    answer: ZibalPaymentAnswerSchema,
  },
  {
    path: '/inquiry',
    summary: 'Where a payment stands',
    description: "The payment with Zibal's status code.",
    request: ZibalTrackSchema,
    answer: ZibalPaymentAnswerSchema,
  },
];

/** A protocol's address for the customer, which leads to the payment's hosted page. */
function startPath(tag: string, parameter: string, answeredBy: string) {
  return {
    get: {
      tags: [tag],
      summary: "The customer's way to the payment page",
      operationId: `${tag}_start`,
      security: [],
      parameters: [
        {
          name: parameter,
          in: 'path' as const,
          required: true,
          schema: { type: 'string' as const },
          description: `the ${parameter} ${answeredBy} answered`,
        },
      ],
      responses: {
        '302': { description: "To the payment's hosted page" },
        '404': { description: `No payment has this ${parameter}` },
        '429': {
          description:
            'Too many lookups from this client address (PAGE_ACTIONS_PER_CLIENT_PER_MINUTE); Retry-After says when to retry',
        },
      },
    },
  };
}

export function buildCompatDocument(serverUrl = '/'): OpenAPIObject {
  const builder = OpenApiBuilder.create({
    openapi: '3.1.0',
    info: {
      title: "Dargah: ZarinPal's and Zibal's merchant protocols",
      version: '1.0.0',
      description:
        "The merchant protocols of ZarinPal (v4) and Zibal (v1) on Dargah's payments, so that code and plugins written for them work by changing the host alone (docs/COMPAT.md). " +
        'The credential is a field of each body: your `merchant_id` (ZarinPal) or `merchant` (Zibal) from the dashboard or the CLI.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: serverUrl }],
    paths: {},
    components: {},
  });
  builder.addTag({ name: 'zarinpal', description: "ZarinPal's v4 payment gateway protocol" });
  for (const op of ZARINPAL_OPERATIONS)
    builder.addPath(`${ZARINPAL_API_PREFIX}${op.path}`, {
      post: operation(op, 'zarinpal', ZARINPAL_ERRORS, ZarinpalErrorAnswerSchema),
    });
  builder.addTag({ name: 'zibal', description: "Zibal's v1 payment gateway protocol" });
  for (const op of ZIBAL_OPERATIONS)
    builder.addPath(`${ZIBAL_API_PREFIX}${op.path}`, {
      post: operation(op, 'zibal', ZIBAL_ERRORS, ZibalErrorAnswerSchema),
    });
  builder.addPath('/start/{trackId}', startPath('zibal', 'trackId', '/v1/request'));
  builder.addPath('/pg/StartPay/{authority}', startPath('zarinpal', 'authority', 'request.json'));
  builder.addPath('/openapi/compat.json', {
    get: {
      tags: ['zarinpal'],
      summary: 'This OpenAPI document',
      operationId: 'getCompatOpenApiDocument',
      security: [],
      responses: {
        '200': {
          description: 'The OpenAPI 3.1 document of the compatible protocols.',
          content: { 'application/json': { schema: { type: 'object' } } },
        },
      },
    },
  });
  return builder.getSpec();
}

export const COMPAT_OPENAPI_FILE = new URL('./compat.json', import.meta.url);

/** The committed document, as `npm run openapi` writes it. */
export const compatDocumentText = (): string => `${JSON.stringify(buildCompatDocument(), null, 2)}\n`;
