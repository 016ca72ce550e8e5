/**
 * A TCP proxy in front of a server that can be frozen: while frozen, it keeps
 * every connection open and accepts new ones but passes no byte either way,
 * which is what clients see of a server stopped with SIGSTOP or cut off by a
 * partition (the kernel still holds the sockets; nobody answers). Thawed, it
 * passes on what it held.
 */
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

export interface FreezableProxy {
  port: number;
  freeze(): void;
  thaw(): void;
  close(): Promise<void>;
}

export async function startFreezableProxy(upstreamPort: number, upstreamHost = '127.0.0.1'): Promise<FreezableProxy> {
  let frozen = false;
  const thawers = new Set<() => void>();
  const sockets = new Set<Socket>();

  /** Copies `from` to `to`, holding the bytes while frozen. */
  const relay = (from: Socket, to: Socket) => {
    const held: Buffer[] = [];
    from.on('data', (chunk: Buffer) => {
      if (frozen) held.push(chunk);
      else to.write(chunk);
    });
    thawers.add(() => {
      for (const chunk of held.splice(0)) to.write(chunk);
    });
  };

  const server = createServer((client) => {
    sockets.add(client);
    client.on('error', () => undefined);
    const link = () => {
      if (client.destroyed) return;
      const upstream = connect(upstreamPort, upstreamHost);
      sockets.add(upstream);
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      relay(client, upstream);
      relay(upstream, client);
    };
    if (!frozen) return link();
    // Accepted (the kernel's backlog does that for a stopped server) but not served until thawed.
    const once = () => {
      thawers.delete(once);
      link();
    };
    thawers.add(once);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    freeze() {
      frozen = true;
    },
    thaw() {
      frozen = false;
      for (const thaw of [...thawers]) thaw();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
