/**
 * A page stylesheet served by the gateway itself (CSP `style-src 'self'`):
 * the shared base (assets/base.css beside this file) followed by the
 * stylesheet's own rules, under a URL that carries a hash of the content so
 * browsers may cache it for good.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const base = readFileSync(fileURLToPath(new URL('./assets/base.css', import.meta.url)));

export interface Stylesheet {
  path: string;
  type: string;
  content: Buffer;
  /** `path?v=<hash>`: the address pages link to. */
  href: string;
}

export function stylesheet(path: string, own: Buffer): Stylesheet {
  const content = Buffer.concat([base, Buffer.from('\n'), own]);
  return {
    path,
    type: 'text/css; charset=utf-8',
    content,
    href: `${path}?v=${createHash('sha256').update(content).digest('hex').slice(0, 12)}`,
  };
}
