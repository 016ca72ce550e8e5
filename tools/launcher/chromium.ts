/**
 * The browser of the end-to-end tests: Debian's `chromium` package, driven by
 * playwright-core (which never downloads a browser of its own). `npm test`
 * installs the package when it is missing and the machine allows it; when it
 * cannot, the browser suites fail with the reason (they never skip).
 */
import { provideDebianPackage } from './debian-package.ts';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Headless, and quiet: no background downloads, updates or sync traffic off the loopback. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-gpu',
];

/** Set by `npm test` when Chromium could not be provided; the browser suites fail with it. */
export const CHROMIUM_PROBLEM_ENV = 'DARGAH_CHROMIUM_PROBLEM';

/** Installs Chromium with apt-get if it is missing; answers why it is unavailable, or undefined when it is there. */
export function provideChromium(log: (line: string) => void): string | undefined {
  return provideDebianPackage('chromium', CHROMIUM_PATH, log);
}
