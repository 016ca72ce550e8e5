/**
 * Onboarding in the dashboard against the real stack (docs/DASHBOARD.md#onboarding):
 * real Chromium, the real SMTP receiver, the real operator CLI, the onboarding
 * workflow on a real Temporal server with a worker of its own (its own task
 * queue, so its decision emails go to this suite's mailbox and its reminder
 * comes after a few seconds), MySQL. Both languages walk sign-up → documents
 * (refusals first) → request → the operator's approval → live mode; a
 * rejection is fixed and resubmitted; the operator lists, reads and is reminded.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiWith, getHarness, testConfig, type Harness } from '../support/harness.ts';
import { launchChromium, phonePage, screenshot } from '../support/browser.ts';
import { startMailbox, type Mailbox } from '../support/mailbox.ts';
import { cliWith } from '../support/cli.ts';
import { waitFor } from '../support/http.ts';
import { assertAccessible, assertLanguage, signInInBrowser, signUpInBrowser, type Lang } from '../support/dashboard.ts';
import { GOOD_DOCUMENTS, SMALL_PDF } from '../support/live.ts';
import { createWorkers } from '../../src/main/payment-worker.ts';
import { createLogger } from '../../src/logger.ts';
import { createOnboardedMerchant } from '../../src/merchants/merchants.ts';
import { submitDocuments } from '../../src/merchants/documents.ts';
import { requestGateway } from '../../src/merchants/onboarding.ts';
import { documentStore } from '../../src/adapters/document-store.ts';
import { onboardingWorkflowId } from '../../src/domain/onboarding-workflow.ts';

/** A merchant signed up through the pages (the emailed link confirmed) and signed in. */
async function signUpAndSignIn(
  page: Page,
  base: string,
  mailbox: Mailbox,
  lang: Lang,
  business: string,
): Promise<string> {
  const email = await signUpInBrowser(page, { base, mailbox }, lang, business);
  await signInInBrowser(page, base, email);
  return email;
}

const BAD_NATIONAL_ID = '1234567890';
const BAD_IBAN = 'IR820540102680020817909003';
const WORDS = {
  fa: {
    nationalId: /کد ملی درست نیست/,
    iban: /شمارهٔ شبا درست نیست/,
    fileType: /فقط پروندهٔ PDF، JPEG یا PNG/,
    underReview: 'در انتظار بررسی',
    live: 'فعال',
  },
  en: {
    nationalId: /That national ID is not valid/,
    iban: /That IBAN is not valid/,
    fileType: /Only PDF, JPEG or PNG files are accepted/,
    underReview: 'Awaiting review',
    live: 'Active',
  },
} as const;

describe('onboarding in the dashboard, with the operator CLI', function () {
  this.timeout(240_000);
  let h: Harness;
  let browser: Browser;
  let mailbox: Mailbox;
  let base: string;
  let env: Record<string, string>;
  const reminderLog: string[] = [];
  let reminderQueue: string;
  const contexts: BrowserContext[] = [];
  const stops: (() => Promise<void>)[] = [];

  /** A worker of our own on its own task queue: payments, deliveries and onboarding, with these settings. */
  async function ownWorker(overrides: Record<string, string>, logger = h.logger): Promise<void> {
    const config = testConfig(overrides);
    const workers = await createWorkers({ config, db: h.db, temporal: h.temporal.client, logger, bundle: h.bundle });
    const running = Promise.all([workers.payments.run(), workers.webhooks.run()]);
    stops.push(async () => {
      workers.payments.shutdown();
      workers.webhooks.shutdown();
      await running;
    });
  }

  before(async () => {
    h = await getHarness();
    mailbox = await startMailbox();
    const documentsDir = mkdtempSync(join(tmpdir(), 'dargah-documents-'));
    const queue = `onboarding-${randomUUID()}`;
    env = { SMTP_URL: mailbox.url, TEMPORAL_TASK_QUEUE: queue, DOCUMENTS_DIR: documentsDir };
    await ownWorker(env);
    // A reminder after 0.0005 h (1.8 s), logged to a stream this test reads.
    reminderQueue = `onboarding-reminder-${randomUUID()}`;
    const capture = new Writable({
      write: (chunk: Buffer, _enc, done) => (reminderLog.push(chunk.toString('utf8')), done()),
    });
    await ownWorker(
      { ...env, TEMPORAL_TASK_QUEUE: reminderQueue, REVIEW_REMINDER_HOURS: '0.0005' },
      createLogger('info', 'reminder-worker', capture),
    );
    base = await apiWith(env);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    for (const stop of stops.splice(0)) await stop();
    await mailbox?.close();
  });
  afterEach(async () => {
    for (const c of contexts.splice(0)) await c.close();
  });

  const phone = async () => {
    const p = await phonePage(browser);
    contexts.push(p.context);
    return p;
  };
  const cli = (...args: string[]) => cliWith(env, ...args);
  const merchantOf = async (email: string) =>
    (await h.db.selectFrom('users').select('merchant_id').where('email', '=', email).executeTakeFirstOrThrow())
      .merchant_id;

  async function addDomain(page: Page): Promise<void> {
    await page.goto(`${base}/dashboard/settings`);
    await page.fill('#domain', 'localhost');
    await Promise.all([page.waitForURL(/done=added/), page.click('#domain-form button[type=submit]')]);
  }

  /** Fills the documents form and submits it; answers the response's status. */
  async function sendDocuments(
    page: Page,
    fields: { national_id: string; iban: string; legal_name?: string },
    file?: { name: string; mimeType: string; buffer: Buffer },
  ): Promise<number> {
    if (fields.legal_name !== undefined) await page.fill('#legal_name', fields.legal_name);
    await page.fill('#national_id', fields.national_id);
    await page.fill('#iban', fields.iban);
    if (file !== undefined) await page.setInputFiles('#files', file);
    const [response] = await Promise.all([
      page.waitForResponse(
        (r) => new URL(r.url()).pathname === '/dashboard/documents' && r.request().method() === 'POST',
      ),
      page.click('#documents-form button[type=submit]'),
    ]);
    await page.waitForLoadState();
    return response.status();
  }

  const pdf = { name: 'registration.pdf', mimeType: 'application/pdf', buffer: SMALL_PDF };

  async function operatorStep(...args: string[]): Promise<Record<string, unknown>> {
    const result = await cli(...args, '--json');
    assert.equal(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
    return JSON.parse(result.stdout) as Record<string, unknown>;
  }

  for (const lang of ['fa', 'en'] as const satisfies readonly Lang[]) {
    it(`(${lang}) sign-up → domain → documents (bad ID, bad IBAN and a fake PDF refused) → gateway request → the operator approves with the CLI → live mode`, async () => {
      const { page, dialogs } = await phone();
      const words = WORDS[lang];
      const email = await signUpAndSignIn(page, base, mailbox, lang, `Onboarding ${lang} ${randomUUID().slice(0, 6)}`);
      const merchantId = await merchantOf(email);
      // Started at sign-up.
      const started = await h.temporal.client.workflow.getHandle(onboardingWorkflowId(merchantId)).describe();
      assert.equal(started.status.name, 'RUNNING');

      await page.goto(`${base}/dashboard/developers`);
      assert.equal(await page.locator('#onboarding-status').getAttribute('data-status'), 'account_created');
      await addDomain(page);
      await page.goto(`${base}/dashboard/developers`);
      assert.equal(await page.locator('#onboarding-status').getAttribute('data-status'), 'domain_added');
      assert.equal(await page.locator('#gateway-form').count(), 0, 'no request before the documents');
      await assertAccessible(page, 'developers page, documents needed');
      await page.click('#documents-link');
      await page.waitForURL(/\/dashboard\/documents$/);
      await assertLanguage(page, lang);
      await assertAccessible(page, 'documents page');
      await screenshot(page, `onboarding-${lang}-390-documents`);

      // A bad national ID and a bad IBAN: both refused with clear words, the typed values kept.
      assert.equal(
        await sendDocuments(
          page,
          { legal_name: GOOD_DOCUMENTS.legal_name, national_id: BAD_NATIONAL_ID, iban: BAD_IBAN },
          pdf,
        ),
        422,
      );
      assert.match(await page.locator('#national_id-error').innerText(), words.nationalId);
      assert.match(await page.locator('#iban-error').innerText(), words.iban);
      assert.equal(await page.locator('#national_id').getAttribute('aria-invalid'), 'true');
      assert.equal(
        await page.locator('#legal_name').inputValue(),
        GOOD_DOCUMENTS.legal_name,
        'the other fields stay filled',
      );
      assert.equal(await page.locator('#iban').inputValue(), BAD_IBAN);
      await assertAccessible(page, 'documents page with errors');
      await screenshot(page, `onboarding-${lang}-390-documents-errors`);
      // Good numbers, but a file that is no PDF whatever its name says.
      const fake = {
        name: 'statement.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from('<html><body>not a pdf</body></html>'),
      };
      assert.equal(
        await sendDocuments(page, { national_id: GOOD_DOCUMENTS.national_id, iban: GOOD_DOCUMENTS.iban }, fake),
        422,
      );
      assert.match(await page.locator('#files-error').innerText(), words.fileType);
      assert.equal(
        await h.db
          .selectFrom('merchant_document_submissions')
          .select('id')
          .where('merchant_id', '=', merchantId)
          .execute()
          .then((r) => r.length),
        0,
        'a refusal writes nothing',
      );
      // Then all good, with Persian digits for the ID.
      const persianId = GOOD_DOCUMENTS.national_id.replace(/[0-9]/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[Number(d)]!);
      assert.equal(await sendDocuments(page, { national_id: persianId, iban: GOOD_DOCUMENTS.iban }, pdf), 303);
      await page.waitForURL(/done=submitted/);
      assert.deepEqual(await page.locator('#submitted-files bdi').allInnerTexts(), ['registration.pdf']);

      await page.goto(`${base}/dashboard/developers`);
      assert.equal(await page.locator('#onboarding-status').getAttribute('data-status'), 'documents_submitted');
      await Promise.all([page.waitForURL(/done=gateway/), page.click('#gateway-form button')]);
      assert.equal(await page.locator('#gateway-status').innerText(), words.underReview);
      assert.equal(await page.locator('#onboarding-status').getAttribute('data-status'), 'under_review');
      assert.ok(await page.locator('#review-note').isVisible());
      await assertAccessible(page, 'developers page under review');
      await screenshot(page, `onboarding-${lang}-390-under-review`);

      // The operator: the review queue, the documents, the approval.
      const queue = await operatorStep('merchants', 'list', '--status', 'under_review');
      assert.ok(
        (queue.merchants as { merchant_id: string }[]).some((m) => m.merchant_id === merchantId),
        'listed under review',
      );
      const approved = await operatorStep('gateways', 'approve', '--merchant', merchantId);
      assert.deepEqual(approved, {
        merchant_id: merchantId,
        gateway_status: 'approved',
        onboarding_status: 'approved',
      });
      const mail = await waitFor('the approval email', async () =>
        mailbox.received.find((m) => m.to.includes(email) && /approved/.test(m.subject)),
      );
      assert.match(mail.text, /\/dashboard\/developers/);

      await page.goto(`${base}/dashboard/developers`);
      assert.ok(await page.locator('#live-form').isVisible());
      await assertAccessible(page, 'developers page approved');
      await screenshot(page, `onboarding-${lang}-390-approved`);
      await Promise.all([page.waitForURL(/done=live/), page.click('#live-form button')]);
      assert.equal(await page.locator('#live-mode').innerText(), words.live);
      assert.equal(await page.locator('#onboarding-status').getAttribute('data-status'), 'live');
      const row = await h.db
        .selectFrom('merchants')
        .select(['live_mode', 'gateway_status', 'onboarding_status'])
        .where('id', '=', merchantId)
        .executeTakeFirstOrThrow();
      assert.deepEqual(
        { ...row, live_mode: Boolean(row.live_mode) },
        { live_mode: true, gateway_status: 'approved', onboarding_status: 'live' },
      );
      await screenshot(page, `onboarding-${lang}-390-live`);

      const wide = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      contexts.push(wide);
      await wide.addCookies(await page.context().cookies());
      const desktop = await wide.newPage();
      for (const path of ['developers', 'documents'] as const) {
        await desktop.goto(`${base}/dashboard/${path}`);
        await assertAccessible(desktop, `${path} page, desktop`);
        await screenshot(desktop, `onboarding-${lang}-1280-${path}`);
      }
      assert.deepEqual(dialogs, []);
    });
  }

  it('(fa) a rejection with a reason → the merchant sees it and resubmits → under review again → approved', async () => {
    const { page } = await phone();
    const email = await signUpAndSignIn(page, base, mailbox, 'fa', 'Rejected shop');
    const merchantId = await merchantOf(email);
    await addDomain(page);
    await page.goto(`${base}/dashboard/documents`);
    assert.equal(
      await sendDocuments(
        page,
        { legal_name: 'فروشگاه رد', national_id: GOOD_DOCUMENTS.national_id, iban: GOOD_DOCUMENTS.iban },
        pdf,
      ),
      303,
    );
    await page.goto(`${base}/dashboard/developers`);
    await Promise.all([page.waitForURL(/done=gateway/), page.click('#gateway-form button')]);

    const reason = 'شبا به نام کسب‌وکار نیست؛ شبای حساب شرکت را بفرستید.';
    const refusedNoReason = await cli('gateways', 'reject', '--merchant', merchantId, '--reason', '   ');
    assert.notEqual(refusedNoReason.code, 0);
    assert.match(refusedNoReason.stderr, /--reason is required/);
    const rejected = await operatorStep('gateways', 'reject', '--merchant', merchantId, '--reason', reason);
    assert.deepEqual(rejected, {
      merchant_id: merchantId,
      gateway_status: 'rejected',
      onboarding_status: 'rejected',
      rejection_reason: reason,
    });
    const mail = await waitFor('the rejection email', async () =>
      mailbox.received.find((m) => m.to.includes(email) && /rejected/.test(m.subject)),
    );
    assert.ok(mail.text.includes(reason), mail.text);

    await page.goto(`${base}/dashboard/developers`);
    assert.equal(await page.locator('#rejection-reason').innerText(), reason);
    assert.equal(await page.locator('#gateway-form').count(), 0, 'no new request: the documents are resubmitted');
    await assertAccessible(page, 'developers page rejected');
    await screenshot(page, 'onboarding-fa-390-rejected');
    await page.click('#resubmit-link');
    await page.waitForURL(/\/dashboard\/documents$/);
    assert.equal(await page.locator('#legal_name').inputValue(), 'فروشگاه رد', 'the last submission fills the form');
    // A new IBAN (the company's), and the file already sent is kept.
    assert.equal(
      await sendDocuments(page, { national_id: GOOD_DOCUMENTS.national_id, iban: 'IR490170000000001234567890' }),
      303,
    );
    await page.goto(`${base}/dashboard/developers`);
    assert.equal(await page.locator('#onboarding-status').getAttribute('data-status'), 'under_review');
    assert.equal(await page.locator('#rejection').count(), 0);
    assert.deepEqual(await operatorStep('gateways', 'approve', '--merchant', merchantId), {
      merchant_id: merchantId,
      gateway_status: 'approved',
      onboarding_status: 'approved',
    });
    const events = await h.db
      .selectFrom('onboarding_events')
      .select(['type', 'status'])
      .where('merchant_id', '=', merchantId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    assert.deepEqual(
      events.map((e) => `${e.type} ${e.status}`),
      [
        'domain_added domain_added',
        'documents_submitted documents_submitted',
        'gateway_requested gateway_requested',
        'review_started under_review',
        'gateway_rejected rejected',
        'documents_submitted under_review',
        'gateway_approved approved',
      ],
    );
  });

  it('the operator reads the documents with the CLI (a copy of each file); nothing serves them; a multipart post without its CSRF token is refused', async () => {
    const { page, context } = await phone();
    const email = await signUpAndSignIn(page, base, mailbox, 'en', 'Documents shop');
    const merchantId = await merchantOf(email);
    await addDomain(page);
    await page.goto(`${base}/dashboard/documents`);
    // Without the token: 403, and nothing written.
    const forged = await context.request.post(`${base}/dashboard/documents`, {
      multipart: {
        legal_name: 'X',
        id_kind: 'person',
        national_id: GOOD_DOCUMENTS.national_id,
        iban: GOOD_DOCUMENTS.iban,
        files: { name: 'a.pdf', mimeType: 'application/pdf', buffer: SMALL_PDF },
      },
      headers: { origin: base },
      maxRedirects: 0,
    });
    assert.equal(forged.status(), 403);
    assert.equal(
      (await h.db.selectFrom('merchant_document_files').select('id').where('merchant_id', '=', merchantId).execute())
        .length,
      0,
    );
    assert.equal(
      await sendDocuments(
        page,
        { legal_name: GOOD_DOCUMENTS.legal_name, national_id: GOOD_DOCUMENTS.national_id, iban: GOOD_DOCUMENTS.iban },
        pdf,
      ),
      303,
    );

    const out = mkdtempSync(join(tmpdir(), 'dargah-operator-'));
    const listed = await operatorStep('merchants', 'documents', '--merchant', merchantId, '--output', out);
    assert.equal(listed.legal_name, GOOD_DOCUMENTS.legal_name);
    assert.equal(listed.national_id, GOOD_DOCUMENTS.national_id);
    assert.equal(listed.iban, GOOD_DOCUMENTS.iban);
    const [file] = listed.files as { name: string; content_type: string; copy: string; file_id: string }[];
    assert.equal(file!.name, 'registration.pdf');
    assert.equal(file!.content_type, 'application/pdf');
    assert.deepEqual(readFileSync(file!.copy), SMALL_PDF, 'the copy is the uploaded file');
    // No route serves a document: not by its id, not under the data directory.
    for (const path of [
      `/dashboard/documents/${file!.file_id}`,
      `/documents/${merchantId}/${file!.file_id}`,
      `/.data/documents/${merchantId}/${file!.file_id}`,
    ]) {
      const res = await page.request.get(`${base}${path}`);
      assert.equal(res.status(), 404, path);
    }
  });

  it('a request under review past REVIEW_REMINDER_HOURS raises the operator reminder (log line and event), and the Temporal UI finds it by OnboardingStatus', async () => {
    const deps = { db: h.db, temporal: h.temporal.client, config: { ...h.config, TEMPORAL_TASK_QUEUE: reminderQueue } };
    const m = await createOnboardedMerchant(deps, { name: 'Slow review shop', domain: 'shop.example' });
    await submitDocuments(
      { ...deps, store: documentStore({ DOCUMENTS_DIR: env.DOCUMENTS_DIR! }) },
      m.merchant_id,
      GOOD_DOCUMENTS,
      [{ name: 'r.pdf', bytes: SMALL_PDF }],
    );
    await requestGateway(deps, m.merchant_id);
    const event = await waitFor(
      'the review_reminder event',
      () =>
        h.db
          .selectFrom('onboarding_events')
          .selectAll()
          .where('merchant_id', '=', m.merchant_id)
          .where('type', '=', 'review_reminder')
          .executeTakeFirst(),
      20_000,
    );
    assert.equal(event.status, 'under_review');
    const line = reminderLog
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.event === 'review_reminder' && l.merchant_id === m.merchant_id);
    assert.ok(line !== undefined, 'a structured log line');
    assert.equal(line.level, 40, 'a warning');
    assert.ok(Number(line.waited_hours) >= 0.0005);

    // The operator's query in the Temporal UI, against the real server's visibility store.
    const query = `OnboardingStatus="under_review" AND WorkflowId="${onboardingWorkflowId(m.merchant_id)}"`;
    const found = await waitFor('the workflow by OnboardingStatus', async () => {
      for await (const w of h.temporal.client.workflow.list({ query })) return w;
      return undefined;
    });
    assert.equal(found.workflowId, onboardingWorkflowId(m.merchant_id));
    const none = `OnboardingStatus="approved" AND WorkflowId="${onboardingWorkflowId(m.merchant_id)}"`;
    for await (const w of h.temporal.client.workflow.list({ query: none }))
      assert.fail(`found ${w.workflowId} as approved`);
  });

  it('a merchant created before the onboarding workflow gets it on its first step (Update-with-Start), from its record', async () => {
    const old = await h.db.transaction().execute(async (trx) => {
      const { insertMerchant } = await import('../../src/merchants/merchants.ts');
      return insertMerchant(trx, h.config, 'Old shop', 'old.example');
    });
    const handle = h.temporal.client.workflow.getHandle(onboardingWorkflowId(old.merchant_id));
    await assert.rejects(handle.describe(), /not found/i, 'no workflow yet');
    const refused = await cli('gateways', 'request', '--merchant', old.merchant_id);
    assert.match(refused.stderr, /submit the business documents first/);
    assert.equal(
      (await handle.describe()).status.name,
      'RUNNING',
      'started by the refused step, from the record (domain added)',
    );
  });
});
