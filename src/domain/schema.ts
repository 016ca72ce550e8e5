/**
 * Building blocks of the resource and request schemas. Every schema is
 * written once with TypeBox: ajv validates requests with it, the OpenAPI
 * document is assembled from it, and the TypeScript type is derived from it.
 */
import { Type, type TProperties, type TSchema } from '@sinclair/typebox';

export const Nullable = <T extends TSchema>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], description === undefined ? {} : { description });

export const Timestamp = (description: string) =>
  Type.String({ format: 'date-time', description, examples: ['2026-11-21T10:15:30.123Z'] });

/** A string enum that is a plain `enum` in JSON Schema and a literal union in TypeScript. */
export const StringEnum = <T extends string>(
  values: readonly T[],
  options: { description?: string; default?: T } = {},
) => Type.Unsafe<T>({ type: 'string', enum: [...values], ...options });

/**
 * One value of `values`, or several separated by commas (`paid,verified`):
 * a string in JSON Schema, checked by a pattern that admits only those values.
 */
export const CommaSeparatedEnum = <T extends string>(
  values: readonly T[],
  description: string,
  example: readonly T[] = values.slice(0, 2),
) => {
  const one = `(?:${values.join('|')})`;
  return Type.String({ pattern: `^${one}(?:,${one})*$`, maxLength: 500, description, examples: [example.join(',')] });
};

/** The values of a CommaSeparatedEnum, each once, in the order given. */
export const commaSeparated = <T extends string>(text: string): T[] => [...new Set(text.split(','))] as T[];

/** A query filter on an instant (RFC 3339 date-time). */
export const DateTimeFilter = (description: string, example = '2026-11-01T00:00:00Z') =>
  Type.String({ format: 'date-time', description, examples: [example] });

/** No control characters (bidi overrides included) in free text. */
export const FREE_TEXT_PATTERN = '^[^\\x00-\\x1F\\x7F\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069]*$';

export interface AmountBounds {
  min: number;
  max: number;
}

export const FailureSchema = Type.Object(
  {
    code: Type.String({ description: 'machine-readable reason', examples: ['card_declined'] }),
    message: Type.String({ description: 'human-readable reason' }),
  },
  { additionalProperties: false },
);

/** The page of every list: newest first, `next_cursor` leads to the next page (docs/API.md#pagination). */
export const listOf = <T extends TSchema>(item: T) =>
  Type.Object(
    {
      data: Type.Array(item),
      has_more: Type.Boolean(),
      next_cursor: Nullable(Type.String(), 'pass as `cursor` to get the next page'),
    },
    { additionalProperties: false },
  );

const PAGE_QUERY = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'page size' })),
  cursor: Type.Optional(
    Type.String({ maxLength: 200, pattern: '^[A-Za-z0-9_-]+$', description: 'next_cursor of the previous page' }),
  ),
};

/** The query of every list: `limit` and `cursor`, plus the list's own filters. */
export const listQuery = <P extends TProperties>(filters: P) =>
  Type.Object({ ...PAGE_QUERY, ...filters }, { additionalProperties: false });
