/**
 * Raw HTTP helpers for passthrough tests: a request whose body the test writes chunk by chunk, a
 * response read chunk by chunk, and an upgrade request on a bare socket (fetch can do none of these).
 */
import { request, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';

/** A POST whose body is written by the test; `end()` resolves with the answer. */
export function openUpload(url: string, headers: Record<string, string> = {}) {
  const req = request(url, { method: 'POST', headers: { 'content-type': 'application/octet-stream', ...headers } });
  const answer = new Promise<{ status: number; headers: IncomingMessage['headers']; text: string }>((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
  return {
    write: (chunk: Buffer) => new Promise<void>((resolve, reject) => req.write(chunk, (err) => (err ? reject(err) : resolve()))),
    end() {
      req.end();
      return answer;
    },
    /** The client leaves midway: the connection is closed, the answer never read. */
    abort() {
      answer.catch(() => undefined);
      req.destroy();
    },
  };
}

/** A GET whose answer the test reads as it arrives. */
export function openDownload(url: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(url, (res) => resolve(res));
    req.on('error', reject);
    req.end();
  });
}

/** Sends `GET <path>` with `Upgrade: websocket` on a bare socket; resolves with the answer's status line. */
export function upgradeStatusLine(host: string, port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, host, () => {
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: ${host}:${port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
          'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
      );
    });
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      const end = text.indexOf('\r\n');
      if (end !== -1) {
        socket.destroy();
        resolve(text.slice(0, end));
      }
    });
    socket.on('error', reject);
  });
}

/** An answer read as an HTTP/1.0 client reads it: the head parsed, the body everything up to the close. */
export interface Http10Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * Sends one HTTP/1.0 request on a bare socket and reads the answer to the end of the connection,
 * as an HTTP/1.0 client must when no Content-Length is given: chunked framing, which such a client
 * cannot decode, stays in the body. A Content-Length cuts the body at that length.
 */
export function http10Request(
  url: string,
  method: string,
  path: string,
  body = '',
  headers: Record<string, string> = {},
): Promise<Http10Answer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      const lines = [`${method} ${path} HTTP/1.0`, `Host: ${hostname}:${port}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
      if (body !== '') lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
      socket.write(`${lines.join('\r\n')}\r\n\r\n${body}`);
    });
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const all = Buffer.concat(chunks);
      const end = all.indexOf('\r\n\r\n');
      if (end === -1) return reject(new Error(`no answer head: ${all.toString('latin1').slice(0, 200)}`));
      const [statusLine, ...headerLines] = all.subarray(0, end).toString('latin1').split('\r\n');
      const parsed: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        parsed[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      let rest = all.subarray(end + 4);
      if (parsed['content-length'] !== undefined) rest = rest.subarray(0, Number(parsed['content-length']));
      resolve({ status: Number(statusLine?.split(' ')[1]), headers: parsed, body: rest });
    });
  });
}
