/**
 * Business documents are up to 15 MB a post, so the gateway bounds what a
 * merchant (or a forged post) can make it read and keep: the CSRF token is
 * checked before a byte of the body is read, a merchant's documents have a
 * quota (a submission beyond it is refused and nothing of it stored), and the
 * sets the operator rejected are deleted, rows and files, once new files
 * replace them.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { addDomain, rejectGateway, requestGateway } from '../../src/merchants/onboarding.ts';
import { dashboardBrowser, signInInBrowser, signUpInBrowser } from '../support/dashboard.ts';
import { getHarness } from '../support/harness.ts';
import { waitFor } from '../support/http.ts';
import { GOOD_DOCUMENTS } from '../support/live.ts';

const QUOTA = 1_048_576;
const documentsDir = mkdtempSync(join(tmpdir(), 'dargah-documents-limits-'));
/** A PDF of about `kib` KiB (the gateway recognises a PDF by its first bytes). */
const pdfOf = (kib: number) => ({
  name: `doc-${kib}.pdf`,
  mimeType: 'application/pdf',
  buffer: Buffer.concat([Buffer.from('%PDF-1.4\n%'), Buffer.alloc(kib * 1024, 0x61), Buffer.from('\n%%EOF\n')]),
});

describe('business documents: CSRF before the body, a quota per merchant, rejected sets pruned', function () {
  this.timeout(180_000);
  const dashboard = dashboardBrowser({ DOCUMENTS_DIR: documentsDir, DOCUMENTS_QUOTA_BYTES: String(QUOTA) });

  async function merchantOf(email: string): Promise<string> {
    const { db } = await getHarness();
    return (await db.selectFrom('users').select('merchant_id').where('email', '=', email).executeTakeFirstOrThrow())
      .merchant_id;
  }

  async function storedFiles(merchantId: string) {
    const { db } = await getHarness();
    return db
      .selectFrom('merchant_document_files as f')
      .innerJoin('merchant_document_submissions as s', 's.id', 'f.submission_id')
      .select(['f.id', 'f.submission_id', 'f.size_bytes', 's.status'])
      .where('f.merchant_id', '=', merchantId)
      .execute();
  }

  async function signedUpMerchant(page: Page, lang: 'en' | 'fa'): Promise<string> {
    const h = await getHarness();
    const email = await signUpInBrowser(page, dashboard, lang, `Documents ${lang} ${randomUUID().slice(0, 6)}`);
    await signInInBrowser(page, dashboard.base, email);
    const merchantId = await merchantOf(email);
    await addDomain({ db: h.db, temporal: h.temporal.client, config: h.config }, merchantId, 'localhost');
    return merchantId;
  }

  async function sendDocuments(page: Page, files: ReturnType<typeof pdfOf>[]): Promise<number> {
    await page.goto(`${dashboard.base}/dashboard/documents`);
    await page.fill('#legal_name', GOOD_DOCUMENTS.legal_name);
    await page.fill('#national_id', GOOD_DOCUMENTS.national_id);
    await page.fill('#iban', GOOD_DOCUMENTS.iban);
    await page.setInputFiles('#files', files);
    const [response] = await Promise.all([
      page.waitForResponse(
        (r) => new URL(r.url()).pathname === '/dashboard/documents' && r.request().method() === 'POST',
      ),
      page.click('#documents-form button[type=submit]'),
    ]);
    await page.waitForLoadState();
    return response.status();
  }

  it('a post without the token is refused (403) before its body is read, and stores nothing', async () => {
    const { page } = await dashboard.phone();
    const merchantId = await signedUpMerchant(page, 'en');
    const cookies = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const url = new URL(dashboard.base);
    const socket = connect(Number(url.port), url.hostname);
    let received = '';
    let closed = false;
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('end', () => (closed = true));
    socket.on('error', () => (closed = true));
    await new Promise((r) => socket.once('connect', r));
    const boundary = 'x-boundary';
    // 15 MB announced, a few bytes sent: only an answer that did not wait for the body can arrive.
    socket.write(
      [
        'POST /dashboard/documents HTTP/1.1',
        `Host: ${url.host}`,
        `Origin: ${dashboard.base}`,
        `Cookie: ${cookies}`,
        `Content-Type: multipart/form-data; boundary=${boundary}`,
        `Content-Length: ${15 * 1024 * 1024}`,
        '',
        `--${boundary}\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\nforged\r\n--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="a.pdf"\r\n\r\n%PDF-`,
      ].join('\r\n'),
    );
    try {
      await waitFor(
        'the answer before the body',
        async () => (received.includes('\r\n\r\n') ? true : undefined),
        15_000,
        20,
      );
      assert.match(received, /^HTTP\/1\.1 403 /);
      await waitFor('the server to close the connection', async () => (closed ? true : undefined), 5_000, 20);
    } finally {
      socket.destroy();
    }
    assert.deepEqual(await storedFiles(merchantId), []);
  });

  for (const lang of ['en', 'fa'] as const) {
    it(`(${lang}) a submission beyond the quota is refused and stores nothing; new files after a rejection replace the rejected set`, async () => {
      const h = await getHarness();
      const deps = { db: h.db, temporal: h.temporal.client, config: h.config };
      const { page } = await dashboard.phone();
      const merchantId = await signedUpMerchant(page, lang);

      assert.equal(await sendDocuments(page, [pdfOf(400), pdfOf(400)]), 303);
      const first = await storedFiles(merchantId);
      assert.deepEqual(
        first.map((f) => f.status),
        ['submitted', 'submitted'],
      );

      // 800 KiB kept + 400 KiB more > 1 MiB.
      assert.equal(await sendDocuments(page, [pdfOf(400)]), 422);
      assert.match(
        await page.locator('#form-error').innerText(),
        lang === 'en' ? /storage quota; nothing was stored/ : /سقف فضای مدارک/,
      );
      assert.deepEqual(
        (await storedFiles(merchantId)).map((f) => f.id).sort(),
        first.map((f) => f.id).sort(),
        'no row stored',
      );
      assert.equal(
        first.every((f) => existsSync(join(documentsDir, merchantId, f.id))),
        true,
      );

      // The operator rejects; the merchant sends new files, which replace the rejected set.
      await requestGateway(deps, merchantId);
      await rejectGateway(deps, merchantId, 'The registration is unreadable.');
      assert.equal(await sendDocuments(page, [pdfOf(450), pdfOf(450)]), 303);
      const now = await storedFiles(merchantId);
      assert.equal(now.length, 2);
      assert.ok(
        now.every((f) => !first.some((old) => old.id === f.id)),
        'only the new set is kept',
      );
      for (const old of first)
        assert.equal(existsSync(join(documentsDir, merchantId, old.id)), false, "the rejected set's files are deleted");
      for (const f of now) assert.equal(existsSync(join(documentsDir, merchantId, f.id)), true);
    });
  }
});
