/**
 * `/jsonrpc`: content type → decode → dispatch → encode. Errors after decoding are HTTP 200 error
 * envelopes; a refused body is Werkzeug's 400/415 page, as Odoo answers.
 */
import { isRefusedLogin, targetOf, type CallOrigin, type LegacyCall } from '../../call.ts';
import { LegacyError } from '../../errors.ts';
import { hasLoneSurrogate } from '../../python/lone-surrogate.ts';
import { JsonText, StreamedString, type CallResult, type Value } from '../../value.ts';
import type { CallOutcome, WireResponse } from '../response.ts';
import { reportWhenDone } from '../streamed-body.ts';
import {
  badRequestPage,
  contentTypeJson,
  internalServerErrorPage,
  isJsonRpcContentType,
  unsupportedMediaTypePage,
} from './content-type.ts';
import { BadJsonRpcBody, decodeRequest } from './decode.ts';
import { encodeResult } from './encode.ts';
import { encodeJsonResult } from './encode-json.ts';
import { encodeStreamedResult } from './encode-stream.ts';
import { encodeError } from './fault.ts';

export interface JsonRpcHandlerDeps {
  dispatch: (call: LegacyCall, origin: CallOrigin) => Promise<CallResult>;
  maxDepth: number;
}

const contentTypeHtml = 'text/html; charset=utf-8';

/** Odoo's answer when its JSON cannot be encoded to UTF-8: `json.dumps` keeps lone surrogates. */
const unencodable: WireResponse = { status: 500, contentType: contentTypeHtml, body: internalServerErrorPage };

/** Whether a decoded value holds a string (or a struct name) with a lone surrogate. */
function carriesLoneSurrogate(v: Value): boolean {
  if (typeof v === 'string') return hasLoneSurrogate(v);
  if (Array.isArray(v)) return v.some(carriesLoneSurrogate);
  if (v instanceof Map) return [...v].some(([k, x]) => hasLoneSurrogate(k) || carriesLoneSurrogate(x));
  return false;
}

/** Creates the handler for one request body. */
export function createJsonRpcHandler(deps: JsonRpcHandlerDeps) {
  return async function handleJsonRpc(
    contentType: string | undefined,
    body: Uint8Array,
    origin: CallOrigin,
    report: (outcome: CallOutcome) => void,
  ): Promise<WireResponse> {
    if (!isJsonRpcContentType(contentType)) {
      return {
        status: 415,
        contentType: contentTypeHtml,
        body: unsupportedMediaTypePage(body.length > 0),
        headers: { accept: 'application/json, application/json-rpc' },
      };
    }
    // werkzeug's get_data(as_text=True) keeps a leading BOM, which json.loads refuses ("Invalid JSON data")
    const decoded = decodeRequest(new TextDecoder('utf-8', { fatal: false, ignoreBOM: true }).decode(body), deps.maxDepth);
    if (decoded instanceof BadJsonRpcBody) {
      return { status: 400, contentType: contentTypeHtml, body: badRequestPage(decoded.description) };
    }
    const { id, call } = decoded;
    if (call instanceof LegacyError) {
      report({ service: '', method: '', error: call });
      return { status: 200, contentType: contentTypeJson, body: encodeError(id, call) };
    }
    try {
      const result = await deps.dispatch(call, origin);
      const outcome: CallOutcome = { service: call.service, method: call.method, ...targetOf(call) };
      if (isRefusedLogin(call, result)) outcome.refusedLogin = true;
      // db.dump: the answer goes out while it is produced; its outcome is known at the end.
      if (result instanceof StreamedString)
        return { status: 200, contentType: contentTypeJson, body: reportWhenDone(encodeStreamedResult(id, result), outcome, report) };
      // object calls: the upstream's JSON passed on as it is where that gives the same bytes
      report(outcome);
      if (!(result instanceof JsonText) && carriesLoneSurrogate(result)) return unencodable;
      const body = result instanceof JsonText ? encodeJsonResult(id, result) : encodeResult(id, result);
      return { status: 200, contentType: contentTypeJson, body };
    } catch (err) {
      const error = LegacyError.from(err);
      report({ service: call.service, method: call.method, ...targetOf(call), error });
      // Odoo's JSON-2 failed to encode its answer the way the legacy endpoint would have failed
      if (error.kind === 'upstream_invalid' && carriesLoneSurrogate(call.params)) return unencodable;
      // the same json_default fails on /jsonrpc: non-UTF-8 bytes in the result (a binary field's `raw`)
      if (error.failedEncoding) return unencodable;
      if (carriesLoneSurrogate([error.message, error.debug, ...error.arguments])) return unencodable;
      return { status: 200, contentType: contentTypeJson, body: encodeError(id, error) };
    }
  };
}
