/**
 * Contract fuzzing of the compatible protocols from their document (/openapi/compat.json), as
 * test/openapi/fuzz.test.ts does for the API: for every operation, bodies built from a valid one
 * (the merchant's real credential, a real paid payment) with a field dropped, of the wrong type,
 * hostile, or unknown, and arbitrary JSON. No answer may be a 5xx, every answer must match the
 * schema the document gives its status, and a refused request must write nothing.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Ajv } from 'ajv';
import type { OperationObject, SchemaObject } from 'openapi3-ts/oas31';
import { buildCompatDocument } from '../../openapi/compat.ts';
import { zarinpalAuthority } from '../../src/domain/compat-protocols.ts';
import { getHarness } from '../support/harness.ts';
import { request } from '../support/http.ts';
import { paidPayment } from '../support/payments.ts';
import { compatMerchant, paidZibalPayment } from '../support/compat.ts';

const hostile = fc.oneof(
  fc.constantFrom(
    "' OR 1=1; --",
    '<script>alert(1)</script>',
    '\u202Egnp.exe',
    '\u0000',
    'ﷺ'.repeat(300),
    '../../etc/passwd',
    'x'.repeat(70_000),
    'S'.repeat(36),
    '999999999999',
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
);
const wrongType = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.double(),
  fc.integer({ min: -1e15, max: 1e15 }),
  hostile,
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.object({ maxDepth: 1 }),
);

const document = buildCompatDocument();
const ajv = new Ajv({ strict: false, allErrors: true });

interface Target {
  path: string;
  operation: OperationObject;
}
const targets: Target[] = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
  item.post === undefined ? [] : [{ path, operation: item.post }],
);

function malformed(valid: Record<string, unknown>, schema: SchemaObject): fc.Arbitrary<unknown> {
  const properties = Object.keys(schema.properties ?? {});
  return fc.oneof(
    fc
      .constantFrom(...properties)
      .map((field) => Object.fromEntries(Object.entries(valid).filter(([k]) => k !== field))),
    fc
      .record({ field: fc.constantFrom(...properties), value: wrongType })
      .map(({ field, value }) => ({ ...valid, [field]: value })),
    fc
      .record({
        unknown: fc.string({ minLength: 1, maxLength: 10 }).filter((k) => !properties.includes(k) && k !== '__proto__'),
        value: fc.jsonValue(),
      })
      .map(({ unknown, value }) => ({ ...valid, [unknown]: value })),
    fc.oneof(fc.constant(null), fc.integer(), hostile, fc.array(fc.jsonValue(), { maxLength: 3 })),
  );
}

describe("contract fuzzing of the compatible protocols' operations", function () {
  this.timeout(300_000);

  for (const target of targets) {
    it(`POST ${target.path}: no 5xx, documented answers only, nothing written when refused`, async () => {
      const h = await getHarness();
      const m = await compatMerchant();
      const zarinpal = target.path.startsWith('/pg/');
      // A Zibal trackId names only a payment Zibal's /v1/request made.
      const zibal = zarinpal ? undefined : await paidZibalPayment(h.baseUrl, m);
      const paid = zibal?.payment ?? (await paidPayment(h.baseUrl, m.key));
      const valid: Record<string, unknown> = zarinpal
        ? {
            merchant_id: m.zarinpal_merchant_id,
            amount: 20_000,
            description: 'fuzz',
            callback_url: 'http://localhost:8000/back',
            authority: zarinpalAuthority(paid),
          }
        : {
            merchant: m.zibal_merchant,
            amount: 20_000,
            callbackUrl: 'http://localhost:8000/back',
            trackId: zibal!.trackId,
          };
      const schema = (target.operation.requestBody as { content: Record<string, { schema: SchemaObject }> }).content[
        'application/json'
      ]!.schema;
      const count = async () => {
        const [payments, refunds] = await Promise.all(
          (['payments', 'refunds'] as const).map((t) =>
            h.db
              .selectFrom(t)
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('merchant_id', '=', m.merchantId)
              .executeTakeFirstOrThrow(),
          ),
        );
        const verified = await h.db
          .selectFrom('payments')
          .select('status')
          .where('id', '=', paid.id)
          .executeTakeFirstOrThrow();
        return `${payments!.n},${refunds!.n},${verified.status}`;
      };
      await fc.assert(
        fc.asyncProperty(malformed(valid, schema), async (body) => {
          const before = await count();
          const res = await request<Record<string, unknown>>(h.baseUrl, 'POST', target.path, { body });
          assert.ok(res.status < 500, `${target.path} → ${res.status} ${res.text.slice(0, 200)}`);
          const documented = (
            target.operation.responses as Record<string, { content?: Record<string, { schema: SchemaObject }> }>
          )[String(res.status)];
          assert.ok(documented?.content !== undefined, `${target.path}: status ${res.status} is not documented`);
          const check = ajv.compile(documented.content['application/json']!.schema);
          assert.ok(
            check(res.body),
            `${target.path} → ${res.status} ${res.text.slice(0, 300)}: ${ajv.errorsText(check.errors)}`,
          );
          const refused = zarinpal ? res.status >= 400 : res.body.result !== 100;
          if (refused)
            assert.equal(await count(), before, `a refused ${target.path} wrote something: ${res.text.slice(0, 200)}`);
        }),
        { numRuns: 25 },
      );
    });
  }

  it('the customer start addresses: 302 or 404 for anything', async () => {
    const h = await getHarness();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/pg/StartPay/', '/start/'),
        hostile.filter((s) => s.length > 0 && s.length < 200),
        async (prefix, id) => {
          const res = await fetch(`${h.baseUrl}${prefix}${encodeURIComponent(id)}`, { redirect: 'manual' });
          // 429 only past PAGE_ACTIONS_PER_CLIENT_PER_MINUTE, which the suite's servers leave off.
          assert.ok(res.status === 302 || res.status === 404, `${prefix}${id} → ${res.status}`);
        },
      ),
      { numRuns: 40 },
    );
  });
});
