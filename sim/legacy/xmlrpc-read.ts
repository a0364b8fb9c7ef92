/**
 * The simulator's own reader of an XML-RPC `methodCall` (Odoo: `addons/rpc/controllers/xmlrpc.py`: `xmlrpc.client.loads` with
 * `use_datetime=True`). Written apart from the gateway's decoder on purpose: shadow mode compares the
 * gateway's answers with these endpoints' answers, so the two must not share a codec. It reads the
 * well-formed requests legacy clients send; anything else is the ExpatError-like fault Odoo gives.
 */
import { intFromBigInt, markNonStringNames, PyBinary, PyFloat, type Struct, type Value } from '../../src/value.ts';
import { pyStr } from '../python-repr.ts';
import { builtinName } from './services.ts';

/** A request this reader cannot take: Odoo answers it with fault 1 naming `pythonName`. */
export class XmlRpcReadError extends Error {
  override name = 'XmlRpcReadError';
  constructor(
    message: string,
    /** The exception Python raises: expat's for XML errors, ValueError for a bad date. */
    readonly pythonName = 'xml.parsers.expat.ExpatError',
  ) {
    super(message);
  }
}

/** A decoded call. */
export interface XmlRpcCall {
  methodName: string;
  params: Value[];
}

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Characters XML 1.0 allows (expat refuses a reference to any other). */
function isXmlChar(cp: number): boolean {
  return (
    cp === 0x9 ||
    cp === 0xa ||
    cp === 0xd ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

/** Reads tags left to right; comments and processing instructions are skipped. */
class Cursor {
  at = 0;
  constructor(private readonly xml: string) {}

  /** expat's position text: `line L, column C` (columns from 0). */
  where(offset: number): string {
    const before = this.xml.slice(0, offset);
    const line = before.split('\n').length;
    return `line ${line}, column ${offset - (before.lastIndexOf('\n') + 1)}`;
  }

  /** Resolves entities and character references of `raw`, which starts at `offset`. */
  private unescape(raw: string, offset: number): string {
    return raw.replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);/g, (all, ref: string, at: number) => {
      if (ref[0] === '#') {
        const cp = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
        if (!isXmlChar(cp)) throw new XmlRpcReadError(`reference to invalid character number: ${this.where(offset + at)}`);
        return String.fromCodePoint(cp);
      }
      const named = entities[ref];
      if (named === undefined) throw new XmlRpcReadError(`undefined entity: ${this.where(offset + at)}`);
      return named;
    });
  }

  private skip(): void {
    for (;;) {
      while (/\s/.test(this.xml[this.at] ?? '')) this.at++;
      if (this.xml.startsWith('<?', this.at)) this.at = this.after('?>');
      else if (this.xml.startsWith('<!--', this.at)) this.at = this.after('-->');
      else return;
    }
  }

  private after(marker: string): number {
    const end = this.xml.indexOf(marker, this.at);
    if (end < 0) throw new XmlRpcReadError('unclosed token');
    return end + marker.length;
  }

  /** The next tag's local name and kind, without consuming it. */
  peek(): { name: string; closing: boolean; empty: boolean } | undefined {
    this.skip();
    const m = /^<(\/?)([\w.:-]+)\s*(\/?)>/.exec(this.xml.slice(this.at, this.at + 200));
    if (m === null) return undefined;
    const name = m[2] as string;
    return { name: name.slice(name.indexOf(':') + 1), closing: m[1] === '/', empty: m[3] === '/' };
  }

  /** Consumes `<name>` (or `<name/>`); returns whether it was empty. */
  open(name: string): boolean {
    const tag = this.peek();
    if (tag === undefined && this.at >= this.xml.length) throw new XmlRpcReadError(`no element found: ${this.where(this.xml.length)}`);
    if (tag === undefined || tag.closing || tag.name !== name) throw new XmlRpcReadError(`expected <${name}>`);
    this.at = this.after('>');
    return tag.empty;
  }

  close(name: string): void {
    const tag = this.peek();
    if (tag === undefined && this.at >= this.xml.length) throw new XmlRpcReadError(`no element found: ${this.where(this.xml.length)}`);
    if (tag === undefined || !tag.closing || tag.name !== name) throw new XmlRpcReadError(`expected </${name}>`);
    this.at = this.after('>');
  }

  /** Character data up to the next tag (CDATA sections included), unescaped. */
  text(): string {
    let out = '';
    for (;;) {
      if (this.xml.startsWith('<![CDATA[', this.at)) {
        const end = this.xml.indexOf(']]>', this.at);
        if (end < 0) throw new XmlRpcReadError('unclosed CDATA section');
        out += this.xml.slice(this.at + 9, end);
        this.at = end + 3;
        continue;
      }
      const next = this.xml.indexOf('<', this.at);
      if (next < 0) throw new XmlRpcReadError(`no element found: ${this.where(this.xml.length)}`);
      out += this.unescape(this.xml.slice(this.at, next), this.at);
      this.at = next;
      if (!this.xml.startsWith('<![CDATA[', this.at)) return out;
    }
  }

  done(): void {
    this.skip();
    if (this.at !== this.xml.length) throw new XmlRpcReadError('junk after document element');
  }
}

const intNames = new Set(['int', 'i1', 'i2', 'i4', 'i8', 'biginteger']);

function scalar(type: string, text: string): Value {
  if (intNames.has(type)) {
    const clean = text.trim().replace(/_/g, '');
    if (!/^[+-]?\d+$/.test(clean)) throw new XmlRpcReadError(`invalid literal for int() with base 10: '${text}'`);
    return intFromBigInt(BigInt(clean));
  }
  switch (type) {
    case 'string':
      return text;
    case 'double':
    case 'float':
      return new PyFloat(Number(text.trim()));
    case 'boolean':
      if (text === '0' || text === '1') return text === '1';
      throw new XmlRpcReadError('bad boolean value', builtinName('TypeError'));
    case 'nil':
      return null;
    case 'base64':
      return new PyBinary(text.replace(/\s+/g, ''));
    case 'dateTime.iso8601': {
      // use_datetime=True gives a datetime; the ORM reads it as Odoo's datetime string
      // datetime.strptime(text, '%Y%m%dT%H:%M:%S')
      const m = /^(\d{4})(\d{2})(\d{2})T(\d{2}):(\d{2}):(\d{2})/.exec(text);
      if (m === null) throw new XmlRpcReadError(`time data '${text}' does not match format '%Y%m%dT%H:%M:%S'`, builtinName('ValueError'));
      if (m[0].length < text.length)
        throw new XmlRpcReadError(`unconverted data remains: ${text.slice(m[0].length)}`, builtinName('ValueError'));
      return `${m[1]}-${m[2]}-${m[3]} ${m[4]}:${m[5]}:${m[6]}`;
    }
    default:
      throw new XmlRpcReadError(`unknown tag '${type}'`);
  }
}

function readValue(c: Cursor): Value {
  if (c.open('value')) return '';
  const before = c.text();
  const tag = c.peek();
  if (tag === undefined) throw new XmlRpcReadError('no element found');
  if (tag.closing) {
    // untyped <value>text</value> is a string
    c.close('value');
    return before;
  }
  let value: Value;
  if (tag.name === 'array') {
    const items: Value[] = [];
    if (!c.open('array')) {
      if (!c.open('data')) {
        while (c.peek()?.name === 'value' && c.peek()?.closing === false) items.push(readValue(c));
        c.close('data');
      }
      c.close('array');
    }
    value = items;
  } else if (tag.name === 'struct') {
    const members: Struct = new Map();
    if (!c.open('struct')) {
      while (c.peek()?.name === 'member' && c.peek()?.closing === false) {
        c.open('member');
        if (c.peek()?.name === 'value') {
          // Python's unmarshaller pairs the stack in order: the value becomes the key, the name its
          // value. Only a str key keeps the struct usable as **kwargs.
          const key = readValue(c);
          const name = readName(c);
          members.set(typeof key === 'string' ? key : pyStr(key), name);
          if (typeof key !== 'string') markNonStringNames(members);
        } else {
          const name = readName(c);
          members.set(name, readValue(c));
        }
        c.close('member');
      }
      c.close('struct');
    }
    value = members;
  } else {
    const empty = c.open(tag.name);
    const text = empty ? '' : c.text();
    if (!empty) c.close(tag.name);
    value = scalar(tag.name, text);
  }
  c.text();
  c.close('value');
  return value;
}

/** Decodes a `methodCall`; throws {@link XmlRpcReadError} for anything else. */
export function readMethodCall(xml: string): XmlRpcCall {
  const c = new Cursor(xml);
  c.open('methodCall');
  c.open('methodName');
  const methodName = c.text();
  c.close('methodName');
  const params: Value[] = [];
  if (c.peek()?.name === 'params' && c.peek()?.closing === false) {
    if (!c.open('params')) {
      while (c.peek()?.name === 'param' && c.peek()?.closing === false) {
        c.open('param');
        params.push(readValue(c));
        c.close('param');
      }
      c.close('params');
    }
  }
  c.close('methodCall');
  c.done();
  return { methodName, params };
}

/** `<name>text</name>` (or `<name/>`): the member name as text. */
function readName(c: Cursor): string {
  const name = c.open('name') ? '' : c.text();
  if (name !== '' || c.peek()?.closing === true) c.close('name');
  return name;
}
