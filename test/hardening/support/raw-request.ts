/**
 * One HTTP/1.1 request on a bare socket, written exactly as given (any bytes, any headers, a body in
 * chunks with pauses, a body cut short), and its answer read back as bytes. fetch cannot send
 * wrong framing or trickle a body, so hostile-input and slow-loris cases go through here.
 */
import { connect } from 'node:net';

export interface RawRequest {
  port: number;
  method?: string;
  path: string;
  /** Header lines as sent (`Host` and `Content-Length` are added unless present, case-insensitively). */
  headers?: Array<[string, string]>;
  /** The body, written chunk by chunk. */
  chunks: Buffer[];
  /** Pause before each chunk after the first. */
  chunkDelayMs?: number;
  /** Content-Length sent; default the chunks' total (`null`: none sent). */
  contentLength?: number | null;
  /** Chunked transfer coding: each chunk framed, then the last chunk (`unterminated`: never sent). */
  chunked?: boolean | 'unterminated';
  /** `chunks` hold the whole request, head included: nothing is added (slow headers). */
  raw?: boolean;
  /** After the body: `end` half-closes the socket (a truncated body), `keep` leaves it open. Default `keep`. */
  after?: 'end' | 'keep';
  /** The answer must be complete within this; otherwise `error: 'timeout'`. */
  timeoutMs: number;
}

export interface RawAnswer {
  /** 0 when no status line arrived. */
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** Set when the answer is missing or incomplete: `timeout`, `closed`, or a socket error code. */
  error?: string;
  elapsedMs: number;
}

/** Sends the request and resolves with the answer; never rejects. */
export function rawRequest(req: RawRequest): Promise<RawAnswer> {
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = connect(req.port, '127.0.0.1');
    let received = Buffer.alloc(0);
    let answered = false;
    let settled = false;
    const finish = (answer: Omit<RawAnswer, 'elapsedMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...answer, elapsedMs: performance.now() - started });
    };
    const timer = setTimeout(() => finish({ ...parseAnswer(received), error: 'timeout' }), req.timeoutMs);

    socket.on('data', (chunk: Buffer) => {
      answered = true;
      received = Buffer.concat([received, chunk]);
      const parsed = parseAnswer(received);
      if (parsed.complete) finish(parsed);
    });
    socket.on('end', () => {
      const parsed = parseAnswer(received, true);
      finish(parsed.complete ? parsed : { ...parsed, error: 'closed' });
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      const parsed = parseAnswer(received, true);
      finish(parsed.complete && parsed.status !== 0 ? parsed : { ...parsed, error: err.code ?? err.message });
    });
    socket.on('connect', () => void send());

    async function send() {
      const total = req.chunks.reduce((n, c) => n + c.length, 0);
      const headers = [...(req.headers ?? [])];
      const has = (name: string) => headers.some(([h]) => h.toLowerCase() === name);
      if (!has('host')) headers.unshift(['Host', `127.0.0.1:${req.port}`]);
      if (req.chunked) headers.push(['Transfer-Encoding', 'chunked']);
      const length = req.contentLength === undefined ? (req.chunked ? null : total) : req.contentLength;
      if (length !== null && !has('content-length')) headers.push(['Content-Length', String(length)]);
      const head = `${req.method ?? 'POST'} ${req.path} HTTP/1.1\r\n${headers.map(([h, v]) => `${h}: ${v}\r\n`).join('')}\r\n`;
      if (!req.raw && !write(Buffer.from(head, 'latin1'))) await drained();
      for (const [i, chunk] of req.chunks.entries()) {
        if (i > 0 && req.chunkDelayMs) {
          await new Promise((r) => setTimeout(r, req.chunkDelayMs));
          // Node runs due timers before it reads the socket: a client held off the CPU for longer
          // than the pause would write again before reading an answer that came meanwhile, and a
          // write to a connection the server closed after answering (408) resets it, losing that
          // answer. setImmediate runs after the read.
          await new Promise((r) => setImmediate(r));
        }
        // the server answered (refused the body, timed out): stop sending
        if (answered || settled) return;
        const framed = req.chunked ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]) : chunk;
        if (!write(framed)) await drained();
      }
      if (req.chunked === true && !answered && !settled) write(Buffer.from('0\r\n\r\n'));
      if (req.after === 'end' && !settled) socket.end();
    }
    function write(data: Buffer): boolean {
      if (settled || socket.destroyed) return true;
      return socket.write(data);
    }
    function drained() {
      return new Promise<void>((r) => {
        const done = () => {
          socket.off('drain', done);
          socket.off('close', done);
          r();
        };
        socket.once('drain', done);
        socket.once('close', done);
      });
    }
  });
}

/** Parses a (possibly partial) HTTP/1.1 answer; `atEof` marks the connection closed. */
export function parseAnswer(
  data: Buffer,
  atEof = false,
): { status: number; headers: Record<string, string>; body: Buffer; complete: boolean } {
  const end = data.indexOf('\r\n\r\n');
  if (end === -1) return { status: 0, headers: {}, body: Buffer.alloc(0), complete: false };
  const [statusLine, ...lines] = data.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = data.subarray(end + 4);
  if (headers['transfer-encoding']?.toLowerCase() === 'chunked') {
    const body = dechunk(rest);
    return body === undefined ? { status, headers, body: rest, complete: false } : { status, headers, body, complete: true };
  }
  if (headers['content-length'] !== undefined) {
    const length = Number(headers['content-length']);
    return { status, headers, body: rest.subarray(0, length), complete: rest.length >= length };
  }
  return { status, headers, body: rest, complete: atEof };
}

/** A chunked body decoded, or `undefined` while its last chunk has not arrived. */
function dechunk(data: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd === -1) return undefined;
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (Number.isNaN(size)) return undefined;
    if (size === 0) return data.indexOf('\r\n', lineEnd + 2) === -1 ? undefined : Buffer.concat(parts);
    if (data.length < lineEnd + 2 + size + 2) return undefined;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}
