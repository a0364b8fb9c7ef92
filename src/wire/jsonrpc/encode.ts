/**
 * JSON-RPC answers as Odoo writes them: `{"jsonrpc": "2.0", "id": …, "result": …}` with Python's
 * `json.dumps` spacing and raw UTF-8; a `None` result omits the `result` key (Odoo: `odoo/http.py` `JsonRPCDispatcher`).
 */
import { stringifyJson } from '../../json/index.ts';
import type { Struct, Value } from '../../value.ts';

/** The success envelope. */
export function encodeResult(id: Value, result: Value): string {
  const envelope: Struct = new Map<string, Value>([
    ['jsonrpc', '2.0'],
    ['id', id],
  ]);
  if (result !== null) envelope.set('result', result);
  return stringifyJson(envelope, { python: true });
}
