/**
 * The browser of the end-to-end tests: Debian's `chromium` package, driven by
 * playwright-core (which never downloads a browser of its own). `npm test`
 * installs the package when it is missing and the machine allows it; when it
 * cannot, the browser suites fail with the reason (they never skip).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Headless, and quiet: no background downloads, updates or sync traffic off the loopback. */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-gpu'];

/** Set by `npm test` when Chromium could not be provided; the browser suites fail with it. */
export const CHROMIUM_PROBLEM_ENV = 'DARGAH_CHROMIUM_PROBLEM';

const has = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;

/** Installs Chromium with apt-get if it is missing; answers why it is unavailable, or undefined when it is there. */
export function provideChromium(log: (line: string) => void): string | undefined {
  if (existsSync(CHROMIUM_PATH)) return undefined;
  const root = process.getuid?.() === 0;
  if (!root || !has('apt-get')) {
    return `Chromium is missing at ${CHROMIUM_PATH} and cannot be installed here (${root ? 'no apt-get' : 'not root'}): install Debian's package with "sudo apt-get install chromium".`;
  }
  log(`Chromium is missing at ${CHROMIUM_PATH}: installing Debian's chromium package with apt-get…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'chromium']]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (result.status !== 0) return `"apt-get ${args.join(' ')}" failed (exit ${result.status ?? result.signal}): install Chromium at ${CHROMIUM_PATH} by hand.`;
  }
  return existsSync(CHROMIUM_PATH) ? undefined : `apt-get installed chromium, but ${CHROMIUM_PATH} is still missing.`;
}
