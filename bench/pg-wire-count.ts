import { once } from 'node:events';
import { type Server, type Socket, connect, createServer } from 'node:net';

/** What clients sent PostgreSQL through the proxy, from its frontend messages (protocol 3). */
export interface WireCounts {
  /** Waits for the server: one per Sync of the extended protocol and one per simple Query (each ends with ReadyForQuery). */
  roundTrips: number;
  /** Statements sent: Parse or simple Query messages. */
  statements: number;
  /** Statements that begin a transaction (BEGIN / START TRANSACTION). */
  transactions: number;
}

export interface CountingProxy {
  /** `url` with its host and port replaced by the proxy's. */
  readonly url: string;
  /** The counts so far (a copy). */
  counts(): WireCounts;
  close(): Promise<void>;
}

const SSL_REQUEST = 80877103;
const GSS_REQUEST = 80877104;
const BEGINS = /^\s*(BEGIN|START\s+TRANSACTION)\b/i;

/** Counts one connection's frontend messages as they pass: the untyped startup packets, then typed messages. */
function counter(counts: WireCounts): (chunk: Buffer) => void {
  let pending = Buffer.alloc(0);
  let startup = true;
  const statement = (text: string) => {
    counts.statements += 1;
    if (BEGINS.test(text)) counts.transactions += 1;
  };
  return (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    for (;;) {
      if (startup) {
        if (pending.length < 8) return;
        const length = pending.readInt32BE(0);
        if (pending.length < length) return;
        const code = pending.readInt32BE(4);
        startup = code === SSL_REQUEST || code === GSS_REQUEST;
        pending = pending.subarray(length);
        continue;
      }
      if (pending.length < 5) return;
      const length = pending.readInt32BE(1);
      if (pending.length < 1 + length) return;
      const type = String.fromCharCode(pending[0] ?? 0);
      const body = pending.subarray(5, 1 + length);
      if (type === 'Q') {
        counts.roundTrips += 1;
        statement(body.toString('utf8', 0, Math.max(0, body.indexOf(0))));
      } else if (type === 'P') {
        const nameEnd = body.indexOf(0);
        statement(body.toString('utf8', nameEnd + 1, body.indexOf(0, nameEnd + 1)));
      } else if (type === 'S') {
        counts.roundTrips += 1;
      }
      pending = pending.subarray(1 + length);
    }
  };
}

/**
 * A TCP proxy in front of PostgreSQL that counts the round trips, statements and transactions of the clients that
 * connect through it (the service's pool), to say what a network hop between the service and its database would add:
 * it adds its latency once per round trip. Used for counting only, never while throughput is measured.
 */
export async function countingProxy(target: string): Promise<CountingProxy> {
  const upstream = new URL(target);
  const counts: WireCounts = { roundTrips: 0, statements: 0, transactions: 0 };
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const db = connect(Number(upstream.port || 5432), upstream.hostname);
    for (const socket of [client, db]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => (socket === client ? db : client).destroy());
    }
    client.on('data', counter(counts));
    client.pipe(db);
    db.pipe(client);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    counts: () => ({ ...counts }),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
