/**
 * JSON text → XML-RPC value text without a value tree: the upstream's JSON-2 answer read token by
 * token and written as `encodeResponse(parseJson(text))` writes it, a chunk at a time (the
 * tree and the whole answer held at once were most of a large call's cost).
 *
 * It declines wherever that pair would not simply write text, and then writes nothing more: JSON
 * `parseJson` refuses, nesting beyond `maxDepth` or the marshaller's limit, a None or an int the
 * marshal options fault on, a repeated member name (the tree keeps one entry for it). The caller then
 * takes the tree path, which gives the exact fault or answer: the transcoder never reproduces an
 * error, it only recognises where one could be.
 */
import { emptyNameHash, hashName, MemberNames, parseJsonString } from '../../json/index.ts';
import { floatRepr } from '../../python/float-repr.ts';
import { maxNesting, type MarshalOptions } from './encode.ts';
import { nameText, stringText } from './xml-escape.ts';
import { isDigit, scanNumber } from '../../json/number-token.ts';

const inArray = 0;
const inObject = 1;
const maxInt = 2 ** 31 - 1;
const minInt = -(2 ** 31);

/**
 * A transcoder's working memory: the kinds of the open containers and their member names. Reusable
 * from one text to the next by transcoders that never overlap (run one after the other, each to its
 * end or its decline without yielding), which spares a small answer a few allocations.
 */
export interface TranscoderScratch {
  stack: Uint8Array;
  names: MemberNames;
}

export function createTranscoderScratch(): TranscoderScratch {
  return { stack: new Uint8Array(maxNesting), names: new MemberNames() };
}

/** Reads one JSON text once; {@link next} gives its XML-RPC `<value>` text piece by piece. */
export class JsonTranscoder {
  readonly #text: string;
  readonly #opts: MarshalOptions;
  /** Deepest container level (0: the outermost) the tree path writes rather than faults on. */
  readonly #maxLevel: number;
  /** The kind of each open container, outermost first. */
  readonly #stack: Uint8Array;
  readonly #names: MemberNames;
  #pos = 0;
  #depth = 0;
  #state: 'value' | 'done' | 'declined' = 'value';
  readonly #countBytes: boolean;
  /** UTF-8 bytes beyond one per UTF-16 unit that decoded escapes added to (or took from) the text's. */
  #escapeExtra = 0;

  /**
   * `maxDepth`: the nesting limit `parseJson` is given for upstream answers (`--max-depth`).
   * `countBytes`: keep what {@link utf8Length} needs (a little work per escaped string).
   * `scratch`: working memory of its own unless given (see {@link TranscoderScratch}).
   */
  constructor(text: string, opts: MarshalOptions, maxDepth: number, countBytes = false, scratch = createTranscoderScratch()) {
    this.#text = text;
    this.#countBytes = countBytes;
    this.#opts = opts;
    this.#maxLevel = Math.min(maxDepth, maxNesting) - 1;
    this.#stack = scratch.stack;
    this.#names = scratch.names;
  }

  /** True once the whole text has been written. */
  get done(): boolean {
    return this.#state === 'done';
  }

  /**
   * The UTF-8 length of everything written, given its length in characters; once done, with
   * `countBytes`. Every character of the JSON text beyond ASCII sits in a string or a name and is
   * written once, as it is (JSON allows nothing else outside ASCII), so the text's own surplus of
   * UTF-8 bytes carries over; strings with escapes are measured one by one.
   */
  utf8Length(chars: number): number {
    return chars + utf8Extra(this.#text) + this.#escapeExtra;
  }

  /** Accounts for a decoded literal (`from`..`to` in the text) written as `xml`. */
  #decoded(xml: string, from: number, to: number): string {
    if (this.#countBytes) this.#escapeExtra += escapeExtra(xml, this.#text.slice(from, to));
    return xml;
  }

  /**
   * The next piece of the value's text: at least `size` characters unless it is the last (empty once
   * done); `undefined` when the transcoder declined, now or before.
   */
  next(size: number): string | undefined {
    if (this.#state !== 'value') return this.#state === 'done' ? '' : undefined;
    // One loop over locals (position, depth, output), the state saved back once per piece: the
    // fields of `this` are kept out of the per-character work.
    const t = this.#text;
    const stack = this.#stack;
    let p = this.#pos;
    let depth = this.#depth;
    let out = '';
    let ok = true;
    value: while (out.length < size) {
      // ---- a value
      while (isSpace(t.charCodeAt(p))) p++;
      let c = t.charCodeAt(p);
      if (c === 0x22) {
        const start = p + 1;
        for (p = start; ; p++) {
          c = t.charCodeAt(p);
          if (c > 0x3e ? c === 0x5c : c === 0x22 || c === 0x26 || c === 0x3c || c === 0x3e || !(c >= 0x20)) break;
        }
        if (c === 0x22) {
          out += '<value><string>' + t.slice(start, p) + '</string></value>\n';
          p++;
        } else {
          const decoded = decodeString(t, start - 1);
          if (decoded === undefined) {
            ok = false;
            break;
          }
          out += '<value><string>' + this.#decoded(stringText(decoded.value), start - 1, decoded.end) + '</string></value>\n';
          p = decoded.end;
        }
      } else if (c === 0x7b || c === 0x5b) {
        if (depth > this.#maxLevel) {
          ok = false;
          break;
        }
        const isObject = c === 0x7b;
        p++;
        while (isSpace(t.charCodeAt(p))) p++;
        if (t.charCodeAt(p) === (isObject ? 0x7d : 0x5d)) {
          p++;
          out += isObject ? '<value><struct>\n</struct></value>\n' : '<value><array><data>\n</data></array></value>\n';
        } else if (isObject) {
          stack[depth] = inObject;
          this.#names.open(depth);
          depth++;
          this.#pos = p;
          const name = this.#memberName(depth - 1);
          if (name === undefined) {
            ok = false;
            break;
          }
          p = this.#pos;
          out += '<value><struct>\n' + name;
          continue;
        } else {
          stack[depth++] = inArray;
          out += '<value><array><data>\n';
          continue;
        }
      } else {
        this.#pos = p;
        const xml = this.#scalar(c);
        if (xml === undefined) {
          ok = false;
          break;
        }
        out += xml;
        p = this.#pos;
      }
      // ---- after a value: a separator, or closings
      for (;;) {
        while (isSpace(t.charCodeAt(p))) p++;
        if (depth === 0) {
          ok = p >= t.length; // else: extra data
          this.#state = ok ? 'done' : 'declined';
          break value;
        }
        c = t.charCodeAt(p++);
        if (stack[depth - 1] === inArray) {
          if (c === 0x2c) continue value;
          if (c !== 0x5d) {
            ok = false;
            break value;
          }
          out += '</data></array></value>\n';
        } else {
          if (c === 0x2c) {
            this.#pos = p;
            const name = this.#memberName(depth - 1);
            if (name === undefined) {
              ok = false;
              break value;
            }
            p = this.#pos;
            out += '</member>\n' + name;
            continue value;
          }
          if (c !== 0x7d) {
            ok = false;
            break value;
          }
          out += '</member>\n</struct></value>\n';
          this.#names.close(depth - 1);
        }
        depth--;
      }
    }
    if (!ok) {
      this.#state = 'declined';
      return undefined;
    }
    this.#pos = p;
    this.#depth = depth;
    return out;
  }

  /**
   * `"name":` of the object open at `level`, from the current position: its `<member><name>` text.
   * A name the previous object at this level had at the same place is matched whole.
   */
  #memberName(level: number): string | undefined {
    const t = this.#text;
    let p = this.#pos;
    while (isSpace(t.charCodeAt(p))) p++;
    let xml: string;
    const matched = this.#names.matchTemplate(level, t, p);
    if (matched > 0) {
      p += matched;
      xml = this.#names.matchedText;
      if (this.#countBytes) this.#escapeExtra += this.#names.matchedExtra;
    } else {
      if (t.charCodeAt(p) !== 0x22) return undefined;
      const start = p + 1;
      let hash = emptyNameHash;
      let c: number;
      for (p = start; ; p++) {
        c = t.charCodeAt(p);
        if (c > 0x3e ? c === 0x5c : c === 0x22 || c === 0x26 || c === 0x3c || c === 0x3e || !(c >= 0x20)) break;
        hash = hashName(hash, c);
      }
      let text: string;
      let extra = 0;
      if (c === 0x22) {
        text = t.slice(start, p);
        p++;
      } else {
        // an escape, a character to escape, a control character or the end: the careful way
        const decoded = decodeString(t, start - 1);
        if (decoded === undefined) return undefined;
        hash = emptyNameHash;
        for (let i = 0; i < decoded.value.length; i++) hash = hashName(hash, decoded.value.charCodeAt(i));
        text = nameText(decoded.value);
        extra = this.#countBytes ? escapeExtra(text, t.slice(start - 1, decoded.end)) : 0;
        this.#escapeExtra += extra;
        p = decoded.end;
      }
      xml = '<member>\n<name>' + text + '</name>\n';
      if (!this.#names.add(level, t.slice(start - 1, p), hash, xml, extra)) return undefined;
    }
    while (isSpace(t.charCodeAt(p))) p++;
    if (t.charCodeAt(p) !== 0x3a) return undefined;
    this.#pos = p + 1;
    return xml;
  }

  /** A literal or a number at the current position, as XML; the position moves past it. */
  #scalar(c: number): string | undefined {
    switch (c) {
      case 0x74: // t
        return this.#literal('true', '<value><boolean>1</boolean></value>\n');
      case 0x66: // f
        return this.#literal('false', '<value><boolean>0</boolean></value>\n');
      case 0x6e: // n: None
        if (this.#opts.nullAs === 'fault') return undefined;
        return this.#literal('null', this.#opts.nullAs === 'nil' ? '<value><nil/></value>' : '<value><boolean>0</boolean></value>\n');
      case 0x4e: // N
        return this.#literal('NaN', '<value><double>nan</double></value>\n');
      case 0x49: // I
        return this.#literal('Infinity', '<value><double>inf</double></value>\n');
    }
    if (c === 0x2d && this.#text.startsWith('-Infinity', this.#pos))
      return this.#literal('-Infinity', '<value><double>-inf</double></value>\n');
    return c === 0x2d || isDigit(c) ? this.#number() : undefined;
  }

  #literal(word: string, xml: string): string | undefined {
    if (!this.#text.startsWith(word, this.#pos)) return undefined;
    this.#pos += word.length;
    return xml;
  }

  /** A number, with `parseJson`'s grammar: an int written as read, or a float as Python's repr. */
  #number(): string | undefined {
    const t = this.#text;
    const start = this.#pos;
    const scanned = scanNumber(t, start);
    if (scanned === undefined) return undefined;
    const { end: p, intStart, intEnd, isFloat } = scanned;
    this.#pos = p;
    const token = t.slice(start, p);
    if (isFloat) return '<value><double>' + floatRepr(Number(token)) + '</double></value>\n';
    // JSON ints have no leading zeros, so they keep their digits; beyond 10 they exceed 32 bits.
    if (intEnd - intStart <= 10) {
      const n = Number(token);
      if (n <= maxInt && n >= minInt) return '<value><int>' + (n === 0 ? '0' : token) + '</int></value>\n';
    }
    if (this.#opts.bigIntAs === 'fault') return undefined;
    return '<value><i8>' + token + '</i8></value>\n';
  }
}

/** The string literal at `at` (its opening quote), decoded as `parseJson` decodes it. */
function decodeString(text: string, at: number): { value: string; end: number } | undefined {
  try {
    return parseJsonString(text, at);
  } catch {
    return undefined;
  }
}

/** What writing `literal` (escapes and all) as `xml` changes in the UTF-8 surplus. */
function escapeExtra(xml: string, literal: string): number {
  return utf8Extra(xml) - utf8Extra(literal);
}

/** UTF-8 bytes beyond one per UTF-16 unit (a lone surrogate is written as U+FFFD, 3 bytes). */
function utf8Extra(s: string): number {
  return Buffer.byteLength(s, 'utf8') - s.length;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}
