/**
 * Whether the client of a call is still there. With a Node response, heard from its `close` event,
 * with the reasons @hono/node-server gives its Request's signal; that signal costs a fetch-style
 * AbortController and an EventTarget listener on every call, where one `close` listener does
 * (issue #41). Without one (`app.request()` in tests), the Request's signal.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface ClientPresence {
  /** True once the client went away before its answer was written. */
  readonly gone: boolean;
  /** Why it went away (the abort reason a call's signal then carries). */
  readonly reason: unknown;
  /** Calls `listener` once if the client goes away later; the returned function stops listening. */
  onGone(listener: () => void): () => void;
  /** An AbortSignal that fires when the client goes away, made on demand (`db` calls combine it). */
  signal(): AbortSignal;
}

/** Why a closed response means a client gone (@hono/node-server's own rule), or undefined when it was answered. */
function goneReason(incoming: IncomingMessage, outgoing: ServerResponse): string | undefined {
  if (incoming.errored) return incoming.errored.toString();
  if (!outgoing.writableFinished) return 'Client connection prematurely closed.';
  return undefined;
}

/** The client behind a Node request and its response. */
export function nodeClientPresence(incoming: IncomingMessage, outgoing: ServerResponse): ClientPresence {
  let reason: string | undefined;
  const gone = () => {
    if (reason === undefined && outgoing.closed) reason = goneReason(incoming, outgoing);
    return reason !== undefined;
  };
  const presence: ClientPresence = {
    get gone() {
      return gone();
    },
    get reason() {
      gone();
      return reason;
    },
    onGone(listener) {
      const onClose = () => {
        if (gone()) listener();
      };
      outgoing.once('close', onClose);
      return () => outgoing.off('close', onClose);
    },
    signal() {
      const controller = new AbortController();
      if (gone()) controller.abort(reason);
      else presence.onGone(() => controller.abort(reason));
      return controller.signal;
    },
  };
  return presence;
}

/** The client behind an AbortSignal (a Web Request's). */
export function signalClientPresence(signal: AbortSignal): ClientPresence {
  return {
    get gone() {
      return signal.aborted;
    },
    get reason() {
      return signal.reason;
    },
    onGone(listener) {
      signal.addEventListener('abort', listener, { once: true });
      return () => signal.removeEventListener('abort', listener);
    },
    signal: () => signal,
  };
}
