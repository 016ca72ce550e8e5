/**
 * The client's address behind the proxies we run (TRUSTED_PROXIES). Behind
 * HAProxy or a TLS proxy the TCP peer is the proxy for every visitor, so a
 * per-address limit would throttle everyone at once and the audit log would
 * record the proxy. X-Forwarded-For is believed only when the peer is a
 * trusted proxy, and then only as far as trusted proxies wrote it: each
 * proxy appends the address it saw, so the list is read from the right and
 * the first hop that is not a trusted proxy is the client. Whatever a client
 * writes into the header itself stands to the left of that hop and is never
 * read.
 */
import ipaddr from 'ipaddr.js';
import type { Middleware } from 'koa';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** A parsed TRUSTED_PROXIES: whether an address is one of the proxies. */
export type TrustedProxies = (address: ipaddr.IPv4 | ipaddr.IPv6) => boolean;

/** One CIDR or bare address of TRUSTED_PROXIES; undefined when it is neither. */
function rangeOf(entry: string): Range | undefined {
  if (ipaddr.isValidCIDR(entry)) {
    const [address, bits] = ipaddr.parseCIDR(entry);
    // An IPv4 range written as IPv4-mapped IPv6 matches the IPv4 peers it means.
    return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96
      ? [(address as ipaddr.IPv6).toIPv4Address(), bits - 96]
      : [address, bits];
  }
  if (ipaddr.isValid(entry)) {
    const address = ipaddr.process(entry);
    return [address, address.kind() === 'ipv4' ? 32 : 128];
  }
  return undefined;
}

const entries = (list: string) =>
  list
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');

/** TRUSTED_PROXIES (checked by loadConfig) as a test of an address (empty: no proxy is trusted). */
export function trustedProxies(list: string): TrustedProxies {
  const ranges = entries(list).map((entry) => {
    const range = rangeOf(entry);
    if (range === undefined) throw new Error(`TRUSTED_PROXIES: ${JSON.stringify(entry)} is not a CIDR or an address`);
    return range;
  });
  return (address) => ranges.some(([base, bits]) => base.kind() === address.kind() && address.match(base, bits));
}

/** An address as it is compared and shown: IPv4-mapped IPv6 as IPv4; undefined when it is none. */
function parsed(text: string | undefined): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const trimmed = text?.trim() ?? '';
  return ipaddr.isValid(trimmed) ? ipaddr.process(trimmed) : undefined;
}

/**
 * The client's address: the peer itself unless it is a trusted proxy; then
 * the right-most hop of X-Forwarded-For that is not one. A hop a trusted
 * proxy wrote that is not an address (a misconfigured proxy) ends the walk
 * at the proxy that wrote it, never at a value a client chose.
 */
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | undefined,
  trusted: TrustedProxies,
): string {
  let client = parsed(peer);
  if (client === undefined) return peer ?? '';
  const hops = (forwardedFor ?? '').split(',').reverse();
  for (const hop of hops) {
    if (!trusted(client)) break;
    const next = parsed(hop);
    if (next === undefined) break;
    client = next;
  }
  return client.toString();
}

/**
 * Sets `ctx.ip` (Koa's setter) to the client's address for everything after
 * it: the sign-in throttle, the audit log, the request log, rate limits.
 */
export function clientAddressMiddleware(list: string): Middleware {
  const trusted = trustedProxies(list);
  return async (ctx, next) => {
    ctx.request.ip = clientAddress(ctx.req.socket.remoteAddress, ctx.get('x-forwarded-for') || undefined, trusted);
    await next();
  };
}
