/**
 * The dashboard's tests' common steps and checks, in real Chromium: what every
 * page must pass (language, strict headers, no script, axe) and the account
 * steps they begin with (sign-up with the link from a real SMTP receiver, sign-in).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, phonePage, type PhonePage } from './browser.ts';
import { apiWith } from './harness.ts';
import { linkIn, startMailbox, type Mailbox } from './mailbox.ts';
import type { Config } from '../../src/config.ts';

export type Lang = 'fa' | 'en';
export const PASSWORD = 'a long and memorable phrase';

const PERSIAN_DIGITS = '۰۱۲۳۴۵۶۷۸۹';
/** ASCII digits as a Persian page writes them. */
export const persian = (digits: string) => digits.replace(/[0-9]/g, (d) => PERSIAN_DIGITS[Number(d)]!);

/** How a page writes a whole number of rials. */
export const rials = (amount: number, lang: Lang) =>
  `${new Intl.NumberFormat(lang === 'fa' ? 'fa-IR' : 'en-US').format(amount)} ${lang === 'fa' ? 'ریال' : 'rials'}`;

export async function assertLanguage(page: Page, lang: Lang): Promise<void> {
  assert.equal(await page.getAttribute('html', 'lang'), lang);
  assert.equal(await page.getAttribute('html', 'dir'), lang === 'fa' ? 'rtl' : 'ltr');
  assert.equal(await page.evaluate<string>('getComputedStyle(document.body).direction'), lang === 'fa' ? 'rtl' : 'ltr');
}

/** axe-core's browser build, read once per process: assertAccessible evaluates it in a page at most once per document. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

interface AxeViolation {
  id: string;
  help: string;
  impact: string | null;
  targets: string[];
}

/**
 * axe-core in the page: no serious or critical WCAG 2.1 A/AA violation. axe-core is evaluated in the
 * document only when it is not there yet, and the page answers only the violations' ids, help and targets:
 * @axe-core/playwright evaluated axe's 580 kB twice per check (once to probe, once per frame) and sent
 * every result type back over the DevTools protocol (docs/TESTING.md#how-npm-test-spends-its-time).
 */
export async function assertAccessible(page: Page, what: string): Promise<void> {
  if (!(await page.evaluate('typeof window.axe?.run === "function"'))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (tags): Promise<AxeViolation[]> => {
    // In the page (no DOM types in this project's compilation): its global axe and document.
    const { axe, document } = globalThis as unknown as {
      axe: typeof import('axe-core');
      document: import('axe-core').ElementContext;
    };
    const results = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return results.violations.map((v) => ({
      id: v.id,
      help: v.help,
      impact: v.impact ?? null,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
  }, AXE_TAGS);
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(
    bad.map((v) => `${v.id}: ${v.help} (${v.targets.join(', ')})`),
    [],
    `${what}: accessibility violations`,
  );
}

/** The page's response headers: the hosted pages' strict CSP and the rest. */
export function assertStrictHeaders(headers: Record<string, string>, what: string): void {
  const csp = headers['content-security-policy'] ?? '';
  assert.match(csp, /default-src 'none'/, what);
  assert.match(csp, /form-action 'self'/, what);
  assert.match(csp, /frame-ancestors 'none'/, what);
  assert.doesNotMatch(csp, /script-src|unsafe-inline|unsafe-eval|\*/, `${what}: no script allowed at all`);
  assert.equal(headers['cache-control'], 'no-store', what);
  assert.equal(headers['x-content-type-options'], 'nosniff', what);
}

/** No script of any kind in the page's HTML: no <script>, no on* attribute, no javascript: link. */
export async function assertNoScript(page: Page, what: string): Promise<void> {
  const html = await page.content();
  assert.doesNotMatch(html, /<script|\son[a-z]+=|javascript:/i, `${what}: no script`);
}

/** Signs up through the pages and confirms through the emailed link; answers the address. */
export async function signUpInBrowser(
  page: Page,
  server: { base: string; mailbox: Mailbox },
  lang: Lang,
  business: string,
): Promise<string> {
  const email = `owner-${randomUUID()}@example.com`;
  await page.goto(`${server.base}/dashboard/sign-up${lang === 'en' ? '?lang=en' : ''}`);
  await page.fill('#business_name', business);
  await page.fill('#email', email);
  await page.fill('#password', PASSWORD);
  await Promise.all([page.waitForURL(/\/dashboard\/sign-up\/sent$/), page.click('#auth-form button[type=submit]')]);
  const mail = await server.mailbox.next(email);
  await page.goto(`${server.base}${linkIn(mail, '/dashboard/confirm')}`);
  assert.equal(
    await page.locator('main h1').innerText(),
    lang === 'en' ? 'Email address confirmed' : 'نشانی ایمیل تأیید شد',
  );
  return email;
}

/** Email and password on the sign-in page; answers once the next page (the overview, or the second step) is there. */
export async function signInInBrowser(
  page: Page,
  base: string,
  email: string,
  password = PASSWORD,
  next: RegExp = /\/dashboard\/overview$/,
): Promise<void> {
  await page.goto(`${base}/dashboard/sign-in`);
  await page.fill('#email', email);
  await page.fill('#password', password);
  await Promise.all([page.waitForURL(next), page.click('#auth-form button[type=submit]')]);
}

/** A merchant signed up and in through the pages, with localhost as its domain and a test key made on the developers page. */
export async function merchantInBrowser(
  page: Page,
  server: { base: string; mailbox: Mailbox },
  lang: Lang,
  business: string,
): Promise<{ email: string; key: string }> {
  const email = await signUpInBrowser(page, server, lang, business);
  await signInInBrowser(page, server.base, email);
  await page.goto(`${server.base}/dashboard/settings`);
  await page.fill('#domain', 'localhost');
  await Promise.all([page.waitForURL(/done=added/), page.click('#domain-form button[type=submit]')]);
  await page.goto(`${server.base}/dashboard/developers`);
  await page.click('#create-key-form button');
  return { email, key: await page.locator('#new-key').innerText() };
}

/** What a dashboard test file works with: an API of its own that mails a real SMTP receiver, and Chromium. */
export interface DashboardBrowser {
  readonly base: string;
  readonly mailbox: Mailbox;
  readonly browser: Browser;
  /** Closes `context` after the test. */
  track(context: BrowserContext): BrowserContext;
  /** A fresh 390 px phone page (closed after the test). */
  phone(): Promise<PhonePage>;
  /** The same session as `page` on a 1280 px screen (closed after the test). */
  desktopOf(page: Page): Promise<Page>;
}

/**
 * Registers the file's hooks (call it in `describe`): before all, a mailbox, an API server with
 * `settings` and SMTP_URL pointing at that mailbox, and Chromium; after each test, its browser
 * contexts closed; after all, the browser and the mailbox.
 */
export function dashboardBrowser(settings: Partial<Record<keyof Config, string>> = {}): DashboardBrowser {
  let base = '';
  let mailbox: Mailbox | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  before(async () => {
    mailbox = await startMailbox();
    base = await apiWith({ ...settings, SMTP_URL: mailbox.url });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await mailbox?.close();
  });
  afterEach(async () => {
    for (const c of contexts.splice(0)) await c.close();
  });
  const track = (context: BrowserContext) => (contexts.push(context), context);
  return {
    get base() {
      return base;
    },
    get mailbox() {
      return mailbox!;
    },
    get browser() {
      return browser!;
    },
    track,
    async phone() {
      const p = await phonePage(browser!);
      track(p.context);
      return p;
    },
    async desktopOf(page: Page) {
      const context = track(await browser!.newContext({ viewport: { width: 1280, height: 900 } }));
      await context.addCookies(await page.context().cookies());
      return context.newPage();
    },
  };
}
