/**
 * The load balancer of the cluster topology: Debian's HAProxy running
 * deploy/haproxy/haproxy.cfg (the same file docker-compose.yml mounts), its
 * addresses given through the environment.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { createConnection } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { provideDebianPackage } from './debian-package.ts';
import { PrerequisiteError } from './temporal-cli.ts';

export const HAPROXY_PATH = '/usr/sbin/haproxy';
export const HAPROXY_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'deploy', 'haproxy');
export const HAPROXY_CONFIG = join(HAPROXY_DIR, 'haproxy.cfg');

/** What the configuration's "${VAR}"s stand for. */
export interface BalancerAddresses {
  API_BIND: string;
  API_A: string;
  API_B: string;
  TEMPORAL_BIND: string;
  FRONTEND_A: string;
  FRONTEND_B: string;
}

/** HAProxy, installed with apt-get when missing (like Chromium); throws why it is unavailable. */
export function provideHaproxy(log: (line: string) => void): string {
  const problem = provideDebianPackage('haproxy', HAPROXY_PATH, log);
  if (problem !== undefined) throw new PrerequisiteError(problem);
  return HAPROXY_PATH;
}

/** Whether something accepts TCP connections at `address` (host:port). */
export function accepts(address: string): Promise<boolean> {
  const colon = address.lastIndexOf(':');
  return new Promise<boolean>((resolve) => {
    const socket = createConnection({ host: address.slice(0, colon), port: Number(address.slice(colon + 1)) }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Checks the configuration, starts HAProxy in the foreground (-db) and waits until both binds accept connections. */
export async function startBalancer(
  addresses: BalancerAddresses,
  logFile: string,
  log: (line: string) => void,
): Promise<ChildProcess> {
  const haproxy = provideHaproxy(log);
  const env = { ...process.env, ...addresses, HAPROXY_ERRORS: HAPROXY_DIR };
  const check = spawnSync(haproxy, ['-c', '-q', '-f', HAPROXY_CONFIG], { env, encoding: 'utf8' });
  if (check.status !== 0)
    throw new PrerequisiteError(`haproxy -c rejected ${HAPROXY_CONFIG}: ${check.stderr}${check.stdout}`);
  const fd = openSync(logFile, 'a');
  let child: ChildProcess;
  try {
    child = spawn(haproxy, ['-db', '-f', HAPROXY_CONFIG], { env, stdio: ['ignore', fd, fd] });
  } finally {
    closeSync(fd);
  }
  const deadline = Date.now() + 30_000;
  while (!((await accepts(addresses.API_BIND)) && (await accepts(addresses.TEMPORAL_BIND)))) {
    if (child.exitCode !== null) throw new PrerequisiteError(`HAProxy exited at start: see ${logFile}`);
    if (Date.now() > deadline) throw new PrerequisiteError(`HAProxy did not listen within 30 s: see ${logFile}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return child;
}
