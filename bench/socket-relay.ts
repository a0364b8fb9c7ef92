/**
 * A relay over bare sockets, for `npm run bench:odoo`: no HTTP library, no framework. It reads one
 * request (headers to the blank line, then Content-Length bytes), writes those bytes unchanged to an
 * upstream socket that was connected before the request came, and copies the upstream's bytes back
 * until the upstream closes (Odoo closes after every answer); then the next spare socket is readied.
 * What it costs per call is the least any Node process in the path can add on this machine. It
 * understands only what the benchmark sends (no chunked bodies, no pipelining): it is a yardstick,
 * not a proxy.
 *
 *   node --import tsx bench/socket-relay.ts <upstream port> <port>
 */
import { createServer } from 'node:net';
import { spareSockets } from './spare-socket.ts';

const [upstreamPort, port] = process.argv.slice(2).map(Number) as [number, number];
const upstreamSockets = spareSockets(upstreamPort);

const headEnd = Buffer.from('\r\n\r\n');

createServer({ noDelay: true }, (client) => {
  let buffered = Buffer.alloc(0);
  let busy = false;
  const next = async () => {
    if (busy) return;
    const end = buffered.indexOf(headEnd);
    if (end < 0) return;
    const head = buffered.subarray(0, end).toString('latin1');
    const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
    const total = end + 4 + length;
    if (buffered.length < total) return;
    const request = buffered.subarray(0, total);
    buffered = buffered.subarray(total);
    busy = true;
    const upstream = await upstreamSockets.take();
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    upstream.once('close', () => {
      busy = false;
      void next();
    });
    upstream.write(request);
  };
  client.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    void next();
  });
  client.on('error', () => client.destroy());
}).listen(port, '127.0.0.1', () => {
  upstreamSockets.warm();
  console.log('listening');
});
