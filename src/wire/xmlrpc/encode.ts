/**
 * Value → XML-RPC response bytes, byte for byte as Odoo 19's `dumps()` with `OdooMarshaller(
 * allow_none=False)` writes them (Odoo: `addons/rpc/controllers/xmlrpc.py`, fixtures/conformance/INDEX.md findings §2): one element per
 * line, a blank line before `</methodResponse>`, `&` `<` `>` escaped, control characters other than
 * TAB/LF/CR stripped from strings, datetimes and binaries as strings.
 */
import type { Dialect } from '../../call.ts';
import { LegacyError, pythonError } from '../../errors.ts';
import { floatRepr } from '../../python/float-repr.ts';
import { hasNonStringNames, PyBinary, PyDateTime, PyDecimal, PyFloat, type Value } from '../../value.ts';
import { stringFaultFromError } from './fault-v1.ts';
import { faultFromError } from './fault-v2.ts';
import { nameText, stringText } from './xml-escape.ts';

/** What the marshaller does where Odoo's faults; the defaults are Odoo's behaviour. */
export interface MarshalOptions {
  /** `None`: `fault` (TypeError, as Odoo), `nil` (`<nil/>`, allow_none), `false` (`<boolean>0</boolean>`). */
  nullAs: 'fault' | 'nil' | 'false';
  /** An int outside [−2^31, 2^31−1]: `fault` (OverflowError, as Odoo) or `i8` (`<i8>`). */
  bigIntAs: 'fault' | 'i8';
}

/** Odoo's own marshalling: None and 64-bit ints are faults. */
export const defaultMarshalOptions: MarshalOptions = { nullAs: 'fault', bigIntAs: 'fault' };

const head = '<?xml version="1.0"?>\n<methodResponse>\n';
const tail = '\n</methodResponse>\n';
const maxInt = 2 ** 31 - 1;
const minInt = -(2 ** 31);
/** The text around the one param of a successful answer. */
export const resultHead = head + '<params>\n<param>\n';
export const resultTail = '</param>\n</params>\n' + tail;
/** Containers nested deeper than this fault: CPython's recursive marshaller has long hit its recursion limit. */
export const maxNesting = 1000;

/**
 * The response to a successful call, or the LegacyError Odoo raises while marshalling it (None,
 * an int beyond 32 bits, a Decimal) — checked over the whole value before any byte exists.
 */
export function encodeResponse(value: Value, opts: MarshalOptions): Buffer | LegacyError {
  const out = new Sink(resultHead);
  const err = dump(value, out, opts, 0);
  if (err) return err;
  out.add(resultTail);
  return out.bytes();
}

/**
 * The answer's text, turned into bytes 64 KiB at a time: appending to one string is cheaper than an
 * array of pieces joined at the end, and a large answer never exists as text and bytes at once
 * (the join and its copy were a third of a 2,000-row call's CPU).
 */
class Sink {
  private chunks: Buffer[] | undefined;
  constructor(private text: string) {}
  add(s: string): void {
    this.text += s;
    if (this.text.length >= 65536) {
      (this.chunks ??= []).push(Buffer.from(this.text, 'utf8'));
      this.text = '';
    }
  }
  bytes(): Buffer {
    const last = Buffer.from(this.text, 'utf8');
    return this.chunks === undefined ? last : Buffer.concat([...this.chunks, last]);
  }
}

/**
 * The fault answer for an error: int faultCode on `/xmlrpc/2`, string faultCode on `/xmlrpc`
 * (fault-v2.ts, fault-v1.ts), in the same framing as results.
 */
export function encodeFault(err: LegacyError, dialect: Dialect): Buffer {
  const fault = dialect === 'xmlrpc1' ? stringFaultFromError(err) : faultFromError(err);
  const out = new Sink(head + '<fault>\n');
  dump(new Map<string, Value>(Object.entries(fault)), out, defaultMarshalOptions, 0);
  out.add('</fault>\n' + tail);
  return out.bytes();
}

function dumpString(text: string, out: Sink): void {
  out.add('<value><string>' + stringText(text) + '</string></value>\n');
}

/** Marshaller.__dump, in Python's order, so the first unmarshallable item is the one reported. */
function dump(v: Value, out: Sink, opts: MarshalOptions, depth: number): LegacyError | undefined {
  switch (typeof v) {
    case 'string':
      dumpString(v, out);
      return undefined;
    case 'number':
    case 'bigint':
      if (v > maxInt || v < minInt) {
        if (opts.bigIntAs === 'fault') return pythonError('OverflowError', 'int exceeds XML-RPC limits');
        out.add('<value><i8>' + String(v) + '</i8></value>\n');
      } else out.add('<value><int>' + String(v) + '</int></value>\n');
      return undefined;
    case 'boolean':
      out.add(v ? '<value><boolean>1</boolean></value>\n' : '<value><boolean>0</boolean></value>\n');
      return undefined;
  }
  if (v === null) {
    if (opts.nullAs === 'nil')
      out.add('<value><nil/></value>'); // Python writes no newline here
    else if (opts.nullAs === 'false') out.add('<value><boolean>0</boolean></value>\n');
    else return pythonError('TypeError', 'cannot marshal None unless allow_none is enabled');
    return undefined;
  }
  if (v instanceof PyFloat) {
    out.add('<value><double>' + floatRepr(v.value) + '</double></value>\n');
    return undefined;
  }
  if (depth >= maxNesting) return pythonError('RecursionError', 'maximum recursion depth exceeded while calling a Python object');
  if (Array.isArray(v)) {
    out.add('<value><array><data>\n');
    for (const item of v) {
      const err = dump(item, out, opts, depth + 1);
      if (err) return err;
    }
    out.add('</data></array></value>\n');
    return undefined;
  }
  if (v instanceof Map) {
    out.add('<value><struct>\n');
    // Marshaller.dump_struct refuses a dict whose keys are not str (ints, as a successor's answer can tell)
    if (v.size > 0 && hasNonStringNames(v)) return pythonError('TypeError', 'dictionary key must be string');
    for (const [key, item] of v) {
      out.add('<member>\n<name>' + nameText(key) + '</name>\n');
      const err = dump(item, out, opts, depth + 1);
      if (err) return err;
      out.add('</member>\n');
    }
    out.add('</struct></value>\n');
    return undefined;
  }
  if (v instanceof PyDateTime)
    dumpString(v.odoo, out); // OdooMarshaller.dump_datetime
  else if (v instanceof PyBinary)
    dumpString(v.base64, out); // OdooMarshaller.dump_bytes
  else if (v instanceof PyDecimal) return pythonError('TypeError', "cannot marshal <class 'decimal.Decimal'> objects");
  return undefined;
}
