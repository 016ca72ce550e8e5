/**
 * Real headless Chromium (Debian's package) through playwright-core, sized
 * like a phone, recording every dialog and console error a page produces.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ARTIFACTS } from './artifacts.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH, CHROMIUM_PROBLEM_ENV } from '../../tools/launcher/chromium.ts';

export const SCREENSHOTS = join(ARTIFACTS, 'screenshots');

/** Fails (never skips) when there is no Chromium, with the reason `npm test` found. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      process.env[CHROMIUM_PROBLEM_ENV] ??
        `Chromium is missing at ${CHROMIUM_PATH}: install Debian's chromium package (apt-get install chromium) or run the suite with npm test as root.`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

export interface PhonePage {
  context: BrowserContext;
  page: Page;
  /** Messages of alert/confirm/prompt dialogs: a script that ran. */
  dialogs: string[];
  /** Console errors and uncaught page errors (a CSP violation is one). */
  errors: string[];
}

/** A fresh browser profile (own cookies) with a 390 px wide phone viewport. */
export async function phonePage(browser: Browser): Promise<PhonePage> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  const dialogs: string[] = [];
  const errors: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, dialogs, errors };
}

export async function screenshot(page: Page, name: string, selector?: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  // One image pixel per CSS pixel: at the phone's device scale (2) a full page took three times as long to encode.
  if (selector === undefined) await page.screenshot({ path, fullPage: true, scale: 'css' });
  else await page.locator(selector).screenshot({ path, scale: 'css' });
  return path;
}

/** On our payment page: Pay → the bank simulator's page → `outcome` → the bank's form back to us. */
export async function payAtBank(page: Page, outcome: 'success' | 'failure' | 'cancel' | 'delay'): Promise<void> {
  await page.locator('#pay').click();
  await page.waitForURL((url) => url.pathname === '/OnlinePG/SendToken');
  await page.locator(`button[value="${outcome}"]`).click();
  await page.locator('#back').click();
}
