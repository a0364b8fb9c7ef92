/**
 * A round-robin TCP balancer on loopback, as a load balancer in front of replicas would be: each
 * client connection goes to the next backend; a backend that refuses the connection is skipped (the
 * client never notices). It counts the connections open to each backend, so a test knows what was in
 * flight on a replica it kills.
 */
import { once } from 'node:events';
import { connect, createServer, type Socket } from 'node:net';

export interface RoundRobin {
  url: string;
  /** Connections open right now, per backend port. */
  open(port: number): number;
  /** Connections made to a backend port since the start. */
  routed(port: number): number;
  close(): Promise<void>;
}

export async function startRoundRobin(backends: number[]): Promise<RoundRobin> {
  let next = 0;
  const open = new Map<number, number>(backends.map((p) => [p, 0]));
  const routed = new Map<number, number>(backends.map((p) => [p, 0]));
  const sockets = new Set<Socket>();

  function pipeTo(client: Socket, tries: number): void {
    const port = backends[next++ % backends.length]!;
    const upstream = connect(port, '127.0.0.1');
    let connected = false;
    upstream.once('connect', () => {
      connected = true;
      open.set(port, open.get(port)! + 1);
      routed.set(port, routed.get(port)! + 1);
      upstream.once('close', () => open.set(port, open.get(port)! - 1));
      client.pipe(upstream).pipe(client);
      client.resume();
    });
    upstream.on('error', () => {
      if (!connected && tries + 1 < backends.length) return pipeTo(client, tries + 1); // that replica is gone: the next one
      client.destroy();
    });
    client.on('error', () => upstream.destroy());
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => connected && client.destroy());
  }

  const server = createServer({ pauseOnConnect: true }, (client) => {
    sockets.add(client);
    client.once('close', () => sockets.delete(client));
    pipeTo(client, 0);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    open: (p) => open.get(p) ?? 0,
    routed: (p) => routed.get(p) ?? 0,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
