import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Validator } from '@seriousme/openapi-schema-validator';
import { pino } from 'pino';
import { createApp } from '../../src/main/http-app.ts';
import { OPENAPI_FILE, openApiDocumentText } from '../../openapi/document.ts';
import { buildCompatDocument } from '../../openapi/compat.ts';
import { getHarness, testConfig } from '../support/harness.ts';
import { request } from '../support/http.ts';
import { document } from '../support/contract.ts';

/** Routes that are not part of the JSON API: the customer's HTML pages, the merchant dashboard, their assets and the docs page. */
// The customer's pages (the mandates' bank page and return, and a subscription's page, included) are not the API.
const NOT_API = [
  /^\/pay\//,
  /^\/mandates\//,
  /^\/subscriptions\//,
  /^\/l\//,
  /^\/refund-claims\//,
  /^\/dashboard/,
  /^\/assets\//,
  /^\/docs/,
];

function servedRoutes(): Set<string> {
  const app = createApp({
    config: testConfig(),
    db: {} as never,
    temporal: {} as never,
    logger: pino({ level: 'silent' }),
  });
  const routes = new Set<string>();
  for (const middleware of app.middleware as unknown as {
    router?: { stack: { path: string; methods: string[] }[] };
  }[]) {
    for (const layer of middleware.router?.stack ?? []) {
      const path = layer.path.replace(/:(\w+)/g, '{$1}');
      if (NOT_API.some((p) => p.test(path))) continue;
      for (const method of layer.methods) if (method !== 'HEAD') routes.add(`${method} ${path}`);
    }
  }
  return routes;
}

describe('the OpenAPI document', () => {
  const text = openApiDocumentText();

  it('is committed as built (run `npm run openapi` after changing the API)', () => {
    assert.equal(readFileSync(OPENAPI_FILE, 'utf8'), text);
  });

  it('validates against the OpenAPI 3.1 schema', async () => {
    const result = await new Validator().validate(text);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
    assert.equal(document.openapi, '3.1.0');
  });

  it("lints clean with Redocly's recommended-strict rules", async () => {
    // The probes and the document itself have no client error to answer, so the one rule that
    // demands a 4XX response on every operation is off; every other strict rule applies.
    const config = await createConfig({ extends: ['recommended-strict'], rules: { 'operation-4xx-response': 'off' } });
    const problems = await lintFromString({ source: text, absoluteRef: 'openapi.json', config });
    assert.deepEqual(
      problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? ''}`),
      [],
    );
  });

  it("documents every route the routers serve (the compatible protocols' in their own document), and every documented route is served", () => {
    const documented = new Set<string>();
    for (const [path, item] of [
      ...Object.entries(document.paths ?? {}),
      ...Object.entries(buildCompatDocument().paths ?? {}),
    ]) {
      for (const method of ['get', 'post', 'put', 'patch', 'delete'])
        if ((item as Record<string, unknown>)[method] !== undefined) documented.add(`${method.toUpperCase()} ${path}`);
    }
    assert.deepEqual([...servedRoutes()].sort(), [...documented].sort());
  });

  it('documents the Bearer scheme, the Idempotency-Key header and every error code with an example', () => {
    assert.equal((document.components?.securitySchemes?.bearerAuth as { scheme: string }).scheme, 'bearer');
    const create = document.paths!['/api/v1/payments']!.post!;
    assert.ok(JSON.stringify(create.parameters).includes('#/components/parameters/IdempotencyKey'));
    assert.ok(create.requestBody !== undefined);
    const codes = new Set<string>();
    for (const item of Object.values(document.paths ?? {})) {
      for (const op of Object.values(
        item as Record<string, { responses?: Record<string, { content?: Record<string, { examples?: object }> }> }>,
      )) {
        for (const response of Object.values(op.responses ?? {}))
          for (const code of Object.keys(response.content?.['application/json']?.examples ?? {})) codes.add(code);
      }
    }
    for (const code of [
      'validation_failed',
      'amount_mismatch',
      'payment_not_found',
      'refund_exceeds_amount',
      'idempotency_key_reused',
      'service_unavailable',
      'live_mode_not_enabled',
    ]) {
      assert.ok(codes.has(code), code);
    }
  });

  it('is served at /api/v1/openapi.json without a key, and /docs renders it with assets served by the gateway', async () => {
    const { baseUrl } = await getHarness();
    const res = await request(baseUrl, 'GET', '/api/v1/openapi.json');
    assert.equal(res.status, 200);
    assert.equal((res.body as { openapi: string }).openapi, '3.1.0');
    assert.deepEqual(Object.keys((res.body as { paths: object }).paths), Object.keys(document.paths ?? {}));

    const page = await fetch(`${baseUrl}/docs`);
    const html = await page.text();
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    assert.ok(assets.length >= 3);
    for (const asset of assets) {
      assert.ok(asset.startsWith('/docs/assets/'), `served by the gateway: ${asset}`);
      const res = await fetch(`${baseUrl}${asset}`);
      assert.equal(res.status, 200, asset);
      assert.ok((await res.arrayBuffer()).byteLength > 0);
    }
    assert.doesNotMatch(html, /https?:\/\//, 'no third-party address on the docs page');
  });
});
