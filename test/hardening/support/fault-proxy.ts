/**
 * A fault-injecting HTTP proxy between the gateway and the simulator, with switchable modes:
 * pass-through, refused connections (the port stops listening), connections reset mid-body (the
 * request reached the simulator, its answer is lost), slow headers, slow bodies, 502/503 HTML pages,
 * truncated JSON, and a 401 storm on JSON-2 calls. `setMode('pass')` restores normal service.
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type FaultMode =
  'pass' | 'refuse' | 'reset-mid-body' | 'slow-headers' | 'slow-body' | '502-page' | '503-page' | 'truncated-json' | '401-storm';

export interface FaultProxy {
  url: string;
  mode: FaultMode;
  setMode(mode: FaultMode): Promise<void>;
  /** Requests seen per mode (forwarded or not). */
  seen: Record<string, number>;
  close(): Promise<void>;
}

const htmlPage = (status: number, reason: string) =>
  `<html>\r\n<head><title>${status} ${reason}</title></head>\r\n<body>\r\n<center><h1>${status} ${reason}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;

/** Starts the proxy in front of `target` (pass-through). */
export async function startFaultProxy(target: string, opts: { slowMs: number }): Promise<FaultProxy> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, f: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      f();
    }, ms);
    timers.add(t);
  };
  let server: Server;
  let port = 0;
  const state: FaultProxy = {
    url: '',
    mode: 'pass',
    seen: {},
    async setMode(mode) {
      const was = state.mode;
      state.mode = mode;
      if (mode === 'refuse' && was !== 'refuse') await stopListening();
      if (mode !== 'refuse' && was === 'refuse') await startListening();
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      if (state.mode !== 'refuse') await stopListening();
    },
  };

  /** Forwards the request; `onAnswer` gets the simulator's answer (status, headers, whole body). */
  const forward = (
    req: IncomingMessage,
    res: ServerResponse,
    onAnswer: (status: number, headers: IncomingMessage['headers'], body: Buffer) => void,
  ) => {
    const upstream = request(target + (req.url ?? '/'), { method: req.method, headers: req.headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => onAnswer(answer.statusCode ?? 502, answer.headers, Buffer.concat(chunks)));
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const mode = state.mode;
    state.seen[mode] = (state.seen[mode] ?? 0) + 1;
    const isJson2 = (req.url ?? '').startsWith('/json/2/');
    switch (mode) {
      case 'pass':
      case 'refuse':
        return forward(req, res, (status, headers, body) => res.writeHead(status, headers).end(body));
      case 'reset-mid-body':
        // the simulator runs the call; the gateway gets half the answer, then a reset
        return forward(req, res, (status, headers, body) => {
          res.writeHead(status, { ...headers, 'content-length': String(body.length) });
          res.write(body.subarray(0, Math.floor(body.length / 2)));
          later(20, () => res.socket?.resetAndDestroy());
        });
      case 'slow-headers':
        // nothing comes back before the gateway's timeout; the request is not forwarded
        req.resume();
        return later(opts.slowMs, () => res.destroy());
      case 'slow-body':
        return forward(req, res, (status, headers, body) => {
          res.writeHead(status, { ...headers, 'content-length': String(body.length) });
          res.write(body.subarray(0, 1));
          later(opts.slowMs, () => res.destroy());
        });
      case '502-page':
      case '503-page': {
        req.resume();
        const status = mode === '502-page' ? 502 : 503;
        return res
          .writeHead(status, { 'content-type': 'text/html', server: 'nginx' })
          .end(htmlPage(status, status === 502 ? 'Bad Gateway' : 'Service Temporarily Unavailable'));
      }
      case 'truncated-json':
        return forward(req, res, (status, headers, body) => {
          // half the answer; a short one ("5") becomes an unterminated array
          const cut = body.length < 4 ? Buffer.concat([Buffer.from('['), body]) : body.subarray(0, Math.floor(body.length / 2));
          res.writeHead(status, { ...headers, 'content-length': String(cut.length) }).end(cut);
        });
      case '401-storm':
        if (!isJson2) return forward(req, res, (status, headers, body) => res.writeHead(status, headers).end(body));
        req.resume();
        return res.writeHead(401, { 'content-type': 'application/json; charset=utf-8' }).end(
          JSON.stringify({
            name: 'werkzeug.exceptions.Unauthorized',
            message: 'Invalid apikey',
            arguments: ['Invalid apikey', 401],
            context: {},
            debug: '',
          }),
        );
    }
  };

  async function startListening() {
    server = createServer(handle);
    server.on('connection', (s: Socket) => {
      sockets.add(s);
      s.once('close', () => sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    state.url = `http://127.0.0.1:${port}`;
  }
  async function stopListening() {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    });
  }

  await startListening();
  return state;
}
