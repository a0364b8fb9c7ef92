/**
 * Sends one recorded request over real HTTP, as the recorded client sent it: same method, path and
 * body bytes, the client's end-to-end headers (Content-Type, User-Agent, Accept-Encoding, …) and no
 * others. Uses `node:http` so nothing is added (no `fetch` defaults) and nothing is decoded (a
 * gzipped answer would show as such).
 */
import { request } from 'node:http';

/** A request as the runner sends it. */
export interface OutgoingRequest {
  method: string;
  path: string;
  headers: [string, string][];
  body: string;
  /** Send an empty body without `Content-Length` (as a client that sent none did). */
  omitContentLength?: boolean;
}

/** What came back. */
export interface HttpAnswer {
  status: number;
  /** Response headers, lower-case names (repeated ones joined with `, `). */
  headers: Record<string, string>;
  contentType: string;
  body: string;
}

// RFC 9110 §7.6.1 hop-by-hop headers, plus those the HTTP client computes itself.
const notForwarded = new Set([
  'host',
  'content-length',
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
]);

/** The recorded request headers a replay sends: everything end-to-end, in recorded order. */
export function headersToSend(recorded: readonly [string, string][]): [string, string][] {
  return recorded.filter(([name]) => !notForwarded.has(name.toLowerCase()));
}

/** The body bytes of a recorded text body: in the charset its XML declaration names, else UTF-8. */
export function encodeBody(text: string): Buffer {
  const declared = /^<\?xml[^>]*encoding=["']([^"']+)["']/.exec(text)?.[1]?.toLowerCase();
  if (declared === 'iso-8859-1' || declared === 'latin-1' || declared === 'latin1') return Buffer.from(text, 'latin1');
  return Buffer.from(text, 'utf8');
}

/** Sends `req` to `baseUrl` and reads the whole answer as UTF-8 text. */
export function sendRequest(baseUrl: string, req: OutgoingRequest): Promise<HttpAnswer> {
  const url = new URL(req.path, baseUrl);
  const body = encodeBody(req.body);
  const headers: Record<string, string> = {};
  for (const [name, value] of req.headers) headers[name] = value;
  const hasBody = req.body.length > 0 || (req.method === 'POST' && req.omitContentLength !== true);
  if (hasBody) headers['Content-Length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const r = request(url, { method: req.method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const out: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
        resolve({
          status: res.statusCode ?? 0,
          headers: out,
          contentType: out['content-type'] ?? '',
          body: Buffer.concat(chunks).toString('utf8'),
        });
      });
    });
    r.on('error', reject);
    // No body and no Content-Length: also no chunked framing (Node would default to it for POST).
    if (!hasBody) (r as unknown as { useChunkedEncodingByDefault: boolean }).useChunkedEncodingByDefault = false;
    if (hasBody) r.end(body);
    else r.end();
  });
}
