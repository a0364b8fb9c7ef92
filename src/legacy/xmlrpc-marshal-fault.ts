/**
 * Results Odoo's XML-RPC marshaller (`OdooMarshaller`, Python's `xmlrpc.client.Marshaller`) refuses,
 * where the JSON-2 answer no longer shows why: JSON has string keys only, and Odoo's `json_default`
 * writes an object it cannot encode as its `str()`. Known from Odoo 19.0's code:
 *
 * - a dict keyed by ids (`dump_struct`: `TypeError: dictionary key must be string`), as some methods
 *   return and some computed binary fields hold;
 * - a properties field's `Property` value, as `copy_data` returns it, which the marshaller dumps as an
 *   instance (`dump_instance` → its `__dict__`, whose `record` is a recordset: `TypeError: cannot
 *   marshal <class 'odoo.orm.models.res.partner'> objects`).
 *
 * The marshaller walks the result in order and fails at the first such value, so the walk does too.
 * JSON-RPC encodes both (str keys, `str(obj)`), as JSON-2 did: only XML-RPC answers change.
 */
import { pythonError, type LegacyError } from '../errors.ts';
import { isStruct, type Value } from '../value.ts';

/** `model.method` whose result is a dict keyed by record ids (`{c.id: {...}}`). */
const idKeyedResults: ReadonlySet<string> = new Set([
  'res.currency.get_all_currencies', // {currency.id: {'name', 'symbol', 'position', 'digits'}}
  'ir.ui.menu.load_menus', // {'root': {...}, menu.id: {...}}
]);

/** Computed binary fields holding a dict keyed by record ids, by model. */
const idKeyedFields: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['account.fiscal.position', new Set(['tax_map', 'account_map'])], // {src_tax.id: [dest ids]}, {src.id: dest.id}
]);

/** `json_default`'s `str()` of a `fields_properties.Property`. */
const propertyText = /^<odoo\.orm\.fields_properties\.Property object at 0x[0-9a-f]+>$/;
const propertyMarker = '<odoo.orm.fields_properties.Property object at 0x';

/** A JSON object key that was an int in Python (`json.dumps` writes `1` as `"1"`). */
const intKey = /^-?\d+$/;

/** Whether the answer may hold such a value: decides, without parsing, whether to look. */
export function mayRefuseMarshal(model: string, method: string, json: string): boolean {
  if (idKeyedResults.has(`${model}.${method}`) || json.includes(propertyMarker)) return true;
  return [...(idKeyedFields.get(model) ?? [])].some((field) => json.includes(`"${field}"`));
}

/** The fault Odoo's XML-RPC answer gives for `result` of `model.method`, if any. */
export function xmlrpcMarshalFault(model: string, method: string, result: Value): LegacyError | undefined {
  const fields = idKeyedFields.get(model);
  const walk = (v: Value, idKeyed: boolean): LegacyError | undefined => {
    if (typeof v === 'string')
      return propertyText.test(v) ? pythonError('TypeError', `cannot marshal <class 'odoo.orm.models.${model}'> objects`) : undefined;
    if (Array.isArray(v)) {
      for (const item of v) {
        const fault = walk(item, false);
        if (fault) return fault;
      }
      return undefined;
    }
    if (!isStruct(v)) return undefined;
    for (const [key, item] of v) {
      if (idKeyed && intKey.test(key)) return pythonError('TypeError', 'dictionary key must be string');
      const fault = walk(item, fields?.has(key) === true);
      if (fault) return fault;
    }
    return undefined;
  };
  return walk(result, idKeyedResults.has(`${model}.${method}`));
}
