/**
 * What the dashboard's security tests share (test/dashboard/security.test.ts,
 * two-factor.test.ts): an API with a secrets key for two-step sign-in, fresh
 * browser profiles, the mail a test waits for, the checks and screenshots of
 * every page they visit, and the Security page's audit rows.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { screenshot } from './browser.ts';
import {
  assertAccessible,
  assertLanguage,
  assertNoScript,
  dashboardBrowser,
  type DashboardBrowser,
  type Lang,
} from './dashboard.ts';
import { getHarness, type Harness } from './harness.ts';
import { waitFor } from './http.ts';
import type { ReceivedMail } from './mailbox.ts';

export const SECRETS_KEY = 'tB9x2LqV7mZ4rK1wP8sD5nH3jF6gC0yQ';
const WIDTHS = [390, 1280] as const;

/** The actions of the Security page's audit rows, top to bottom. */
export async function auditActions(page: Page): Promise<(string | null)[]> {
  const rows = page.locator('#audit tbody tr');
  return Promise.all(Array.from({ length: await rows.count() }, (_, i) => rows.nth(i).getAttribute('data-action')));
}

export interface SecurityDashboard extends Pick<DashboardBrowser, 'base' | 'mailbox'> {
  /** The suite's harness, once the file's hooks have run. */
  readonly h: Harness;
  /** A fresh browser profile of this width, with a user agent the audit log should show. */
  open: (
    width: number,
    userAgent?: string,
  ) => Promise<{
    context: Awaited<ReturnType<DashboardBrowser['browser']['newContext']>>;
    page: Page;
    userAgent: string;
  }>;
  /** The newest message to `to` whose subject matches. */
  mailTo: (to: string, subject: RegExp) => Promise<ReceivedMail>;
  /** Checks a page as every dashboard page is checked, and screenshots it at both widths. */
  checkPage: (page: Page, lang: Lang, name: string) => Promise<void>;
  /** The merchant and user ids of the user with this email. */
  merchantOf: (email: string) => Promise<{ merchant_id: string; id: string }>;
}

/** Registers the file's hooks (call it in `describe`), as dashboardBrowser does, with the secrets key two-step sign-in needs. */
export function securityDashboard(): SecurityDashboard {
  let h: Harness | undefined;
  const dashboard = dashboardBrowser({ DASHBOARD_SECRETS_KEY: SECRETS_KEY });
  before(async () => {
    h = await getHarness();
  });
  return {
    get h() {
      return h!;
    },
    get base() {
      return dashboard.base;
    },
    get mailbox() {
      return dashboard.mailbox;
    },
    open: async (width, userAgent = `DargahSecurityTest/${randomUUID().slice(0, 8)}`) => {
      const context = dashboard.track(
        await dashboard.browser.newContext({
          viewport: { width, height: 900 },
          userAgent,
          ...(width < 600 ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
        }),
      );
      return { context, page: await context.newPage(), userAgent };
    },
    mailTo: (to, subject) =>
      waitFor(
        `an email to ${to} about ${subject}`,
        () =>
          Promise.resolve(
            dashboard.mailbox.received.filter((m) => m.to.includes(to) && subject.test(m.subject)).at(-1),
          ),
        10_000,
      ),
    checkPage: async (page, lang, name) => {
      await assertLanguage(page, lang);
      await assertNoScript(page, name);
      await assertAccessible(page, name);
      const original = page.viewportSize()!;
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        await screenshot(page, `dashboard-security-${lang}-${width}-${name}`);
      }
      await page.setViewportSize(original);
    },
    merchantOf: async (email) =>
      h!.db.selectFrom('users').select(['merchant_id', 'id']).where('email', '=', email).executeTakeFirstOrThrow(),
  };
}
