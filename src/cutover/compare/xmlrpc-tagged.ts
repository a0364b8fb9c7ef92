/**
 * A small, independent XML-RPC reader for the conformance runner: turns a `methodResponse` (or a
 * `methodCall`) into *tagged* values that keep what a typed client sees — `<int>` vs `<double>` vs
 * `<boolean>` vs `<string>`, struct member order — plus the source span of every value, so the
 * runner can mask volatile values in the raw body and splice substitutions into a request.
 *
 * Deliberately not the product's decoder (docs/architecture.md §9: the yardstick must not share code with what it
 * measures). It accepts well-formed XML-RPC only and throws {@link XmlrpcShapeError} otherwise.
 */
import { intFromBigInt, PyFloat, type Value } from '../../value.ts';

/** A scalar as written: the element's local name (`int`, `double`, `string`, …) and its decoded text. */
export interface TaggedScalar {
  kind: 'scalar';
  /** Local element name; `string` for an untyped `<value>text</value>` (see {@link untyped}). */
  tag: string;
  /** The decoded text content (entities and CDATA resolved); `''` for `<nil/>`. */
  text: string;
  /** True for `<value>text</value>` without a type element. */
  untyped: boolean;
  /** [start, end) of the text content in the source (the whole element for empty ones). */
  span: [number, number];
}

/** An `<array>`: its items in order. */
export interface TaggedArray {
  kind: 'array';
  tag: 'array';
  items: Tagged[];
  span: [number, number];
}

/** A `<struct>`: members in document order (duplicates kept, as a stream of members). */
export interface TaggedStruct {
  kind: 'struct';
  tag: 'struct';
  members: { name: string; value: Tagged }[];
  span: [number, number];
}

/** Any XML-RPC value with its tag. */
export type Tagged = TaggedScalar | TaggedArray | TaggedStruct;

/** A parsed `methodResponse`: the single result, or the fault struct. */
export type TaggedResponse = { kind: 'params'; params: Tagged[] } | { kind: 'fault'; fault: Tagged };

/** A parsed `methodCall`, with the span of each `<param>`'s `<value>` element. */
export interface TaggedCall {
  methodName: string;
  params: { value: Tagged; span: [number, number] }[];
}

/** The text is not the XML-RPC this reader understands; the message says where. */
export class XmlrpcShapeError extends Error {
  override name = 'XmlrpcShapeError';
}

interface Element {
  name: string;
  start: number;
  /** Offset just after the start tag's `>`. */
  contentStart: number;
  selfClosing: boolean;
}

const entityText: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Resolves the five predefined entities and numeric character references. */
export function decodeXmlText(raw: string): string {
  return raw.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, ref: string) => {
    if (ref.startsWith('#x')) return String.fromCodePoint(parseInt(ref.slice(2), 16));
    if (ref.startsWith('#')) return String.fromCodePoint(parseInt(ref.slice(1), 10));
    const named = entityText[ref];
    if (named === undefined) throw new XmlrpcShapeError(`unknown entity ${whole}`);
    return named;
  });
}

const localName = (name: string): string => name.slice(name.indexOf(':') + 1);

class Reader {
  pos = 0;
  constructor(readonly src: string) {}

  fail(what: string): never {
    throw new XmlrpcShapeError(`${what} at offset ${this.pos}: ${JSON.stringify(this.src.slice(this.pos, this.pos + 40))}`);
  }

  /** Skips whitespace, comments and processing instructions between elements. */
  skipMisc(): void {
    for (;;) {
      const m = /^\s*/.exec(this.src.slice(this.pos));
      this.pos += m?.[0].length ?? 0;
      if (this.src.startsWith('<?', this.pos)) {
        const end = this.src.indexOf('?>', this.pos);
        if (end < 0) this.fail('unterminated processing instruction');
        this.pos = end + 2;
      } else if (this.src.startsWith('<!--', this.pos)) {
        const end = this.src.indexOf('-->', this.pos);
        if (end < 0) this.fail('unterminated comment');
        this.pos = end + 3;
      } else return;
    }
  }

  open(expected?: string): Element {
    this.skipMisc();
    const m = /^<([A-Za-z_][\w.:-]*)\s*(\/?)>/.exec(this.src.slice(this.pos));
    if (m === null) this.fail(`expected <${expected ?? 'element'}>`);
    const name = localName(m[1] ?? '');
    if (expected !== undefined && name !== expected) this.fail(`expected <${expected}>, found <${name}>`);
    const start = this.pos;
    this.pos += m[0].length;
    return { name, start, contentStart: this.pos, selfClosing: m[2] === '/' };
  }

  close(el: Element): number {
    this.skipMisc();
    const m = /^<\/([A-Za-z_][\w.:-]*)\s*>/.exec(this.src.slice(this.pos));
    if (m === null || localName(m[1] ?? '') !== el.name) this.fail(`expected </${el.name}>`);
    const end = this.pos;
    this.pos += m[0].length;
    return end;
  }

  peekOpen(): string | undefined {
    const save = this.pos;
    this.skipMisc();
    const m = /^<([A-Za-z_][\w.:-]*)/.exec(this.src.slice(this.pos));
    this.pos = save;
    return m === null ? undefined : localName(m[1] ?? '');
  }

  /** Character data up to the next tag, CDATA sections included; returns decoded text and raw span. */
  text(): { text: string; span: [number, number] } {
    const start = this.pos;
    let out = '';
    for (;;) {
      if (this.src.startsWith('<![CDATA[', this.pos)) {
        const end = this.src.indexOf(']]>', this.pos);
        if (end < 0) this.fail('unterminated CDATA');
        out += this.src.slice(this.pos + 9, end);
        this.pos = end + 3;
        continue;
      }
      const next = this.src.indexOf('<', this.pos);
      if (next < 0) this.fail('unexpected end of document');
      if (next === this.pos) break;
      out += decodeXmlText(this.src.slice(this.pos, next));
      this.pos = next;
    }
    return { text: out, span: [start, this.pos] };
  }

  value(): Tagged {
    const el = this.open('value');
    if (el.selfClosing) return { kind: 'scalar', tag: 'string', text: '', untyped: true, span: [el.start, this.pos] };
    const save = this.pos;
    const before = this.text();
    if (this.src.startsWith('</', this.pos)) {
      this.close(el);
      return { kind: 'scalar', tag: 'string', text: before.text, untyped: true, span: before.span };
    }
    if (before.text.trim() !== '') this.fail('text mixed with a typed value');
    this.pos = save;
    const typed = this.typed();
    this.close(el);
    return typed;
  }

  typed(): Tagged {
    const el = this.open();
    switch (el.name) {
      case 'array': {
        const items: Tagged[] = [];
        if (el.selfClosing) return { kind: 'array', tag: 'array', items, span: [el.start, this.pos] };
        const data = this.open('data');
        if (!data.selfClosing) {
          while (this.peekOpen() === 'value') items.push(this.value());
          this.close(data);
        }
        return { kind: 'array', tag: 'array', items, span: [el.start, this.close(el)] };
      }
      case 'struct': {
        const members: TaggedStruct['members'] = [];
        if (!el.selfClosing) {
          while (this.peekOpen() === 'member') {
            const member = this.open('member');
            const nameEl = this.open('name');
            const name = nameEl.selfClosing ? '' : this.text().text;
            if (!nameEl.selfClosing) this.close(nameEl);
            const value = this.value();
            this.close(member);
            members.push({ name, value });
          }
          return { kind: 'struct', tag: 'struct', members, span: [el.start, this.close(el)] };
        }
        return { kind: 'struct', tag: 'struct', members, span: [el.start, this.pos] };
      }
      default: {
        if (el.selfClosing) return { kind: 'scalar', tag: el.name, text: '', untyped: false, span: [el.start, this.pos] };
        const { text, span } = this.text();
        this.close(el);
        return { kind: 'scalar', tag: el.name, text, untyped: false, span };
      }
    }
  }

  end(): void {
    this.skipMisc();
    if (this.pos !== this.src.length) this.fail('trailing content');
  }
}

/** Parses a `methodResponse`; throws {@link XmlrpcShapeError} when the text is not one. */
export function parseTaggedResponse(xml: string): TaggedResponse {
  const r = new Reader(xml);
  const root = r.open('methodResponse');
  let result: TaggedResponse;
  if (r.peekOpen() === 'fault') {
    const fault = r.open('fault');
    result = { kind: 'fault', fault: r.value() };
    r.close(fault);
  } else {
    const params: Tagged[] = [];
    const paramsEl = r.open('params');
    if (!paramsEl.selfClosing) {
      while (r.peekOpen() === 'param') {
        const p = r.open('param');
        params.push(r.value());
        r.close(p);
      }
      r.close(paramsEl);
    }
    result = { kind: 'params', params };
  }
  r.close(root);
  r.end();
  return result;
}

/** Parses a `methodCall` (a client's request); throws {@link XmlrpcShapeError} when it is not one. */
export function parseTaggedCall(xml: string): TaggedCall {
  const r = new Reader(xml);
  const root = r.open('methodCall');
  const nameEl = r.open('methodName');
  const methodName = r.text().text;
  r.close(nameEl);
  const params: TaggedCall['params'] = [];
  if (r.peekOpen() === 'params') {
    const paramsEl = r.open('params');
    if (!paramsEl.selfClosing) {
      while (r.peekOpen() === 'param') {
        const p = r.open('param');
        r.skipMisc();
        const start = r.pos;
        const value = r.value();
        params.push({ value, span: [start, r.pos] });
        r.close(p);
      }
      r.close(paramsEl);
    }
  }
  r.close(root);
  r.end();
  return { methodName, params };
}

/** The members of a struct as a Map (last duplicate wins, as Python's dict would). */
export function structMembers(value: Tagged): Map<string, Tagged> {
  if (value.kind !== 'struct') return new Map();
  return new Map(value.members.map((m) => [m.name, m.value]));
}

/** A compact, typed rendering for diffs: `<int>44`, `<string>"x"`, `[…]`, `{name: …}`. */
export function renderTagged(value: Tagged, maxChars = 160): string {
  const render = (v: Tagged): string => {
    switch (v.kind) {
      case 'scalar':
        return `<${v.tag}${v.untyped ? ' untyped' : ''}>${JSON.stringify(v.text)}`;
      case 'array':
        return `[${v.items.map(render).join(', ')}]`;
      case 'struct':
        return `{${v.members.map((m) => `${JSON.stringify(m.name)}: ${render(m.value)}`).join(', ')}}`;
    }
  };
  const text = render(value);
  return text.length > maxChars ? `${text.slice(0, maxChars)}…` : text;
}

/**
 * The Python value a tagged value decodes to, in the gateway's value model (ints exact, doubles as
 * `PyFloat`, structs as `Map`); `dateTime.iso8601` and `base64` stay their text. For reading
 * requests (ids, passwords), never for comparing answers.
 */
export function taggedToValue(t: Tagged): Value {
  switch (t.kind) {
    case 'array':
      return t.items.map(taggedToValue);
    case 'struct':
      return new Map(t.members.map((m) => [m.name, taggedToValue(m.value)]));
    case 'scalar':
      switch (t.tag) {
        case 'int':
        case 'i1':
        case 'i2':
        case 'i4':
        case 'i8':
        case 'biginteger':
          return intFromBigInt(BigInt(t.text.trim()));
        case 'double':
        case 'float':
          return new PyFloat(Number(t.text.trim()));
        case 'boolean':
          return t.text.trim() === '1';
        case 'nil':
          return null;
        default:
          return t.text;
      }
  }
}
