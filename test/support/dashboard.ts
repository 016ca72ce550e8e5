/** What the dashboard's browser tests share: accessibility and language checks, and a merchant signed up through the pages. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { linkIn, type Mailbox } from './mailbox.ts';

export type Lang = 'fa' | 'en';
export const PASSWORD = 'a long and memorable phrase';

/** axe-core in the page: no serious or critical WCAG 2.1 A/AA violation. */
export async function assertNoSeriousViolations(page: Page, what: string): Promise<void> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`), [], `${what}: accessibility violations`);
}

export async function assertPageLanguage(page: Page, lang: Lang): Promise<void> {
  assert.equal(await page.getAttribute('html', 'lang'), lang);
  assert.equal(await page.getAttribute('html', 'dir'), lang === 'fa' ? 'rtl' : 'ltr');
}

/** Signs up through the pages in `lang`, confirms through the emailed link and signs in; answers the address. */
export async function signedUpMerchant(page: Page, base: string, mailbox: Mailbox, lang: Lang, business: string): Promise<string> {
  const email = `owner-${randomUUID()}@example.com`;
  await page.goto(`${base}/dashboard/sign-up${lang === 'en' ? '?lang=en' : '?lang=fa'}`);
  await page.fill('#business_name', business);
  await page.fill('#email', email);
  await page.fill('#password', PASSWORD);
  await Promise.all([page.waitForURL(/\/dashboard\/sign-up\/sent$/), page.click('#auth-form button[type=submit]')]);
  await page.goto(`${base}${linkIn(await mailbox.next(email), '/dashboard/confirm')}`);
  await page.goto(`${base}/dashboard/sign-in`);
  await page.fill('#email', email);
  await page.fill('#password', PASSWORD);
  await Promise.all([page.waitForURL(/\/dashboard\/payments$/), page.click('#auth-form button[type=submit]')]);
  return email;
}
