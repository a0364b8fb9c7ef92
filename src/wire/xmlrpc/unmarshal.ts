/**
 * CPython 3.11's `xmlrpc.client.Unmarshaller` as an event sink: the same value stack, marks and
 * `_value` flag, so that odd-but-well-formed bodies give what Python gives (extra values become extra
 * params, unknown tags are skipped except directly inside `<value>`, odd struct members fail).
 */
import { LegacyError, pythonError } from '../../errors.ts';
import { floatJson } from '../../python/float-repr.ts';
import { floatValueErrorMessage, intValueErrorMessage, parsePythonFloat, parsePythonInt, pyRepr } from '../../python/int-text.ts';
import { hasNonStringNames, markNonStringNames, PyBinary, PyDateTime, PyDecimal, PyFloat, type Struct, type Value } from '../../value.ts';
import { binaryFromBase64Text } from './base64-text.ts';
import { dateTimeFromText } from './datetime-text.ts';
import { decimalFromText } from './decimal-text.ts';
import type { XmlSink } from './expat-parser.ts';
import { reprValue, strValue, typeNameOf } from '../../python/py-repr.ts';

/** What `xmlrpc.client.loads` returns: the params tuple and the method name (None without one). */
export interface Unmarshalled {
  params: Value[];
  method: string | null;
}

// Unmarshaller.dispatch: the tags with an end handler (and allowed directly inside <value>).
const dispatchTags = new Set([
  'nil',
  'boolean',
  'i1',
  'i2',
  'i4',
  'i8',
  'int',
  'biginteger',
  'double',
  'float',
  'bigdecimal',
  'string',
  'name',
  'array',
  'struct',
  'base64',
  'dateTime.iso8601',
  'value',
  'params',
  'fault',
  'methodName',
]);

// Names without a prefix that requests are made of (a cheap membership test skips the split).
const plainTags = new Set([...dispatchTags, 'param', 'member', 'data', 'methodCall', 'methodResponse']);

/** `tag.split(':')[-1]`, the name Python dispatches on. */
function localName(tag: string): string {
  if (plainTags.has(tag)) return tag;
  return tag.indexOf(':') < 0 ? tag : tag.slice(tag.lastIndexOf(':') + 1);
}

/** Collects one request; read the outcome with {@link Unmarshaller.close}. */
export class Unmarshaller implements XmlSink {
  private kind: string | undefined;
  private readonly stack: Value[] = [];
  private readonly marks: number[] = [];
  private text = '';
  private value = false;
  private method: string | null = null;

  start(tag: string): LegacyError | undefined {
    const local = localName(tag);
    if (local === 'array' || local === 'struct') this.marks.push(this.stack.length);
    this.text = '';
    if (this.value && !dispatchTags.has(local)) return responseError(`unknown tag ${pyRepr(local)}`);
    this.value = local === 'value';
    return undefined;
  }

  data(text: string): void {
    this.text += text;
  }

  end(tag: string): LegacyError | undefined {
    const data = this.text;
    const stack = this.stack;
    let item: Value | LegacyError;
    switch (localName(tag)) {
      case 'value':
        if (!this.value) return undefined;
        item = data; // an untyped value is a string
        break;
      case 'string':
      case 'name':
        item = data;
        break;
      case 'int':
      case 'i4':
      case 'i8':
      case 'i1':
      case 'i2':
      case 'biginteger': {
        const n = parsePythonInt(data);
        item = n ?? pythonError('ValueError', intValueErrorMessage(data));
        break;
      }
      case 'boolean':
        item = data === '0' ? false : data === '1' ? true : pythonError('TypeError', 'bad boolean value');
        break;
      case 'double':
      case 'float': {
        const x = parsePythonFloat(data);
        item = x === undefined ? pythonError('ValueError', floatValueErrorMessage(data)) : new PyFloat(x);
        break;
      }
      case 'nil':
        item = null;
        break;
      case 'array':
        item = stack.splice(this.marks.pop()!);
        break;
      case 'struct':
        item = structFrom(stack.splice(this.marks.pop()!));
        break;
      case 'base64':
        item = binaryFromBase64Text(data);
        break;
      case 'dateTime.iso8601': {
        const dt = dateTimeFromText(data);
        if (!(dt instanceof PyDateTime)) return pythonError('ValueError', dt.error);
        stack.push(dt);
        return undefined; // end_dateTime leaves `_value` alone
      }
      case 'bigdecimal': {
        const d = decimalFromText(data);
        item = 'text' in d ? new PyDecimal(d.text) : pythonError('decimal.InvalidOperation', d.error);
        break;
      }
      case 'params':
      case 'fault':
        this.kind = localName(tag);
        return undefined;
      case 'methodName':
        this.method = data;
        this.kind = 'methodName';
        return undefined;
      default:
        return undefined; // unknown tag: ignored
    }
    if (item instanceof LegacyError) return item;
    stack.push(item);
    this.value = false;
    return undefined;
  }

  /** Unmarshaller.close(): the params and method name, or ResponseError / the Fault it raises. */
  close(): Unmarshalled | LegacyError {
    if (this.kind === undefined || this.marks.length > 0) {
      return new LegacyError('internal', {
        name: 'xmlrpc.client.ResponseError',
        message: 'ResponseError()',
        arguments: [],
      });
    }
    if (this.kind === 'fault') return faultFrom(this.stack);
    return { params: this.stack, method: this.method };
  }
}

/** `ResponseError(msg)`: xmlrpc.client.Error prints its repr, `ResponseError("unknown tag 'x'")`. */
function responseError(message: string): LegacyError {
  return new LegacyError('internal', {
    name: 'xmlrpc.client.ResponseError',
    message,
    str: `ResponseError(${pyRepr(message)})`,
  });
}

/**
 * end_struct: `dict[items[i]] = items[i+1]` pair by pair (a repeated name keeps its first place and
 * takes the last value). Hashable non-string names become the text `json.dumps` gives them.
 */
function structFrom(items: Value[]): Struct | LegacyError {
  const dict: Struct = new Map();
  let nonString = false;
  for (let i = 0; i < items.length; i += 2) {
    if (i + 1 >= items.length) return pythonError('IndexError', 'list index out of range');
    const key = items[i]!;
    if (typeof key !== 'string') {
      if (Array.isArray(key) || key instanceof Map || key instanceof PyBinary) {
        return pythonError('TypeError', `unhashable type: '${typeNameOf(key)}'`);
      }
      nonString = true;
    }
    dict.set(nameOf(key), items[i + 1]!);
  }
  if (nonString) markNonStringNames(dict);
  return dict;
}

/** A hashable struct name as text: str as is, the rest as `json.dumps` writes a dict key. */
function nameOf(key: Value): string {
  if (typeof key === 'string') return key;
  if (key === null) return 'null';
  if (typeof key === 'boolean') return key ? 'true' : 'false';
  if (key instanceof PyFloat) return floatJson(key.value);
  return strValue(key);
}

/** `raise Fault(**self._stack[0])`: a fault document is an error whatever it holds. */
function faultFrom(stack: Value[]): LegacyError {
  if (stack.length === 0) return pythonError('IndexError', 'list index out of range');
  const fault = stack[0]!;
  if (!(fault instanceof Map)) {
    return pythonError('TypeError', `xmlrpc.client.Fault() argument after ** must be a mapping, not ${typeNameOf(fault)}`);
  }
  if (hasNonStringNames(fault)) return pythonError('TypeError', 'keywords must be strings');
  const missing = ['faultCode', 'faultString'].filter((k) => !fault.has(k));
  if (missing.length === 2) {
    return pythonError('TypeError', "Fault.__init__() missing 2 required positional arguments: 'faultCode' and 'faultString'");
  }
  if (missing.length === 1) {
    return pythonError('TypeError', `Fault.__init__() missing 1 required positional argument: '${missing[0]}'`);
  }
  const text = `<Fault ${strValue(fault.get('faultCode')!)}: ${reprValue(fault.get('faultString')!)}>`;
  return new LegacyError('internal', { name: 'xmlrpc.client.Fault', message: text, arguments: [] });
}
