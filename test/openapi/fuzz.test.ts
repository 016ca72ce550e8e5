/**
 * Contract fuzzing from the document: for every operation, fast-check sends
 * malformed inputs built from its schemas (required fields dropped, wrong
 * types, unknown fields, hostile strings, arbitrary JSON, junk ids and query
 * values). No answer may be a 5xx, every error must have the documented
 * shape and code (checked by the contract hook in test/support/http.ts), and
 * a refused request must write nothing.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { OperationObject, ParameterObject, SchemaObject } from 'openapi3-ts/oas31';
import { getHarness, newMerchant } from '../support/harness.ts';
import { request } from '../support/http.ts';
import { document } from '../support/contract.ts';
import { paidPayment } from '../support/payments.ts';

const hostileString = fc.oneof(
  fc.constantFrom(
    "' OR 1=1; --",
    '"; DROP TABLE payments; --',
    '<script>alert(1)</script>',
    '"><img src=x onerror=alert(1)>',
    '\u202Egnp.exe',
    '\u0000',
    'ﷺ'.repeat(300),
    '../../etc/passwd',
    '%00%0d%0a',
    'x'.repeat(2_000),
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

/** Bodies may also be larger than the body limit (413); URLs stay under Node's 16 KB header limit. */
const hostileBodyString = fc.oneof(hostileString, fc.constant('x'.repeat(70_000)));

const wrongType = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.double(),
  fc.integer({ min: -1e15, max: 0 }),
  hostileBodyString,
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.object({ maxDepth: 1 }),
);

interface Target {
  method: string;
  template: string;
  operation: OperationObject;
}

function targets(): Target[] {
  const out: Target[] = [];
  for (const [template, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item as Record<string, OperationObject>)) {
      if ((operation.security ?? []).length === 0) continue; // the probes and the document take no input
      out.push({ method, template, operation });
    }
  }
  return out;
}

const schemaOf = (op: OperationObject) =>
  (
    op.requestBody as
      { content?: Record<string, { schema?: SchemaObject; example?: Record<string, unknown> }> } | undefined
  )?.content?.['application/json'];

/** A body that cannot be valid: a required field missing or of the wrong type, an unknown field, or arbitrary JSON. */
function malformedBody(op: OperationObject): fc.Arbitrary<unknown> {
  const media = schemaOf(op);
  const schema = media?.schema;
  const example = media?.example ?? {};
  const properties = Object.keys((schema?.properties as object | undefined) ?? {});
  const required = schema?.required ?? [];
  const mutations: fc.Arbitrary<unknown>[] = [
    fc
      .record({
        unknown: fc.string({ minLength: 1, maxLength: 10 }).filter((k) => !properties.includes(k) && k !== '__proto__'),
        value: fc.jsonValue(),
      })
      .map(({ unknown, value }) => ({
        ...example,
        [unknown]: value,
      })),
    fc.oneof(fc.constant(null), fc.integer(), hostileBodyString, fc.array(fc.jsonValue(), { maxLength: 3 })),
  ];
  if (properties.length > 0) {
    mutations.push(
      fc
        .record({ field: fc.constantFrom(...properties), value: wrongType })
        .map(({ field, value }) => ({ ...example, [field]: value })),
    );
  }
  if (required.length > 0) {
    mutations.push(
      fc
        .constantFrom(...required)
        .map((field) => Object.fromEntries(Object.entries(example).filter(([k]) => k !== field))),
    );
  }
  return fc.oneof(...mutations);
}

function malformedQuery(op: OperationObject): fc.Arbitrary<string> {
  const names = ((op.parameters ?? []) as ParameterObject[]).filter((p) => p.in === 'query').map((p) => p.name);
  if (names.length === 0) return fc.constant('');
  return fc
    .record({
      name: fc.constantFrom(...names, 'unknown_param'),
      value: fc.oneof(hostileString, fc.constantFrom('-1', '0', '1e9', 'null', '[]', 'NaN')),
    })
    .map(({ name, value }) => `?${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
}

describe('contract fuzzing of every operation', function () {
  this.timeout(300_000);

  for (const target of targets()) {
    it(`${target.method.toUpperCase()} ${target.template}: no 5xx, documented errors only, nothing written when refused`, async () => {
      const h = await getHarness();
      const m = await newMerchant();
      const payment = await paidPayment(h.baseUrl, m.key);
      const count = async () => {
        const tables = ['payments', 'idempotency_keys', 'webhook_endpoints', 'events'] as const;
        const counts = await Promise.all(
          tables.map((t) =>
            h.db
              .selectFrom(t)
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('merchant_id', '=', m.merchantId)
              .executeTakeFirstOrThrow(),
          ),
        );
        const refunds = await h.db
          .selectFrom('refunds')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('merchant_id', '=', m.merchantId)
          .executeTakeFirstOrThrow();
        return [...counts, refunds].map((c) => Number(c.n)).join(',');
      };
      const id = fc.oneof(
        fc.constant(payment.id),
        hostileString.filter((s) => s.length > 0 && s.length < 200),
        fc.uuid(),
      );
      const hasBody = target.operation.requestBody !== undefined;
      await fc.assert(
        fc.asyncProperty(
          id,
          hasBody ? malformedBody(target.operation) : fc.constant(undefined),
          malformedQuery(target.operation),
          async (pathId, body, query) => {
            const path =
              target.template.replace(/\{\w+\}/g, encodeURIComponent(pathId)) + (target.method === 'get' ? query : '');
            const before = await count();
            // The contract hook inside request() checks the shape and code of every answer.
            const idempotencyKey = target.operation.parameters?.some(
              (p) => '$ref' in p && p.$ref.endsWith('/IdempotencyKey'),
            )
              ? { idempotencyKey: `fuzz-${Math.random()}` }
              : {};
            const res = await request(h.baseUrl, target.method.toUpperCase(), path, {
              key: m.key,
              ...(hasBody ? { body } : {}),
              ...idempotencyKey,
            });
            assert.ok(res.status < 500, `${target.method} ${path} → ${res.status} ${res.text.slice(0, 200)}`);
            if (res.status >= 400)
              assert.equal(await count(), before, `a refused ${target.method} ${path} wrote something`);
          },
        ),
        { numRuns: 25 },
      );
    });
  }
});
