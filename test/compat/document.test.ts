import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { COMPAT_OPENAPI_FILE, compatDocumentText } from '../../openapi/compat.ts';
import { getHarness } from '../support/harness.ts';
import { request } from '../support/http.ts';

describe("the compatible protocols' OpenAPI document", () => {
  const text = compatDocumentText();

  it('is committed as built (run `npm run openapi` after changing a protocol)', () => {
    assert.equal(readFileSync(COMPAT_OPENAPI_FILE, 'utf8'), text);
  });

  it('validates against the OpenAPI 3.1 schema', async () => {
    const result = await new Validator().validate(text);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
  });

  it('is served at /openapi/compat.json, with every ZarinPal and Zibal endpoint and its codes', async () => {
    const res = await request<{
      paths: Record<string, { post?: { responses: Record<string, { description: string }> } }>;
    }>((await getHarness()).baseUrl, 'GET', '/openapi/compat.json');
    assert.equal(res.status, 200);
    for (const name of ['request', 'verify', 'unVerified', 'inquiry', 'reverse'])
      assert.ok(res.body.paths[`/pg/v4/payment/${name}.json`]?.post, name);
    const reverse = JSON.stringify(res.body.paths['/pg/v4/payment/reverse.json']!.post!.responses);
    for (const code of ['-9', '-10', '-54', '-63']) assert.ok(reverse.includes(code), code);
    for (const name of ['request', 'verify', 'inquiry']) assert.ok(res.body.paths[`/v1/${name}`]?.post, name);
    const verify = JSON.stringify(res.body.paths['/v1/verify']!.post!.responses['200']);
    for (const code of ['102', '202', '203']) assert.ok(verify.includes(code), code);
  });

  it("says ZarinPal's card_hash is the SHA-256 of the masked card, shared by about 100,000 cards: never a card's identity (the served document and COMPAT.md)", async () => {
    const res = await request<string>((await getHarness()).baseUrl, 'GET', '/openapi/compat.json');
    const descriptions = [...res.text.matchAll(/"card_hash":\s*\{[^}]*"description":\s*"([^"]*)"/g)].map((m) => m[1]!);
    assert.ok(descriptions.length > 0, 'card_hash is described');
    for (const description of descriptions) {
      assert.match(description, /SHA-256 of the masked card/);
      assert.match(description, /100,000 cards/, 'how many cards share one');
      assert.match(description, /not .*identify/i, 'what it must not be used for');
    }
    const compat = readFileSync('docs/COMPAT.md', 'utf8');
    assert.match(compat, /`card_hash`[^\n]*\n?[^\n]*SHA-256 of the masked/);
    assert.match(compat, /about 100,000 cards/);
  });
});
