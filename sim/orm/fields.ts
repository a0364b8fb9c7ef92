/**
 * Field definitions, built from the `fields_get` attributes of the seed, and the stored form of a
 * value: scalars as plain JS values (`false` for an empty char/date/many2one...), many2one as an id,
 * x2many as an id list. Floats are stored as JS numbers and always go out as Python floats.
 */
import { PyFloat, type Struct, type Value } from '../../src/value.ts';

/** A stored value: `false` is Odoo's empty value for everything but numbers and x2many. */
export type Stored = string | number | boolean | number[];

/** What the simulator knows about one field. */
export interface FieldDef {
  name: string;
  type: string;
  string: string;
  relation: string | undefined;
  /** The inverse many2one of a one2many. */
  relationField: string | undefined;
  required: boolean;
  readonly: boolean;
  store: boolean;
  searchable: boolean;
  sortable: boolean;
  groupable: boolean;
  translate: boolean;
  /** Selection keys, in declaration order. */
  selection: string[] | undefined;
  /** `[precision, scale]` for floats with a fixed precision. */
  digits: [number, number] | undefined;
  size: number | undefined;
  /** The `fields_get` attributes as captured, returned as-is by fields_get. */
  attrs: Struct;
}

// many2one_reference (ir.model.data.res_id) is an Integer subclass in Odoo: an id, 0 when empty
const numericTypes = new Set(['integer', 'many2one_reference', 'float', 'monetary']);
const relationalTypes = new Set(['many2one', 'one2many', 'many2many']);

export const isNumeric = (f: FieldDef): boolean => numericTypes.has(f.type);

/**
 * A field's `aggregator`: the recorded attribute, else Odoo's default for numbers (`sum`; the
 * recorded `id` and `sequence` fields aggregate nothing in the databases the seed comes from).
 */
export function aggregatorOf(f: FieldDef): string | undefined {
  const given = f.attrs.get('aggregator');
  if (typeof given === 'string') return given;
  return isNumeric(f) && f.name !== 'id' && f.name !== 'sequence' ? 'sum' : undefined;
}
export const isRelational = (f: FieldDef): boolean => relationalTypes.has(f.type);
export const isX2many = (f: FieldDef): boolean => f.type === 'one2many' || f.type === 'many2many';
export const isFloat = (f: FieldDef): boolean => f.type === 'float' || f.type === 'monetary';
/** Char-like fields, where `= False` also matches the empty string. */
export const isTextual = (f: FieldDef): boolean => f.type === 'char' || f.type === 'text' || f.type === 'html';

function attrBool(attrs: Struct, key: string, dflt: boolean): boolean {
  const v = attrs.get(key);
  return typeof v === 'boolean' ? v : dflt;
}

/** A stored field's `fields_get` attributes as Odoo 19 answers them for a plain field, with `extra` on top. */
export function fieldAttrs(type: string, string: string, extra: Record<string, Value> = {}): Map<string, Value> {
  return new Map<string, Value>(
    Object.entries({
      type,
      string,
      required: false,
      readonly: false,
      store: true,
      searchable: true,
      sortable: true,
      groupable: true,
      ...extra,
    }),
  );
}

/** Builds a field from its `fields_get` attributes. */
export function fieldFromAttrs(name: string, attrs: Struct): FieldDef {
  const selection = attrs.get('selection');
  const digits = attrs.get('digits');
  const size = attrs.get('size');
  const relation = attrs.get('relation');
  const relationField = attrs.get('relation_field');
  return {
    name,
    type: String(attrs.get('type')),
    string: String(attrs.get('string') ?? name),
    relation: typeof relation === 'string' ? relation : undefined,
    relationField: typeof relationField === 'string' ? relationField : undefined,
    required: attrBool(attrs, 'required', false),
    readonly: attrBool(attrs, 'readonly', false),
    store: attrBool(attrs, 'store', true),
    searchable: attrBool(attrs, 'searchable', true),
    sortable: attrBool(attrs, 'sortable', true),
    groupable: attrBool(attrs, 'groupable', true),
    translate: attrBool(attrs, 'translate', false),
    selection: Array.isArray(selection) ? selection.map((pair) => String((pair as Value[])[0])) : undefined,
    digits: Array.isArray(digits) && typeof digits[0] === 'number' && typeof digits[1] === 'number' ? [digits[0], digits[1]] : undefined,
    size: typeof size === 'number' ? size : undefined,
    attrs,
  };
}

/** The value a new record gets for a field nobody set: `false`, `0`/`0.0`, or `[]`. */
export function emptyStored(f: FieldDef): Stored {
  if (isX2many(f)) return [];
  if (isNumeric(f)) return 0;
  return false;
}

/** A number from an int, float or big int value; undefined for anything else. */
export function numberOf(v: Value): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof PyFloat) return v.value;
  return undefined;
}

/** A seed value (search_read output) in stored form; many2one names are kept by the caller. */
export function storedFromSeed(f: FieldDef, v: Value): Stored {
  if (f.type === 'many2one') return Array.isArray(v) ? (numberOf(v[0] as Value) ?? false) : false;
  if (isX2many(f)) return Array.isArray(v) ? v.map((x) => numberOf(x) ?? 0) : [];
  if (isNumeric(f)) return numberOf(v) ?? 0;
  if (f.type === 'boolean') return v === true;
  if (typeof v === 'string') return v;
  return false;
}

/** A stored scalar as JSON-2 returns it (floats as floats, empty as `false`); not for relational fields. */
export function scalarToValue(f: FieldDef, v: Stored): Value {
  if (isFloat(f)) return new PyFloat(typeof v === 'number' ? v : 0);
  if (Array.isArray(v)) return v;
  return v;
}
