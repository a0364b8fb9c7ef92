/**
 * XML-RPC request bytes → LegacyCall, as Odoo 19 reads them with CPython 3.11's
 * `xmlrpc.client.loads(data, use_datetime=True)` on expat (docs/architecture.md §2, fixtures/conformance/INDEX.md findings §3).
 *
 * Parser choice: fast-xml-parser is not used. Clients see expat's exact error texts with line and
 * column (`no element found: line 1, column 73`, corpus err-malformed-xml-xmlrpc2), and Python's
 * Unmarshaller semantics depend on expat's event order; fast-xml-parser neither reports expat's
 * messages and positions nor accepts/refuses the same documents (encodings, character references,
 * CR/LF normalisation). So decoding is a port of expat 2.5's tokenizer (expat-scan.ts,
 * expat-prolog-scan.ts) and processors (expat-parser.ts) feeding a port of the Unmarshaller
 * (unmarshal.ts), over one decoded string with charCodeAt/slice scanning: linear in the body, no
 * regex per character, no recursion. test/fixtures-xml/expat-table.json (generated with CPython)
 * is the parity yardstick; test/fixtures-xml/fuzz-diff.ts compares random bodies with python3.
 */
import type { LegacyCall } from '../../call.ts';
import { LegacyError, pythonError } from '../../errors.ts';
import { parseXml } from './expat-parser.ts';
import { Unmarshaller, type Unmarshalled } from './unmarshal.ts';

/** Decoder limits (validated in config). */
export interface DecodeLimits {
  /** Deepest element nesting accepted; deeper documents are refused before Python would read them. */
  maxDepth: number;
}

/** Default element nesting cap: a search_read domain nests about 13 deep; 64 leaves ample room. */
export const defaultMaxDepth = 64;

/**
 * Decodes one request body; never throws. A body Python would refuse gives the same Python
 * exception as a fault-1 LegacyError (expat errors as `xml.parsers.expat.ExpatError`).
 * A body without `<methodName>` gives the error Odoo's dispatch raises for a method of None:
 * `common`/`db` concatenate it (TypeError); elsewhere the call carries the method name `None`,
 * which is what `object`'s NameError and the unknown-service KeyError print.
 */
export function decodeRequest(
  body: Uint8Array,
  dialect: 'xmlrpc1' | 'xmlrpc2',
  service: string,
  limits: DecodeLimits,
): LegacyCall | LegacyError {
  let decoded: Unmarshalled | LegacyError;
  try {
    decoded = unmarshalRequest(body, limits.maxDepth);
  } catch (err) {
    return LegacyError.from(err);
  }
  if (decoded instanceof LegacyError) return decoded;
  if (decoded.method === null && (service === 'common' || service === 'db')) {
    return pythonError('TypeError', 'can only concatenate str (not "NoneType") to str');
  }
  return { dialect, service, method: decoded.method ?? 'None', params: decoded.params };
}

/** `xmlrpc.client.loads(body, use_datetime=True)`: params and method name, or Python's exception. */
export function unmarshalRequest(body: Uint8Array, maxDepth: number): Unmarshalled | LegacyError {
  const sink = new Unmarshaller();
  return parseXml(body, sink, maxDepth) ?? sink.close();
}
