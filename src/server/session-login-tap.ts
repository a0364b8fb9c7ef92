/**
 * Learns uid → login from web logins that pass through the gateway. Clients such as OdooRPC log
 * in with `POST /web/session/authenticate` (passed through untouched) and then call `/jsonrpc`
 * `object.execute` with the uid and the password: the gateway needs the login of that uid to mint a
 * key. The upstream's own answer (`session_info`: `uid`, `username`, `db`) says whose it is.
 */
import { parseJson } from '../json/index.ts';
import { isInt, isStruct, type Value } from '../value.ts';

/** The only route whose answers are read. */
export const sessionAuthenticatePath = '/web/session/authenticate';

/** A session_info is a few kilobytes; a larger answer is passed through without being read. */
const maxTappedBytes = 1024 * 1024;

/** Called with a login the upstream confirmed for `uid` in `db`, and the `web.base.url` its answer states. */
export type OnSessionLogin = (db: string, uid: number | bigint, login: string, baseUrl: string | undefined) => void;

/**
 * Passes `body` through unchanged while keeping a copy (up to a bound); once it has ended, reads
 * the JSON-RPC result and reports `(db, uid, username)` when the login succeeded.
 */
export function tapSessionLogin(body: ReadableStream<Uint8Array>, onLogin: OnSessionLogin): ReadableStream<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength;
        if (size <= maxTappedBytes) chunks.push(chunk);
        controller.enqueue(chunk);
      },
      flush() {
        if (size > maxTappedBytes) return;
        const info = sessionInfoOf(Buffer.concat(chunks).toString('utf8'));
        if (info) onLogin(info.db, info.uid, info.login, info.baseUrl);
      },
    }),
  );
}

/** `(db, uid, login, web.base.url)` from a successful authenticate answer, else undefined. */
export function sessionInfoOf(text: string): { db: string; uid: number | bigint; login: string; baseUrl: string | undefined } | undefined {
  let envelope: Value;
  try {
    envelope = parseJson(text, { maxDepth: 64 });
  } catch {
    return undefined;
  }
  const result = isStruct(envelope) ? envelope.get('result') : undefined;
  if (result === undefined || !isStruct(result)) return undefined;
  const uid = result.get('uid') as Value;
  const login = result.get('username') as Value;
  const db = result.get('db') as Value;
  if (uid === undefined || !isInt(uid) || typeof login !== 'string' || typeof db !== 'string' || login === '' || db === '')
    return undefined;
  const baseUrl = result.get('web.base.url');
  return { db, uid, login, baseUrl: typeof baseUrl === 'string' && baseUrl !== '' ? baseUrl : undefined };
}
