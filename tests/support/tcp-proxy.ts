import { type Server, type Socket, createConnection, createServer } from 'node:net';

/**
 * A TCP relay between the service and a server, which a test can cut like a network partition: while cut, the open
 * connections stay open and carry nothing either way (what was sent waits, as in a partition's buffers), and a new
 * connection is accepted but not relayed; healed, everything flows again. Nothing is dropped, so a connection that
 * outlived the partition resumes intact.
 */
export interface TcpProxy {
  /** `host:port` of the relay. */
  readonly address: string;
  cut(): void;
  heal(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let cut = false;
  const sockets = new Set<Socket>();
  const waiting: Array<() => void> = [];
  const relay = (from: Socket, to: Socket) => {
    from.on('data', (chunk: Buffer) => to.write(chunk));
    from.on('end', () => to.end());
    from.on('error', () => to.destroy());
    from.on('close', () => to.destroy());
  };
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    const connect = () => {
      if (client.destroyed) return;
      const upstream = createConnection(target);
      sockets.add(upstream);
      upstream.on('close', () => sockets.delete(upstream));
      relay(client, upstream);
      relay(upstream, client);
    };
    if (cut) {
      client.pause();
      waiting.push(() => {
        connect();
        client.resume();
      });
    } else connect();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    address: `127.0.0.1:${port}`,
    cut: () => {
      cut = true;
      for (const socket of sockets) socket.pause();
    },
    heal: () => {
      cut = false;
      for (const socket of sockets) socket.resume();
      for (const connect of waiting.splice(0)) connect();
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
