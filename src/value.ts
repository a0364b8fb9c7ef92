/**
 * The value model every layer shares: what a legacy call carries and what a result holds, with the
 * distinctions Python keeps and JavaScript would lose (int vs float, unbounded ints, dict member
 * order including integer-like keys, datetimes and binaries from XML-RPC).
 *
 * Invariants: a JS `number` is always an integer within the safe range; a `bigint` is an integer
 * outside it (see {@link intFromBigInt}); a float is always a {@link PyFloat}; a dict is a `Map`.
 */

/** A Python `float`. Kept apart from ints so `2240.0` goes out as `<double>`, never `<int>`. */
export class PyFloat {
  constructor(readonly value: number) {}
}

/**
 * An XML-RPC `<dateTime.iso8601>` (a naive `datetime` in Odoo), kept as Odoo's string form
 * `YYYY-MM-DD HH:MM:SS`, which is what JSON-2 expects (Odoo: Odoo 19 risk 9).
 */
export class PyDateTime {
  constructor(readonly odoo: string) {}
}

/** An XML-RPC `<base64>` (`xmlrpc.client.Binary` in Odoo): the base64 text, whitespace removed. */
export class PyBinary {
  constructor(readonly base64: string) {}
}

/** An XML-RPC `<bigdecimal>` (`decimal.Decimal`), kept as its normalized text. */
export class PyDecimal {
  constructor(readonly text: string) {}
}

/** A Python dict: member order kept exactly, any string key allowed (`__proto__`, `"1"`). */
export type Struct = Map<string, Value>;

/** Any value a legacy call or a result can hold. `null` is Python's `None`. */
export type Value = null | boolean | number | bigint | string | PyFloat | PyDateTime | PyBinary | PyDecimal | Value[] | Struct;

/**
 * A string result produced while it is sent: `db.dump`'s base64, read from the upstream backup as it
 * arrives (docs/architecture.md §1, §2). `chunks` yields ASCII text with nothing to escape, once; it throws a
 * LegacyError when the source fails midway, after part of the string may already be on the wire.
 */
export class StreamedString {
  constructor(readonly chunks: AsyncIterable<string>) {}
}

/**
 * An `object` call's result still as the upstream's JSON text: XML-RPC writes it without
 * building a value tree (`wire/xmlrpc/json-transcoder.ts`); any other use calls `value()`, which
 * parses it losslessly and throws the LegacyError a malformed answer stands for.
 */
export class JsonText {
  constructor(
    /** The JSON text (not `text`: a JsonText would then type-check as a PyDecimal). */
    readonly json: string,
    /** The nesting limit the text is parsed with (`--max-depth`). */
    readonly maxDepth: number,
    readonly value: () => Value,
  ) {}
}

/** What a legacy service resolves with: a value, the one streamed string (`db.dump`), or JSON text. */
export type CallResult = Value | StreamedString | JsonText;

/** Normalizes an exact integer: a `number` when it is safe, else the `bigint`. */
export function intFromBigInt(n: bigint): number | bigint {
  return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
}

/** True for Python ints (bools excluded, as Odoo's own checks mostly do not care). */
export function isInt(v: Value): v is number | bigint {
  return typeof v === 'number' || typeof v === 'bigint';
}

export function isStruct(v: Value): v is Struct {
  return v instanceof Map;
}

/**
 * Structs whose member names were not all str where the client's own decoder read them (an
 * XML-RPC `<member>` with its `<value>` before its `<name>`): the names are kept as text, and
 * Python's `**kwargs` (`keywords must be strings`) and `Fault(**d)` refuse them.
 */
const withNonStringNames = new WeakSet<Struct>();

export function markNonStringNames(struct: Struct): void {
  withNonStringNames.add(struct);
}

export function hasNonStringNames(struct: Struct): boolean {
  return withNonStringNames.has(struct);
}

/** Builds a struct from plain entries, keeping their order. */
export function struct(entries: Record<string, Value> | Iterable<[string, Value]>): Struct {
  return new Map(Symbol.iterator in entries ? entries : Object.entries(entries));
}

/** The Python type name of a value, as it appears in TypeError messages (`not int`, `not NoneType`). */
export function pyTypeName(v: Value): string {
  if (v === null) return 'NoneType';
  switch (typeof v) {
    case 'boolean':
      return 'bool';
    case 'number':
    case 'bigint':
      return 'int';
    case 'string':
      return 'str';
  }
  if (Array.isArray(v)) return 'list';
  if (v instanceof Map) return 'dict';
  if (v instanceof PyFloat) return 'float';
  if (v instanceof PyDateTime) return 'datetime';
  if (v instanceof PyBinary) return 'Binary';
  return 'Decimal';
}

/**
 * Python truthiness: `None`, `False`, `0`, `0.0`, `''`, `[]`, `{}` are falsy. Odoo relies on it in
 * several places (`args[0]` falsy → no ids, `demo` flags).
 */
export function isTruthy(v: Value): boolean {
  if (v === null || v === false) return false;
  if (v === true) return true;
  switch (typeof v) {
    case 'number':
      return v !== 0;
    case 'bigint':
      return v !== 0n;
    case 'string':
      return v.length > 0;
  }
  if (Array.isArray(v)) return v.length > 0;
  if (v instanceof Map) return v.size > 0;
  if (v instanceof PyFloat) return v.value !== 0;
  return true;
}
