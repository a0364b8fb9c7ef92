/**
 * Lossless JSON parsing (docs/architecture.md §2): integers keep every digit, a
 * number written with `.` or an exponent stays a float ({@link PyFloat}), objects become `Map`s in
 * member order (integer-like keys included). Accepts what Python's `json.loads` accepts, including
 * `NaN` and `Infinity`, and reports errors with Python's wording.
 */
import { intFromBigInt, PyFloat, type Struct, type Value } from '../value.ts';
import { scanNumber } from './number-token.ts';

/** A malformed JSON text, with Python's `json.JSONDecodeError` wording and position. */
export class JsonSyntaxError extends SyntaxError {
  constructor(
    readonly reason: string,
    readonly position: number,
    text: string,
  ) {
    super(`${reason}: ${lineColumn(text, position)} (char ${position})`);
    this.name = 'JsonSyntaxError';
  }
}

function lineColumn(text: string, pos: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < pos; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return `line ${line} column ${pos - lineStart + 1}`;
}

export interface ParseJsonOptions {
  /** Deepest array/object nesting accepted. Default 512; guards the stack against hostile input. */
  maxDepth?: number;
}

/** Parses JSON text into a {@link Value}; throws {@link JsonSyntaxError} on malformed input. */
export function parseJson(text: string, options: ParseJsonOptions = {}): Value {
  const parser = new Parser(text, options.maxDepth ?? 512);
  parser.skipWhitespace();
  const value = parser.value(0);
  parser.skipWhitespace();
  if (parser.pos < text.length) throw new JsonSyntaxError('Extra data', parser.pos, text);
  return value;
}

/**
 * The string literal whose opening quote is at `at`, decoded as {@link parseJson} decodes it, and
 * the index after its closing quote; throws {@link JsonSyntaxError}. For readers that scan JSON
 * without building values (the XML-RPC transcoder) and meet an escape.
 */
export function parseJsonString(text: string, at: number): { value: string; end: number } {
  const parser = new Parser(text, 0);
  parser.pos = at;
  const value = parser.string();
  return { value, end: parser.pos };
}

const SAFE_DIGITS = 15; // any integer of at most 15 digits is exact as a double

class Parser {
  pos = 0;
  constructor(
    readonly text: string,
    readonly maxDepth: number,
  ) {}

  fail(reason: string, at = this.pos): never {
    throw new JsonSyntaxError(reason, at, this.text);
  }

  skipWhitespace(): void {
    const t = this.text;
    let p = this.pos;
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) p++;
      else break;
    }
    this.pos = p;
  }

  value(depth: number): Value {
    const t = this.text;
    const c = t.charCodeAt(this.pos);
    switch (c) {
      case 0x22: // "
        return this.string();
      case 0x7b: // {
        return this.object(depth + 1);
      case 0x5b: // [
        return this.array(depth + 1);
      case 0x74: // t
        return this.literal('true', true);
      case 0x66: // f
        return this.literal('false', false);
      case 0x6e: // n
        return this.literal('null', null);
      case 0x4e: // N
        return this.literal('NaN', new PyFloat(NaN));
      case 0x49: // I
        return this.literal('Infinity', new PyFloat(Infinity));
    }
    if (c === 0x2d && t.startsWith('-Infinity', this.pos)) return this.literal('-Infinity', new PyFloat(-Infinity));
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.number();
    return this.fail('Expecting value');
  }

  literal(word: string, result: Value): Value {
    if (!this.text.startsWith(word, this.pos)) this.fail('Expecting value');
    this.pos += word.length;
    return result;
  }

  number(): Value {
    const t = this.text;
    const start = this.pos;
    const scanned = scanNumber(t, start);
    if (scanned === undefined) this.fail('Expecting value', start);
    const { end: p, intStart, intEnd, isFloat } = scanned;
    this.pos = p;
    const token = t.slice(start, p);
    if (isFloat) return new PyFloat(Number(token));
    return intEnd - intStart <= SAFE_DIGITS ? Number(token) : intFromBigInt(BigInt(token));
  }

  string(): string {
    const t = this.text;
    const start = this.pos + 1;
    let p = start;
    // Fast path: no escapes and no control characters.
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === 0x22) {
        this.pos = p + 1;
        return t.slice(start, p);
      }
      if (c === 0x5c || c < 0x20 || Number.isNaN(c)) break;
      p++;
    }
    let out = t.slice(start, p);
    for (;;) {
      const c = t.charCodeAt(p);
      if (Number.isNaN(c)) this.fail('Unterminated string starting at', start - 1);
      if (c === 0x22) {
        this.pos = p + 1;
        return out;
      }
      if (c < 0x20) this.fail('Invalid control character at', p);
      if (c !== 0x5c) {
        const next = nextSpecial(t, p);
        out += t.slice(p, next);
        p = next;
        continue;
      }
      const esc = t.charCodeAt(p + 1);
      switch (esc) {
        case 0x22:
          out += '"';
          break;
        case 0x5c:
          out += '\\';
          break;
        case 0x2f:
          out += '/';
          break;
        case 0x62:
          out += '\b';
          break;
        case 0x66:
          out += '\f';
          break;
        case 0x6e:
          out += '\n';
          break;
        case 0x72:
          out += '\r';
          break;
        case 0x74:
          out += '\t';
          break;
        case 0x75: {
          const hex = t.slice(p + 2, p + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('Invalid \\uXXXX escape', p + 1);
          out += String.fromCharCode(parseInt(hex, 16));
          p += 6;
          continue;
        }
        default:
          if (Number.isNaN(esc)) this.fail('Unterminated string starting at', start - 1);
          this.fail('Invalid \\escape', p);
      }
      p += 2;
    }
  }

  array(depth: number): Value[] {
    if (depth > this.maxDepth) this.fail(`nesting depth exceeds ${this.maxDepth}`);
    const out: Value[] = [];
    this.pos++;
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipWhitespace();
      out.push(this.value(depth));
      this.skipWhitespace();
      const c = this.text.charCodeAt(this.pos);
      if (c === 0x2c) {
        this.pos++;
        continue;
      }
      if (c === 0x5d) {
        this.pos++;
        return out;
      }
      this.fail("Expecting ',' delimiter");
    }
  }

  object(depth: number): Struct {
    if (depth > this.maxDepth) this.fail(`nesting depth exceeds ${this.maxDepth}`);
    const out: Struct = new Map();
    this.pos++;
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text.charCodeAt(this.pos) !== 0x22) this.fail('Expecting property name enclosed in double quotes');
      const key = this.string();
      this.skipWhitespace();
      if (this.text.charCodeAt(this.pos) !== 0x3a) this.fail("Expecting ':' delimiter");
      this.pos++;
      this.skipWhitespace();
      out.set(key, this.value(depth));
      this.skipWhitespace();
      const c = this.text.charCodeAt(this.pos);
      if (c === 0x2c) {
        this.pos++;
        continue;
      }
      if (c === 0x7d) {
        this.pos++;
        return out;
      }
      this.fail("Expecting ',' delimiter");
    }
  }
}

/** The next index at or after `p` holding a quote, a backslash or a control character. */
function nextSpecial(t: string, p: number): number {
  let q = p;
  for (;;) {
    const c = t.charCodeAt(q);
    if (c === 0x22 || c === 0x5c || c < 0x20 || Number.isNaN(c)) return q;
    q++;
  }
}
