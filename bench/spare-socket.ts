/**
 * An upstream socket connected before it is needed, for the benchmark's yardsticks (socket-relay.ts,
 * node-hops.ts): each `take()` hands out the spare (or connects when there is none) and readies the
 * next one, as the gateway's connect-ahead does for undici.
 */
import { connect, type Socket } from 'node:net';

export function spareSockets(port: number, host = '127.0.0.1') {
  let spare: Promise<Socket> | undefined;
  const ready = () =>
    new Promise<Socket>((resolve, reject) => {
      const s = connect({ port, host, noDelay: true }, () => resolve(s));
      s.once('error', reject);
    });
  return {
    /** Starts connecting the first spare. */
    warm(): void {
      spare ??= ready();
    },
    take(): Promise<Socket> {
      const s = spare ?? ready();
      spare = ready();
      spare.catch(() => (spare = undefined));
      return s;
    },
  };
}
