/**
 * The bucket a client address is counted in by every per-address limit (the public pages' actions,
 * sign-in, sign-up): an IPv4 client by its address, an IPv6 client by its /64, since one subscriber
 * (a home, a phone, a server) is given at least a /64 and may use any address of it; an IPv4-mapped
 * IPv6 address as the IPv4 address it carries. Counting each IPv6 address apart would give one
 * client 2^64 fresh counters.
 */
import ipaddr from 'ipaddr.js';

/** The prefix an IPv6 client is counted by: the smallest block a subscriber is given. */
export const IPV6_CLIENT_PREFIX = 64;

/** The bucket of `address` (ctx.ip): `192.0.2.7`, `2001:db8:1:2::/64`; what is no address is kept as it is. */
export function clientBucket(address: string): string {
  const text = address.trim();
  if (!ipaddr.isValid(text)) return text;
  const ip = ipaddr.process(text);
  if (ip.kind() === 'ipv4') return ip.toString();
  const parts = (ip as ipaddr.IPv6).parts.slice(0, IPV6_CLIENT_PREFIX / 16);
  const network = new ipaddr.IPv6([...parts, 0, 0, 0, 0]);
  return `${network.toString()}/${IPV6_CLIENT_PREFIX}`;
}
