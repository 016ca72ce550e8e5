/**
 * A merchant's receiver on the operator's own network (WEBHOOK_ALLOWED_NETWORKS, WEBHOOK_CA_FILE;
 * docs/WEBHOOKS.md#receivers-on-the-operators-network), for the live events no public address on this
 * machine can receive: an https receiver on a loopback address of this process's own (127.64.0.0/10
 * holds one per pid, so parallel runs never meet), on port 443 as a live receiver must be, with a
 * certificate made here by openssl and trusted by the stack as the operator's CA. A merchant's receiver
 * may be there once the operator allowed it (`cli merchants allow-operator-network`). loadConfig refuses
 * a loopback network to an operator; the harness sets this one after loading (harness.ts testConfig).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where a receiver listens (receiver.ts): by default http on 127.0.0.1, any port; or https at a given address and port. */
export interface ReceiverPlace {
  host: string;
  port: number;
  tls?: { certFile: string; keyFile: string };
}

/** This process's own address of the operator's network: 127.64-127.x.y, from the pid. */
export const OPERATOR_NETWORK_ADDRESS = `127.${64 + ((process.pid >> 16) & 63)}.${(process.pid >> 8) & 255}.${process.pid & 255}`;

const dir = join(tmpdir(), `dargah-operator-network-${process.pid}`);
const certFile = join(dir, 'receiver.crt');
const keyFile = join(dir, 'receiver.key');

/** The receiver's certificate (self-signed, for OPERATOR_NETWORK_ADDRESS), made once per process. */
function certificate(): { certFile: string; keyFile: string } {
  if (!existsSync(certFile)) {
    mkdirSync(dir, { recursive: true });
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=Dargah test receiver',
        '-addext',
        `subjectAltName=IP:${OPERATOR_NETWORK_ADDRESS}`,
        '-keyout',
        keyFile,
        '-out',
        certFile,
      ],
      { stdio: 'ignore' },
    );
  }
  return { certFile, keyFile };
}

/** The settings that make OPERATOR_NETWORK_ADDRESS the operator's network, its certificate the operator's CA. */
export function operatorNetworkSettings(): { WEBHOOK_ALLOWED_NETWORKS: string; WEBHOOK_CA_FILE: string } {
  return { WEBHOOK_ALLOWED_NETWORKS: `${OPERATOR_NETWORK_ADDRESS}/32`, WEBHOOK_CA_FILE: certificate().certFile };
}

/** Where a receiver on the operator's network listens: https on its address, port 443. */
export function operatorNetworkPlace(): ReceiverPlace {
  return { host: OPERATOR_NETWORK_ADDRESS, port: 443, tls: certificate() };
}
