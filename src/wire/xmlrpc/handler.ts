/**
 * `/xmlrpc/<service>` and `/xmlrpc/2/<service>`: decode → dispatch → encode. Every answer is HTTP
 * 200 `text/xml`, faults included (fixtures/conformance/INDEX.md findings §2): Python clients raise ProtocolError on
 * anything else.
 */
import { isRefusedLogin, targetOf, type CallOrigin, type LegacyCall } from '../../call.ts';
import { LegacyError, pythonError } from '../../errors.ts';
import { JsonText, PyBinary, StreamedString, isStruct, type CallResult, type Value } from '../../value.ts';
import type { CallOutcome, WireResponse } from '../response.ts';
import { reportWhenDone } from '../streamed-body.ts';
import { contentTypeXml } from './content-type.ts';
import { decodeRequest } from './decode.ts';
import { encodeFault, encodeResponse, type MarshalOptions } from './encode.ts';
import { encodeJsonResponse } from './encode-json.ts';
import { encodeStreamedResponse } from './encode-stream.ts';

export interface XmlRpcHandlerDeps {
  dispatch: (call: LegacyCall, origin: CallOrigin) => Promise<CallResult>;
  maxDepth: number;
  marshal: MarshalOptions;
  /** Refuse `<base64>` values as Odoo 19 does instead of sending their base64 text. */
  strictBase64: boolean;
}

/** Creates the handler for one request body of the given dialect and service. */
export function createXmlRpcHandler(deps: XmlRpcHandlerDeps) {
  return async function handleXmlRpc(
    dialect: 'xmlrpc1' | 'xmlrpc2',
    service: string,
    body: Uint8Array,
    origin: CallOrigin,
    report: (outcome: CallOutcome) => void,
  ): Promise<WireResponse> {
    const decoded = decodeRequest(body, dialect, service, { maxDepth: deps.maxDepth });
    if (decoded instanceof LegacyError) {
      report({ service, method: '', error: decoded });
      return answer(encodeFault(decoded, dialect));
    }
    const outcome: CallOutcome = { service, method: decoded.method, ...targetOf(decoded) };
    let encoded: Uint8Array | LegacyError;
    try {
      if (deps.strictBase64 && holdsBinary(decoded.params)) throw binaryRefused();
      const result = await deps.dispatch(decoded, origin);
      if (isRefusedLogin(decoded, result)) outcome.refusedLogin = true;
      // db.dump: the answer goes out while it is produced; its outcome is known at the end.
      if (result instanceof StreamedString) return answer(reportWhenDone(encodeStreamedResponse(result), outcome, report));
      if (result instanceof JsonText) {
        // object calls: the upstream's JSON written as XML without a value tree
        const transcoded = await encodeJsonResponse(result, deps.marshal);
        if (transcoded !== undefined && 'length' in transcoded) {
          // streamed: the outcome is known once the last chunk is out (or the client went away)
          return { ...answer(reportWhenDone(transcoded.body, outcome, report)), headers: { 'content-length': String(transcoded.length) } };
        }
        if (transcoded !== undefined) {
          report(outcome);
          return answer(transcoded.body);
        }
        // declined (malformed JSON, a value Odoo's marshaller refuses): the tree path gives the fault
        encoded = encodeResponse(result.value(), deps.marshal);
      } else encoded = encodeResponse(result, deps.marshal);
    } catch (err) {
      encoded = LegacyError.from(err);
    }
    if (encoded instanceof LegacyError) {
      report({ ...outcome, error: encoded });
      return answer(encodeFault(encoded, dialect));
    }
    report(outcome);
    return answer(encoded);
  };
}

function answer(body: Uint8Array | AsyncIterable<string | Uint8Array>): WireResponse {
  return { status: 200, contentType: contentTypeXml, body };
}

/**
 * What Odoo 19 does with an `xmlrpc.client.Binary` reaching a binary field: Python cannot decode
 * it (corpus types-base64-attachment). Only under `--strict-base64`.
 */
function binaryRefused(): LegacyError {
  return pythonError('TypeError', "argument should be a bytes-like object or ASCII string, not 'Binary'");
}

function holdsBinary(v: Value | Value[]): boolean {
  if (v instanceof PyBinary) return true;
  if (Array.isArray(v)) return v.some(holdsBinary);
  if (isStruct(v)) {
    for (const item of v.values()) if (holdsBinary(item)) return true;
  }
  return false;
}
