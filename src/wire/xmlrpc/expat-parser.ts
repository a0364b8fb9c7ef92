/**
 * expat 2.5's processors (xmlparse.c: prolog, content, CDATA, epilog) driving an event sink the way
 * CPython's pyexpat drives `xmlrpc.client.Unmarshaller`: start/end/character-data events in
 * document order, stopping at the first expat error or the first error a handler returns.
 *
 * Gateway deviations: a DOCTYPE or ENTITY declaration is refused where expat would read it, and
 * elements nested deeper than `maxDepth` are refused (both as fault 1 with an ExpatError-style line).
 */
import { LegacyError, pythonError } from '../../errors.ts';
import { isBadCharRef } from './expat-chars.ts';
import { parseXmlDecl } from './expat-decl.ts';
import { XmlScanner } from './expat-prolog-scan.ts';
import * as tokens from './expat-tokens.ts';
import { decodeBytes, detectEncoding, lookupPythonEncoding, type ByteEncoding } from './xml-text.ts';

// Module-local copies of the token codes (see expat-scan.ts on why).
const {
  tokCdataSectClose,
  tokCdataSectOpen,
  tokCharRef,
  tokComment,
  tokDataChars,
  tokDataNewline,
  tokDeclOpen,
  tokEmptyElementNoAtts,
  tokEmptyElementWithAtts,
  tokEndTag,
  tokEntityRef,
  tokInstanceStart,
  tokInvalid,
  tokNone,
  tokParamEntityRef,
  tokPartial,
  tokPartialChar,
  tokPi,
  tokPrologS,
  tokStartTagNoAtts,
  tokStartTagWithAtts,
  tokTrailingCr,
  tokTrailingRsqb,
  tokXmlDecl,
} = tokens;

/** What the parser reports; a returned LegacyError stops parsing (pyexpat re-raises it). */
export interface XmlSink {
  start(name: string): LegacyError | undefined;
  end(name: string): LegacyError | undefined;
  data(text: string): void;
}

/** The dotted name of pyexpat's error class, as tracebacks print it. */
export const expatErrorName = 'xml.parsers.expat.ExpatError';

const predefinedEntities: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Parses a whole request body into `sink`; `undefined` when the document was read to its end. */
export function parseXml(bytes: Uint8Array, sink: XmlSink, maxDepth: number): LegacyError | undefined {
  return new ExpatParser(bytes, sink, maxDepth).run();
}

class ExpatParser {
  private sc!: XmlScanner;
  private initial: 'utf8' | 'utf16le' | 'utf16be' = 'utf8';
  /** Open elements: their names, and where each name starts in the text (to match end tags). */
  private readonly tags: string[] = [];
  private readonly tagStarts: number[] = [];

  constructor(
    private readonly bytes: Uint8Array,
    private readonly sink: XmlSink,
    private readonly maxDepth: number,
  ) {}

  run(): LegacyError | undefined {
    const initial = detectEncoding(this.bytes);
    if (!initial) return this.fail('unclosed token', 0, new XmlScanner('', false));
    this.initial = initial;
    const decoded = decodeBytes(this.bytes, initial);
    this.sc = new XmlScanner(decoded.text, decoded.partial);
    this.sc.odd = decoded.odd;
    this.sc.utf8 = decoded.utf8 === true;
    this.sc.utf16 = initial !== 'utf8';
    this.sc.tailBytes = decoded.tailBytes ?? 0;
    this.sc.badLead = decoded.badLead === true;
    // A BOM is expat's XML_TOK_BOM: skipped, but still counted as a column.
    return this.prolog(decoded.text.charCodeAt(0) === 0xfeff ? 1 : 0);
  }

  /** `ExpatError: <message>: line L, column C` at a text index, as pyexpat formats it. */
  private fail(message: string, at: number, sc: XmlScanner = this.sc): LegacyError {
    const { line, column } = position(sc.text, at);
    return pythonError(expatErrorName, `${message}: line ${line}, column ${column}`);
  }

  private prolog(s: number): LegacyError | undefined {
    let sawMarkup = false; // expat's prolog0 → prolog1 once anything but a BOM was read
    for (;;) {
      let tok = this.sc.prologTok(s);
      let next = this.sc.next;
      if (tok <= 0) {
        switch (tok) {
          case tokInvalid:
            return this.fail('not well-formed (invalid token)', next);
          case tokPartial:
            return this.fail('unclosed token', s);
          case tokPartialChar:
            return this.fail('partial character', s);
          case tokNone:
            return this.fail(this.sc.odd ? 'unclosed token' : 'no element found', s);
          default:
            tok = -tok;
            next = this.sc.n;
        }
      }
      switch (tok) {
        case tokXmlDecl: {
          if (sawMarkup) return this.fail('XML or text declaration not at start of entity', s);
          const resumeAt = this.xmlDecl(s, next);
          if (resumeAt instanceof LegacyError) return resumeAt;
          next = resumeAt;
          break;
        }
        case tokPrologS:
        case tokPi:
        case tokComment:
          break;
        case tokDeclOpen: {
          const keyword = this.sc.text.slice(s + 2, next);
          if (keyword === 'DOCTYPE' || keyword === 'ENTITY') {
            return this.fail('DOCTYPE and ENTITY declarations are refused by the gateway', s);
          }
          return this.fail('syntax error', s);
        }
        case tokInstanceStart:
          return this.content(s);
        case tokParamEntityRef:
          return this.fail('illegal parameter entity reference', s);
        default:
          return this.fail('syntax error', s);
      }
      sawMarkup = true;
      s = next;
    }
  }

  /**
   * processXmlDecl: checks the declaration, then switches to its encoding. Returns where parsing
   * resumes (a re-decoded text is indexed by bytes), or the error.
   */
  private xmlDecl(s: number, next: number): number | LegacyError {
    const decl = parseXmlDecl(this.sc.text, s, next);
    if ('bad' in decl) return this.fail('XML declaration not well-formed', decl.bad);
    if (!decl.encoding) return next;
    const { name, at } = decl.encoding;
    const wide = this.initial !== 'utf8';
    let target: ByteEncoding;
    switch (name.toUpperCase()) {
      case 'UTF-16':
        if (wide) return next; // "UTF-16" keeps the byte order found
        return this.fail('encoding specified in XML declaration is incorrect', at);
      case 'UTF-16LE':
      case 'UTF-16BE': {
        const declared = name.toUpperCase() === 'UTF-16LE' ? 'utf16le' : 'utf16be';
        if (declared === this.initial) return next;
        return this.fail('encoding specified in XML declaration is incorrect', at);
      }
      case 'UTF-8':
      case 'ISO-8859-1':
      case 'US-ASCII':
        if (wide) return this.fail('encoding specified in XML declaration is incorrect', at);
        if (name.toUpperCase() === 'UTF-8') return next;
        target = name.toUpperCase() === 'US-ASCII' ? 'ascii' : 'latin1';
        break;
      default: {
        // pyexpat's unknown-encoding handler: a Python codec, as a single-byte map.
        const found = lookupPythonEncoding(name);
        if ('expat' in found) return this.fail(found.expat, at);
        if ('pyName' in found) return pythonError(found.pyName, found.message);
        target = found;
      }
    }
    // The rest of the bytes (and, as expat does, the positions) are read in the new encoding.
    const bomBytes = !wide && this.sc.text.charCodeAt(0) === 0xfeff ? 2 : 0;
    const resumeAt = wide ? next * 2 : next + bomBytes;
    this.sc = new XmlScanner(decodeBytes(this.bytes, target).text, false);
    return resumeAt;
  }

  private content(s: number): LegacyError | undefined {
    const sc = this.sc;
    const text = sc.text;
    const sink = this.sink;
    const tags = this.tags;
    const tagStarts = this.tagStarts;
    let run = -1; // start of pending verbatim character data, handed over in one piece
    for (;;) {
      const tok = sc.contentTok(s);
      let next = sc.next;
      if (tok === tokDataChars || (tok === tokDataNewline && next - s === 1 && text.charCodeAt(s) === 0x0a)) {
        if (run < 0) run = s;
        s = next;
        continue;
      }
      if (run >= 0) {
        sink.data(text.slice(run, s));
        run = -1;
      }
      switch (tok) {
        case tokStartTagNoAtts:
        case tokStartTagWithAtts:
        case tokEmptyElementNoAtts:
        case tokEmptyElementWithAtts: {
          const name = elementName(text, s + 1, sc.nameEnd);
          if (tags.length >= this.maxDepth) {
            return this.fail(`xml nesting depth ${tags.length + 1} exceeds maxDepth ${this.maxDepth}`, s);
          }
          if (tok === tokStartTagWithAtts || tok === tokEmptyElementWithAtts) {
            const bad = this.checkAttributes(s, sc.nameEnd, next);
            if (bad) return bad;
          }
          const err = sink.start(name);
          if (err) return err;
          if (tok === tokStartTagNoAtts || tok === tokStartTagWithAtts) {
            tags.push(name);
            tagStarts.push(s + 1);
            break;
          }
          const endErr = sink.end(name);
          if (endErr) return endErr;
          if (tags.length === 0) return this.epilog(next);
          break;
        }
        case tokEndTag: {
          const open = tags[tags.length - 1]!;
          const at = s + 2;
          if (sc.nameEnd - at !== open.length || !sameText(text, at, tagStarts[tagStarts.length - 1]!, open.length)) {
            return this.fail('mismatched tag', at);
          }
          tags.pop();
          tagStarts.pop();
          const err = sink.end(open);
          if (err) return err;
          if (tags.length === 0) return this.epilog(next);
          break;
        }
        case tokDataNewline:
          sink.data('\n');
          break;
        case tokEntityRef: {
          const name = text.slice(s + 1, next - 1);
          if (!Object.hasOwn(predefinedEntities, name)) return this.fail('undefined entity', s);
          sink.data(predefinedEntities[name]!);
          break;
        }
        case tokCharRef: {
          const cp = charRefNumber(text, s, next - 1);
          if (isBadCharRef(cp)) return this.fail('reference to invalid character number', s);
          sink.data(String.fromCodePoint(cp));
          break;
        }
        case tokCdataSectOpen: {
          const after = this.cdataSection(next);
          if (after instanceof LegacyError) return after;
          next = after;
          break;
        }
        case tokPi:
        case tokComment:
          break;
        case tokXmlDecl:
          return this.fail('XML or text declaration not at start of entity', s);
        case tokTrailingCr:
          sink.data('\n');
          return this.fail('no element found', s);
        case tokTrailingRsqb:
          sink.data(text.slice(s));
          return this.fail('no element found', sc.n);
        case tokNone:
          return this.fail(sc.odd ? 'unclosed token' : 'no element found', s);
        case tokInvalid:
          return this.fail('not well-formed (invalid token)', next);
        case tokPartialChar:
          return this.fail('partial character', s);
        default:
          return this.fail('unclosed token', s);
      }
      s = next;
    }
  }

  /** doCdataSection: returns where content resumes after `]]>`. */
  private cdataSection(s: number): number | LegacyError {
    const sc = this.sc;
    const text = sc.text;
    let run = -1; // as in content()
    for (;;) {
      const tok = sc.cdataSectionTok(s);
      const next = sc.next;
      if (tok === tokDataChars || (tok === tokDataNewline && next - s === 1 && text.charCodeAt(s) === 0x0a)) {
        if (run < 0) run = s;
        s = next;
        continue;
      }
      if (run >= 0) {
        this.sink.data(text.slice(run, s));
        run = -1;
      }
      switch (tok) {
        case tokCdataSectClose:
          return next;
        case tokDataNewline:
          this.sink.data('\n');
          break;
        case tokInvalid:
          return this.fail('not well-formed (invalid token)', next);
        case tokPartialChar:
          return this.fail('partial character', s);
        default:
          return this.fail('unclosed CDATA section', s);
      }
      s = next;
    }
  }

  /**
   * storeAtts: attribute by attribute, a repeated name, then its references (an undefined entity
   * is reported at the tag, an invalid character reference at itself).
   */
  private checkAttributes(tagStart: number, nameEnd: number, tagEnd: number): LegacyError | undefined {
    const text = this.sc.text;
    const seen = new Set<string>();
    let p = nameEnd;
    while (p < tagEnd) {
      const c = text.charCodeAt(p);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) {
        p++;
        continue;
      }
      if (c === 0x3e || c === 0x2f) break;
      const nameAt = p;
      while (!isSpaceOrEquals(text.charCodeAt(p))) p++;
      const name = text.slice(nameAt, p);
      while (text.charCodeAt(p) !== 0x3d) p++;
      p++;
      while (text.charCodeAt(p) !== 0x22 && text.charCodeAt(p) !== 0x27) p++;
      const valueEnd = text.indexOf(text[p]!, p + 1);
      if (seen.has(name)) return this.fail('duplicate attribute', nameAt);
      seen.add(name);
      for (let amp = text.indexOf('&', p + 1); amp !== -1 && amp < valueEnd; amp = text.indexOf('&', amp + 1)) {
        const semi = text.indexOf(';', amp);
        if (text.charCodeAt(amp + 1) === 0x23) {
          if (isBadCharRef(charRefNumber(text, amp, semi))) {
            return this.fail('reference to invalid character number', amp);
          }
        } else if (!Object.hasOwn(predefinedEntities, text.slice(amp + 1, semi))) {
          return this.fail('undefined entity', tagStart);
        }
      }
      p = valueEnd + 1;
    }
    return undefined;
  }

  private epilog(s: number): LegacyError | undefined {
    const sc = this.sc;
    for (;;) {
      const tok = sc.prologTok(s);
      switch (tok) {
        case -tokPrologS:
          return undefined;
        case tokNone:
          return sc.odd ? this.fail('unclosed token', s) : undefined;
        case tokPrologS:
        case tokPi:
        case tokComment:
          break;
        case tokInvalid:
          return this.fail('not well-formed (invalid token)', sc.next);
        case tokPartial:
          return this.fail('unclosed token', s);
        case tokPartialChar:
          return this.fail('partial character', s);
        default:
          return this.fail('junk after document element', s);
      }
      s = sc.next;
    }
  }
}

// XML-RPC's element names by length, returned as constants (cheap to compare and hash later).
const knownNames: readonly (readonly string[])[] = (() => {
  const byLength: string[][] = Array.from({ length: 17 }, () => []);
  for (const name of [
    'value',
    'string',
    'int',
    'i4',
    'i8',
    'array',
    'data',
    'struct',
    'member',
    'name',
    'param',
    'params',
    'methodCall',
    'methodName',
    'boolean',
    'double',
    'nil',
    'base64',
    'dateTime.iso8601',
  ]) {
    byLength[name.length]!.push(name);
  }
  return byLength;
})();

/** The element name `text[start, end)`, as one of the known names when it is one. */
function elementName(text: string, start: number, end: number): string {
  const length = end - start;
  if (length < knownNames.length) {
    for (const name of knownNames[length]!) {
      let i = 0;
      while (i < length && text.charCodeAt(start + i) === name.charCodeAt(i)) i++;
      if (i === length) return name;
    }
  }
  return text.slice(start, end);
}

/** Whether `text` holds the same `length` characters at `a` and at `b`. */
function sameText(text: string, a: number, b: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (text.charCodeAt(a + i) !== text.charCodeAt(b + i)) return false;
  return true;
}

function isSpaceOrEquals(c: number): boolean {
  return c === 0x3d || c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/** XmlCharRefNumber for `&#…;` at `amp` (`semi` is the `;`); ≥ 0x110000 once it overflows. */
function charRefNumber(text: string, amp: number, semi: number): number {
  let result = 0;
  if (text.charCodeAt(amp + 2) === 0x78) {
    for (let i = amp + 3; i < semi; i++) {
      result = result * 16 + parseInt(text[i]!, 16);
      if (result >= 0x110000) return 0x110000;
    }
  } else {
    for (let i = amp + 2; i < semi; i++) {
      result = result * 10 + (text.charCodeAt(i) - 0x30);
      if (result >= 0x110000) return 0x110000;
    }
  }
  return result;
}

/** expat's position of a text index: 1-based line (CR, LF and CRLF end lines), 0-based column. */
export function position(text: string, at: number): { line: number; column: number } {
  let line = 1;
  let column = 0;
  for (let i = 0; i < at; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) {
      line++;
      column = 0;
    } else if (c === 0x0d) {
      line++;
      column = 0;
      if (text.charCodeAt(i + 1) === 0x0a && i + 1 < at) i++;
    } else {
      column++;
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < at) i++;
    }
  }
  return { line, column };
}
