/** Ports on this machine: a free one for a process of our own, and whether one is taken. */
import { randomInt } from 'node:crypto';
import { createServer } from 'node:net';

/**
 * Where freePort looks: below Linux's ephemeral range (32768–60999), from which the kernel takes
 * the local port of every outgoing connection and of every listen on port 0. A port picked there
 * and closed again can be taken by any connection before its process binds it (a MySQL pool's
 * next socket, say), and the process then finds it "in use"; below the range, only another
 * explicit bind can take it.
 */
export const PICKED_PORTS = { first: 20000, last: 32767 } as const;

/** The ports this process has handed out, so that two picks before either bind never coincide. */
const handedOut = new Set<number>();

/** A port nothing listens on right now on 127.0.0.1, for a process of ours that binds it soon (PICKED_PORTS). */
export async function freePort(): Promise<number> {
  const span = PICKED_PORTS.last - PICKED_PORTS.first + 1;
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = PICKED_PORTS.first + randomInt(span);
    if (handedOut.has(port) || (await portInUse(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free port between ${PICKED_PORTS.first} and ${PICKED_PORTS.last} after 200 tries`);
}

/** Whether something already listens on `port` (an address that is not ours is the listener's problem, not "in use"). */
export function portInUse(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) =>
      resolve(host === '127.0.0.1' || error.code === 'EADDRINUSE'),
    );
    server.listen(port, host, () => server.close(() => resolve(false)));
  });
}
