/**
 * Which webhook URLs the gateway will send to. A webhook makes our servers
 * send requests to an address a merchant chose, so addresses inside our own
 * network (loopback, private, link-local, CGNAT, multicast, unspecified and
 * the other special ranges, IPv4 and IPv6 alike, IPv4-mapped IPv6 included)
 * are refused: the server-side request forgery defence. The check runs when
 * an endpoint is created and again before every delivery, and the delivery
 * connects to the very address that was checked, so a DNS answer that
 * changes in between (DNS rebinding) cannot redirect it.
 */
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import type { Config } from '../config.ts';
import type { KeyMode } from '../domain/merchant.ts';

export type Resolver = (host: string) => Promise<string[]>;

export const systemResolver: Resolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

export interface UrlPolicy {
  /** Test mode only: http(s)://localhost, on any port, for local development. */
  allowLoopbackInTest: boolean;
  /** Ports allowed besides 443 and 80. */
  allowedPorts?: readonly number[];
  resolve?: Resolver;
}

/** Ports every webhook URL may use: HTTPS and HTTP's own, never a database's or an admin console's. */
export const DEFAULT_WEBHOOK_PORTS: readonly number[] = [443, 80];

/** The policy the configuration asks for. */
export function webhookUrlPolicy(config: Pick<Config, 'WEBHOOK_ALLOW_LOOPBACK_IN_TEST' | 'WEBHOOK_ALLOWED_PORTS'>, resolve?: Resolver): UrlPolicy {
  const allowedPorts = config.WEBHOOK_ALLOWED_PORTS.split(',').filter((p) => p !== '').map(Number);
  return { allowLoopbackInTest: config.WEBHOOK_ALLOW_LOOPBACK_IN_TEST, allowedPorts, ...(resolve === undefined ? {} : { resolve }) };
}

/** A URL that passed the policy, with the checked address to connect to. */
export interface CheckedUrl {
  url: URL;
  address: string;
  family: 4 | 6;
}

export class WebhookUrlRefused extends Error {
  override name = 'WebhookUrlRefused';
}

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * `public` for an address on the open internet, otherwise the name of its
 * special range (`loopback`, `private`, `linkLocal`, `carrierGradeNat`, …).
 */
export function addressRange(address: string): string {
  // process() turns an IPv4-mapped IPv6 address (::ffff:10.0.0.1) into the IPv4 address it carries.
  const ip = ipaddr.process(address);
  const range = ip.range();
  if (range !== 'unicast') return range;
  // ipaddr.js calls every unlisted IPv6 address unicast; only 2000::/3 is routed on the internet.
  if (ip.kind() === 'ipv6' && !ip.match(GLOBAL_UNICAST_V6)) return 'reserved';
  return 'public';
}

/** Checks a webhook URL for a key's mode; throws WebhookUrlRefused with the reason. */
export async function checkWebhookUrl(raw: string, mode: KeyMode, policy: UrlPolicy): Promise<CheckedUrl> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookUrlRefused('must be an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new WebhookUrlRefused('must use https');
  if (url.username !== '' || url.password !== '') throw new WebhookUrlRefused('must not contain credentials');
  if (mode === 'live' && url.protocol !== 'https:') throw new WebhookUrlRefused('must use https in live mode');

  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (ipaddr.isValid(host)) {
    addresses = [host];
  } else {
    try {
      addresses = await (policy.resolve ?? systemResolver)(host);
    } catch {
      throw new WebhookUrlRefused(`host ${host} does not resolve`);
    }
    if (addresses.length === 0) throw new WebhookUrlRefused(`host ${host} does not resolve`);
  }
  // Every address the name resolves to must pass: a client may connect to any of them.
  const ranges = addresses.map(addressRange);
  const loopbackAllowed = mode === 'test' && policy.allowLoopbackInTest;
  for (const range of ranges) {
    if (range === 'public' || (range === 'loopback' && loopbackAllowed)) continue;
    throw new WebhookUrlRefused(`must not point to a ${range} address`);
  }
  const loopback = ranges.every((r) => r === 'loopback');
  if (url.protocol === 'http:' && !loopback) {
    throw new WebhookUrlRefused('must use https (http is allowed only for localhost in test mode)');
  }
  // Any other port would let a key probe services that are not web servers (a port scanner with a signature).
  // A developer's own receiver on localhost (allowed in test mode only when the operator turned that on) may use any port.
  const ports = [...DEFAULT_WEBHOOK_PORTS, ...(policy.allowedPorts ?? [])];
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  if (!ports.includes(port) && !(loopback && loopbackAllowed)) {
    throw new WebhookUrlRefused(`must use port ${ports.join(' or ')}`);
  }
  const address = ipaddr.process(addresses[0]!).toString();
  return { url, address, family: ipaddr.parse(address).kind() === 'ipv6' ? 6 : 4 };
}
