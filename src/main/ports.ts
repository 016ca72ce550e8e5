/** Ports on this machine: a free one for a process of our own, and whether one is taken. */
import { createServer } from 'node:net';

/** A port nothing listens on right now, on 127.0.0.1 (the OS's choice). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
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
