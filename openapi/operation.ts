/**
 * The shape of one API operation in the catalogue (operations.ts and its parts), and the errors
 * most operations share.
 */
import type { TSchema } from '@sinclair/typebox';
import type { ErrorCode } from '../src/errors.ts';

export interface Operation {
  method: 'get' | 'post' | 'delete';
  /** OpenAPI path template, e.g. /api/v1/payments/{id}. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** Needs `Authorization: Bearer <key>`. */
  auth: boolean;
  /** Accepts an Idempotency-Key header. */
  idempotent?: boolean;
  query?: TSchema;
  body?: TSchema;
  /**
   * Success responses by status; `schema` undefined for a body-less response.
   * The body is JSON unless `contentType` says otherwise; `headers` are
   * response headers beyond the ones every response has.
   */
  responses: Record<
    number,
    {
      description: string;
      schema?: TSchema;
      contentType?: string;
      example?: unknown;
      headers?: Record<string, { description: string; example?: string }>;
    }
  >;
  /** Every documented error this operation can answer with. */
  errors: ErrorCode[];
  /** Example request body. */
  example?: unknown;
  /** The body may be left out entirely. */
  bodyOptional?: boolean;
}

/** Errors every authenticated JSON operation can answer with. */
export const COMMON_ERRORS: ErrorCode[] = [
  'missing_api_key',
  'invalid_api_key',
  'live_mode_not_enabled',
  'rate_limited',
  'internal_error',
  'service_unavailable',
];
export const BODY_ERRORS: ErrorCode[] = [
  'invalid_json',
  'payload_too_large',
  'unsupported_media_type',
  'validation_failed',
];
