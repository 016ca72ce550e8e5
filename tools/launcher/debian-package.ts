/**
 * Debian packages the test tiers need (Chromium, HAProxy): installed with
 * apt-get when missing and the machine allows it (root, apt-get present).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const has = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;

/** Installs `pkg` if `path` is missing; answers why it is unavailable, or undefined when it is there. */
export function provideDebianPackage(pkg: string, path: string, log: (line: string) => void): string | undefined {
  if (existsSync(path)) return undefined;
  const root = process.getuid?.() === 0;
  if (!root || !has('apt-get')) {
    return `${pkg} is missing at ${path} and cannot be installed here (${root ? 'no apt-get' : 'not root'}): install Debian's package with "sudo apt-get install ${pkg}".`;
  }
  log(`${pkg} is missing at ${path}: installing Debian's ${pkg} package with apt-get…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', pkg]]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (result.status !== 0)
      return `"apt-get ${args.join(' ')}" failed (exit ${result.status ?? result.signal}): install ${pkg} at ${path} by hand.`;
  }
  return existsSync(path) ? undefined : `apt-get installed ${pkg}, but ${path} is still missing.`;
}
