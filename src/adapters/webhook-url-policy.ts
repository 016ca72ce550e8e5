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
import { readFileSync } from 'node:fs';
import ipaddr from 'ipaddr.js';
import type { Config } from '../config.ts';
import type { KeyMode } from '../domain/merchant.ts';

export type Resolver = (host: string) => Promise<string[]>;

export const systemResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

export interface UrlPolicy {
  /** Test mode only: http(s)://localhost, on any port, for local development. */
  allowLoopbackInTest: boolean;
  /** Ports allowed besides 443 and 80. */
  allowedPorts?: readonly number[];
  /**
   * Networks of the operator's own that receivers may be in, in both modes, whatever their range: a
   * merchant's server on the operator's network (WEBHOOK_ALLOWED_NETWORKS), for the merchants the operator
   * allowed there (merchants.operator_network_webhooks_at) and nobody else. Live mode still wants https.
   */
  allowedNetworks?: readonly string[];
  /** The certificate authorities (PEM) that receivers on those networks may be signed by, besides the public ones (WEBHOOK_CA_FILE). */
  ca?: string;
  resolve?: Resolver;
}

/** Ports every webhook URL may use: HTTPS and HTTP's own, never a database's or an admin console's. */
export const DEFAULT_WEBHOOK_PORTS: readonly number[] = [443, 80];

/**
 * The policy the configuration asks for, for one merchant: WEBHOOK_ALLOWED_NETWORKS (and its CA) count only
 * when `onOperatorNetwork` says the operator allowed this merchant there (`npm run cli -- merchants
 * allow-operator-network`); for every other merchant, a new sign-up included, receivers must be public.
 */
export function webhookUrlPolicy(
  config: Pick<Config, 'WEBHOOK_ALLOW_LOOPBACK_IN_TEST' | 'WEBHOOK_ALLOWED_PORTS'> &
    Partial<Pick<Config, 'WEBHOOK_ALLOWED_NETWORKS' | 'WEBHOOK_CA_FILE'>>,
  resolve?: Resolver,
  onOperatorNetwork = false,
): UrlPolicy {
  const list = (value: string) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '');
  const allowedPorts = list(config.WEBHOOK_ALLOWED_PORTS).map(Number);
  const caFile = onOperatorNetwork ? (config.WEBHOOK_CA_FILE ?? '') : '';
  const ca = caFile === '' ? undefined : readCaFile(caFile);
  return {
    allowLoopbackInTest: config.WEBHOOK_ALLOW_LOOPBACK_IN_TEST,
    allowedPorts,
    allowedNetworks: onOperatorNetwork ? list(config.WEBHOOK_ALLOWED_NETWORKS ?? '') : [],
    ...(ca === undefined ? {} : { ca }),
    ...(resolve === undefined ? {} : { resolve }),
  };
}

/**
 * webhookUrlPolicy for one merchant, asking `onOperatorNetwork` whether the operator allowed it on
 * WEBHOOK_ALLOWED_NETWORKS (the caller reads the merchant's record: operatorNetworkWebhooksAllowed in
 * src/db/merchants.ts) only when there are such networks: nothing is read otherwise.
 */
export async function merchantWebhookUrlPolicy(
  config: Parameters<typeof webhookUrlPolicy>[0],
  onOperatorNetwork: () => Promise<boolean>,
  resolve?: Resolver,
): Promise<UrlPolicy> {
  const networks = (config.WEBHOOK_ALLOWED_NETWORKS ?? '').trim() !== '';
  return webhookUrlPolicy(config, resolve, networks && (await onOperatorNetwork()));
}

/** The CA file's PEM, read once per path: the policy is built for every attempt. */
const caFiles = new Map<string, string>();
function readCaFile(path: string): string {
  let pem = caFiles.get(path);
  if (pem === undefined) {
    pem = readFileSync(path, 'utf8');
    caFiles.set(path, pem);
  }
  return pem;
}

/** Whether `address` is inside one of the operator's allowed networks (CIDRs, checked valid by the configuration). */
export function inAllowedNetwork(address: string, networks: readonly string[]): boolean {
  const ip = ipaddr.process(address);
  return networks.some((network) => {
    const [base, prefix] = ipaddr.parseCIDR(network);
    return base.kind() === ip.kind() && ip.match(base, prefix);
  });
}

/** A URL that passed the policy, with the checked address to connect to. */
export interface CheckedUrl {
  url: URL;
  address: string;
  family: 4 | 6;
  /** The operator's CA (PEM) to trust besides the public ones: a receiver on the operator's own network. */
  ca?: string;
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
  const operatorNetwork = addresses.every((a) => inAllowedNetwork(a, policy.allowedNetworks ?? []));
  for (const range of ranges) {
    if (range === 'public' || (range === 'loopback' && loopbackAllowed) || operatorNetwork) continue;
    throw new WebhookUrlRefused(`must not point to a ${range} address`);
  }
  const loopback = ranges.every((r) => r === 'loopback');
  // The operator's own network is no exception to https in live mode (checked above); in test mode it is as localhost is.
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
  return {
    url,
    address,
    family: ipaddr.parse(address).kind() === 'ipv6' ? 6 : 4,
    ...(operatorNetwork && policy.ca !== undefined ? { ca: policy.ca } : {}),
  };
}
