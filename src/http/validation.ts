import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { Static, TSchema } from '@sinclair/typebox';
import { DomainError, type ErrorDetail } from '../errors.ts';

// Bodies are validated as sent; query strings arrive as text, so their
// numbers and booleans are coerced before the same kind of check.
const bodyAjv = addFormats.default(new Ajv({ allErrors: true, strict: true, useDefaults: false }));
const queryAjv = addFormats.default(new Ajv({ allErrors: true, strict: true, coerceTypes: true, useDefaults: true }));

function detail(error: ErrorObject): ErrorDetail {
  const base = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (error.keyword === 'required') {
    const field = String((error.params as { missingProperty: string }).missingProperty);
    return { path: base === '' ? field : `${base}.${field}`, message: 'is required' };
  }
  if (error.keyword === 'additionalProperties') {
    const field = String((error.params as { additionalProperty: string }).additionalProperty);
    return { path: base === '' ? field : `${base}.${field}`, message: 'is not a known field' };
  }
  return { path: base === '' ? '(body)' : base, message: error.message ?? 'is invalid' };
}

export function validationError(errors: ErrorObject[] | null | undefined, what: string): DomainError {
  const details = (errors ?? []).map(detail);
  const unique = details.filter((d, i) => details.findIndex((o) => o.path === d.path && o.message === d.message) === i);
  const summary = unique.map((d) => `${d.path} ${d.message}`).join('; ');
  return new DomainError('validation_failed', `The ${what} is invalid: ${summary}`, unique);
}

export interface Validator<T> {
  (value: unknown): T;
  schema: TSchema;
}

function validatorOf<S extends TSchema>(ajv: Ajv, schema: S, what: string): Validator<Static<S>> {
  const check: ValidateFunction = ajv.compile(schema);
  const validate = (value: unknown): Static<S> => {
    if (value === undefined) {
      throw new DomainError('validation_failed', `A JSON ${what} is required.`, [
        { path: '(body)', message: 'is required' },
      ]);
    }
    if (!check(value)) throw validationError(check.errors, what);
    return value;
  };
  return Object.assign(validate, { schema });
}

/** A request-body validator; the schema is the one the OpenAPI document shows. */
export const bodyValidator = <S extends TSchema>(schema: S) => validatorOf(bodyAjv, schema, 'request body');

/** A query-string validator (values coerced from text, defaults filled in). */
export function queryValidator<S extends TSchema>(schema: S): Validator<Static<S>> {
  const validate = validatorOf(queryAjv, schema, 'query string');
  return Object.assign((value: unknown) => validate({ ...(value as object) }), { schema });
}
