/**
 * The API tests check every response against the OpenAPI document: the
 * operation must exist, the status must be documented for it, the body must
 * match that response's schema, and an error's code must be one the
 * operation documents for that status.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { OpenAPIObject, OperationObject, ResponseObject, SchemaObject } from 'openapi3-ts/oas31';
import { buildOpenApiDocument } from '../../openapi/build.ts';
import { testConfig } from './harness.ts';

const config = testConfig();
export const document: OpenAPIObject = buildOpenApiDocument({ min: config.AMOUNT_MIN, max: config.AMOUNT_MAX });
const ajv = addFormats.default(new Ajv2020({ strict: false, allErrors: true }));
const compiled = new Map<string, ValidateFunction>();

const templates = Object.keys(document.paths ?? {}).map((template) => ({
  template,
  pattern: new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`),
}));

/** The documented operation for a concrete request, if any. */
export function operationFor(
  method: string,
  path: string,
): { template: string; operation: OperationObject } | undefined {
  const bare = path.split('?')[0]!;
  const m = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
  for (const { template, pattern } of templates) {
    if (!pattern.test(bare)) continue;
    const operation = (document.paths![template] as Record<string, OperationObject | undefined>)[m];
    if (operation !== undefined) return { template, operation };
  }
  return undefined;
}

/** Whether this request falls under the contract (the JSON API and the probes; not the hosted pages). */
export const isContractPath = (path: string) =>
  path.startsWith('/api/v1/') || path === '/healthz' || path === '/readyz';

export function assertMatchesContract(method: string, path: string, status: number, body: unknown): void {
  const found = operationFor(method, path);
  // An unknown path or method is answered by the error model, which every route documents via Error.
  if (found === undefined) {
    if (status !== 404 && status !== 405)
      throw new Error(`contract: ${method} ${path} answered ${status} but is not in the OpenAPI document`);
    return;
  }
  const { template, operation } = found;
  const response = operation.responses?.[String(status)] as ResponseObject | undefined;
  if (response === undefined) {
    // 404/405 for a wrong method or a foreign id on any documented path, and 413/415 before routing, are the error model.
    if (status === 405) return;
    throw new Error(
      `contract: ${method.toUpperCase()} ${template} answered ${status}, which it does not document: ${JSON.stringify(body)}`,
    );
  }
  const media = response.content?.['application/json'];
  if (media?.schema === undefined) return;
  const key = `${method} ${template} ${status}`;
  let validate = compiled.get(key);
  if (validate === undefined) {
    validate = ajv.compile({ ...(media.schema as SchemaObject), components: document.components });
    compiled.set(key, validate);
  }
  if (!validate(body)) {
    throw new Error(
      `contract: ${method.toUpperCase()} ${template} ${status} body does not match the document: ${ajv.errorsText(validate.errors)}; body: ${JSON.stringify(body).slice(0, 500)}`,
    );
  }
  if (status >= 400 && media.examples !== undefined) {
    const code = (body as { code?: string }).code ?? '';
    if (!(code in media.examples)) {
      throw new Error(
        `contract: ${method.toUpperCase()} ${template} answered ${status} ${code}, a code it does not document for ${status} (documented: ${Object.keys(media.examples).join(', ')})`,
      );
    }
  }
}
