/**
 * Rules on single settings' values that the schema cannot state: a secret that is a placeholder or no
 * secret at all, a network WEBHOOK_ALLOWED_NETWORKS may not list, and how a message may echo a value
 * (a secret never, a URL without its credentials).
 */
import ipaddr from 'ipaddr.js';
import { pspSettings } from './psps/profiles.ts';

/**
 * The ranges WEBHOOK_ALLOWED_NETWORKS may neither cover nor overlap (docs/WEBHOOKS.md): the
 * worker's own host (loopback, the unspecified address, "this network"), link-local (where the
 * clouds' metadata services answer, 169.254.169.254), multicast, broadcast and reserved, and the
 * IPv6 forms that carry an IPv4 address (which would let an IPv6 range reach 127.0.0.1).
 */
const WEBHOOK_NEVER_ALLOWED: readonly [string, string][] = [
  ['0.0.0.0/8', '"this network" (0.0.0.0/8, the unspecified address among it)'],
  ['127.0.0.0/8', 'loopback (127.0.0.0/8)'],
  ['169.254.0.0/16', 'link-local, where cloud metadata answers (169.254.0.0/16)'],
  ['224.0.0.0/4', 'multicast (224.0.0.0/4)'],
  ['240.0.0.0/4', 'reserved and broadcast (240.0.0.0/4, 255.255.255.255)'],
  ['::/128', 'the unspecified address (::)'],
  ['::1/128', 'loopback (::1)'],
  ['::/96', 'IPv4-compatible IPv6 (::/96)'],
  ['::ffff:0:0/96', 'IPv4-mapped IPv6 (::ffff:0:0/96)'],
  ['64:ff9b::/96', 'NAT64, carrying IPv4 (64:ff9b::/96)'],
  ['64:ff9b:1::/48', 'local NAT64, carrying IPv4 (64:ff9b:1::/48)'],
  ['2001::/32', 'Teredo, carrying IPv4 (2001::/32)'],
  ['2002::/16', '6to4, carrying IPv4 (2002::/16)'],
  ['fe80::/10', 'link-local (fe80::/10)'],
  ['ff00::/8', 'multicast (ff00::/8)'],
];

/** The widest network WEBHOOK_ALLOWED_NETWORKS takes, in both families: 10.0.0.0/8 is IPv4's widest private block, fd00::/8 every unique local IPv6 address in use. */
const WEBHOOK_NETWORK_WIDEST_PREFIX = 8;

/** Why a CIDR of WEBHOOK_ALLOWED_NETWORKS is refused (covers or overlaps which special range, or is too wide); undefined when it is not. */
export function specialUseOf(cidr: string): string | undefined {
  const [base, bits] = ipaddr.parseCIDR(cidr);
  if (bits < WEBHOOK_NETWORK_WIDEST_PREFIX) return `is wider than a /${WEBHOOK_NETWORK_WIDEST_PREFIX}`;
  for (const [range, name] of WEBHOOK_NEVER_ALLOWED) {
    const [special, specialBits] = ipaddr.parseCIDR(range);
    if (special.kind() !== base.kind()) continue;
    // Two prefixes overlap exactly when the shorter one holds the other's start.
    if (base.match(special, specialBits) || special.match(base, bits)) return `covers or overlaps ${name}`;
  }
  return undefined;
}

/**
 * Words that mark a value as a placeholder someone forgot to replace
 * (compared without case or punctuation: `Change-Me`, `change_me` and
 * `changeme` alike). Six letters or more, so a random secret practically
 * never contains one by chance.
 */
const PLACEHOLDER_WORDS = [
  'changeme',
  'changethis',
  'placeholder',
  'example',
  'replaceme',
  'replacethis',
  'yoursecret',
  'yourpassword',
  'secrethere',
  'passwordhere',
  'notsecret',
  'insecure',
  'default',
];
/** Whole values that are no secret at all. */
const WEAK_VALUES = new Set([
  'password',
  'passw0rd',
  'secret',
  'dargah',
  'root',
  'admin',
  'mysql',
  'temporal',
  'test',
  '123456',
  '12345678',
  'qwerty',
  'letmein',
]);

/**
 * Why a secret's value is a known placeholder or no secret at all (the
 * problem, never the value), or undefined when it may be used.
 */
export function placeholderProblem(value: string): string | undefined {
  const letters = value.toLowerCase().replace(/[^a-z0-9]/g, '');
  // The word found is not named: it may be most of the secret.
  if (PLACEHOLDER_WORDS.some((w) => letters.includes(w)))
    return 'looks like a placeholder (change-me, example, …): set a random value, e.g. from openssl rand -hex 32';
  if (WEAK_VALUES.has(letters)) return 'is a well-known weak value: set a random value, e.g. from openssl rand -hex 32';
  if (new Set(value).size < 5)
    return 'has fewer than 5 different characters: set a random value, e.g. from openssl rand -hex 32';
  return undefined;
}

/** Settings whose value is a secret: never echoed in a message (the PSPs' passwords and keys among them). */
const SECRET_SETTINGS = new Set([
  'PAGES_CSRF_SECRET',
  'DASHBOARD_SECRETS_KEY',
  'CARD_HASH_KEY',
  'IDENTITY_API_KEY',
  'IDENTITY_SECRET_KEY',
  'SANDBOX_IDENTITY_SECRET_KEY',
  ...pspSettings()
    .filter((s) => s.secret)
    .map((s) => s.name),
]);

/**
 * A setting's value as an error message may echo it: a secret not at all, a
 * URL without its credentials (DATABASE_URL carries a password), even when
 * the URL is malformed.
 */
export function shownValue(name: string, value: string): string {
  if (SECRET_SETTINGS.has(name)) return 'a value that is not shown';
  // Whatever stands before the last @ may be user:password, however malformed the rest.
  return JSON.stringify(
    value.replace(/^([a-z][a-z0-9+.-]*:\/*)?.*@/is, (_, scheme: string | undefined) => `${scheme ?? ''}***@`),
  );
}

/** The database part of a mysql:// URL ('' when the URL does not parse). */
export function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}

/** The password of a mysql:// URL ('' when there is none or the URL does not parse). */
export function passwordOf(url: string): string {
  try {
    return decodeURIComponent(new URL(url).password);
  } catch {
    return '';
  }
}
