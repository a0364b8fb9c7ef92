/**
 * LegacyError → the JSON-RPC error envelope: HTTP 200, `code` 0, "Odoo Server Error", and `data`
 * as Odoo's `serialize_exception` builds it (fixtures/conformance/INDEX.md findings §5; 19.0 sends code 0).
 */
import type { LegacyError } from '../../errors.ts';
import { stringifyJson } from '../../json/index.ts';
import type { Struct, Value } from '../../value.ts';

/** The error envelope for `err`, echoing `id`. */
export function encodeError(id: Value, err: LegacyError): string {
  const data: Struct = new Map<string, Value>([
    ['name', err.name],
    ['message', err.message],
    ['arguments', err.arguments],
    ['context', err.context],
    ['debug', err.debug],
  ]);
  const error: Struct = new Map<string, Value>([
    ['code', 0],
    ['message', 'Odoo Server Error'],
    ['data', data],
  ]);
  const envelope: Struct = new Map<string, Value>([
    ['jsonrpc', '2.0'],
    ['id', id],
    ['error', error],
  ]);
  return stringifyJson(envelope, { python: true });
}
