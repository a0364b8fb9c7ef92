/**
 * expat 2.5's tokenizer (xmltok_impl.c) ported to a decoded string, so that every well-formedness
 * error lands on the same token and position as in CPython's pyexpat. Each scanner returns a token
 * code and leaves the position after the token (or of the offending character) in `next`.
 */
import * as chars from './expat-chars.ts';
import * as tokens from './expat-tokens.ts';

// Module-local copies: imported bindings can be accessor calls under some loaders (tsx, vitest),
// too slow for a per-character loop.
const {
  btAmp,
  btApos,
  btCr,
  btDigit,
  btEquals,
  btExcl,
  btGt,
  btHex,
  btLead4,
  btLf,
  btLsqb,
  btLt,
  btMinus,
  btName,
  btNmstrt,
  btNonXml,
  btNum,
  btPartial,
  btQuest,
  btQuot,
  btRsqb,
  btS,
  btSemi,
  btSol,
  charTypes,
} = chars;
const {
  tokCdataSectClose,
  tokCdataSectOpen,
  tokCharRef,
  tokComment,
  tokDataChars,
  tokDataNewline,
  tokEmptyElementNoAtts,
  tokEmptyElementWithAtts,
  tokEndTag,
  tokEntityRef,
  tokInvalid,
  tokNone,
  tokPartial,
  tokPartialChar,
  tokPi,
  tokStartTagNoAtts,
  tokStartTagWithAtts,
  tokTrailingCr,
  tokTrailingRsqb,
  tokXmlDecl,
} = tokens;

/** Name characters after the first (expat CHECK_NAME_CASES). */
export function isNameChar(t: number): boolean {
  return t === btNmstrt || t === btHex || t === btDigit || t === btName || t === btMinus;
}

/** S, CR and LF. */
export function isSpace(t: number): boolean {
  return t === btS || t === btCr || t === btLf;
}

/** The content scanners over one decoded document. `partial`: the text ends inside a character. */
export class ContentScanner {
  /** Where the last token ends (or, for `tokInvalid`, the offending character). */
  next = 0;
  /** After a start tag: where its name ends. */
  nameEnd = 0;
  /** UTF-16 with an odd byte left over: the end of the text is an unclosed token. */
  odd = false;
  /** UTF-8: look-ahead counts bytes, and a final sentinel stands for `tailBytes` bytes. */
  utf8 = false;
  tailBytes = 0;
  /** UTF-8: the final invalid-byte sentinel stands for a lead byte (expat BT_LEADn). */
  badLead = false;
  /** UTF-16: characters above U+00FF have expat's BT_NONASCII type. */
  utf16 = false;
  n: number;

  constructor(
    public text: string,
    public partial: boolean,
  ) {
    this.n = text.length;
  }

  /**
   * expat's HAS_CHARS(k): at least k code units of the encoding from `ptr` (bytes in UTF-8, where
   * a valid non-ASCII character or the final sentinel spans several).
   */
  protected hasUnits(ptr: number, k: number): boolean {
    const n = this.n;
    if (n - ptr >= k) return true;
    if (!this.utf8) return false;
    let bytes = 0;
    for (let i = ptr; i < n; i++) {
      const c = this.text.charCodeAt(i);
      if (i === n - 1 && this.tailBytes > 0) bytes += this.tailBytes;
      else if (c < 0x80) bytes += 1;
      else if (c < 0x800) bytes += 2;
      else if (c >= 0xd800 && c <= 0xdbff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    }
    return bytes >= k;
  }

  /** The byte type at `i` (< n): astral characters are `btLead4`, the partial sentinel `btPartial`. */
  type(i: number): number {
    const t = charTypes[this.text.charCodeAt(i)]!;
    return t === btLead4 && this.partial && i === this.n - 1 ? btPartial : t;
  }

  protected invalid(at: number): number {
    this.next = at;
    return tokInvalid;
  }

  /** XmlContentTok: the next token inside the root element. */
  contentTok(ptr: number): number {
    const n = this.n;
    const text = this.text;
    if (ptr >= n) return tokNone;
    switch (this.type(ptr)) {
      case btLt:
        return this.scanLt(ptr + 1);
      case btAmp:
        return this.scanRef(ptr + 1);
      case btCr:
        ptr++;
        if (ptr >= n) return tokTrailingCr;
        if (this.type(ptr) === btLf) ptr++;
        this.next = ptr;
        return tokDataNewline;
      case btLf:
        this.next = ptr + 1;
        return tokDataNewline;
      case btRsqb:
        ptr++;
        if (ptr >= n) return tokTrailingRsqb;
        if (text.charCodeAt(ptr) !== 0x5d) break;
        ptr++;
        if (ptr >= n) return tokTrailingRsqb;
        if (text.charCodeAt(ptr) !== 0x3e) {
          ptr--;
          break;
        }
        return this.invalid(ptr);
      case btLead4:
        ptr += 2;
        break;
      case btPartial:
        return tokPartialChar;
      case btNonXml:
        return this.invalid(ptr);
      default:
        ptr++;
    }
    while (ptr < n) {
      switch (charTypes[text.charCodeAt(ptr)]) {
        case btLead4:
          if (this.partial && ptr === n - 1) {
            this.next = ptr;
            return tokDataChars;
          }
          ptr += 2;
          break;
        case btRsqb:
          if (this.hasUnits(ptr, 2)) {
            if (text.charCodeAt(ptr + 1) !== 0x5d) {
              ptr++;
              break;
            }
            if (this.hasUnits(ptr, 3)) {
              if (text.charCodeAt(ptr + 2) !== 0x3e) {
                ptr++;
                break;
              }
              return this.invalid(ptr + 2);
            }
          }
          this.next = ptr;
          return tokDataChars;
        case btAmp:
        case btLt:
        case btNonXml:
        case btCr:
        case btLf:
          this.next = ptr;
          return tokDataChars;
        default:
          ptr++;
      }
    }
    this.next = ptr;
    return tokDataChars;
  }

  /** After `<` in content. */
  private scanLt(ptr: number): number {
    const n = this.n;
    if (ptr >= n) return tokPartial;
    switch (this.type(ptr)) {
      case btNmstrt:
      case btHex:
        ptr++;
        break;
      case btPartial:
        return tokPartialChar;
      case btExcl:
        ptr++;
        if (ptr >= n) return tokPartial;
        switch (this.type(ptr)) {
          case btMinus:
            return this.scanComment(ptr + 1);
          case btLsqb:
            return this.scanCdataSection(ptr + 1);
        }
        return this.invalid(ptr);
      case btQuest:
        return this.scanPi(ptr + 1);
      case btSol:
        return this.scanEndTag(ptr + 1);
      default:
        return this.invalid(ptr);
    }
    const text = this.text;
    while (ptr < n) {
      const t = charTypes[text.charCodeAt(ptr)]!;
      if (isNameChar(t)) {
        ptr++;
        continue;
      }
      this.nameEnd = ptr;
      switch (t === btLead4 ? this.type(ptr) : t) {
        case btPartial:
          return tokPartialChar;
        case btS:
        case btCr:
        case btLf:
          ptr++;
          while (ptr < n) {
            const u = this.type(ptr);
            if (u === btNmstrt || u === btHex) return this.scanAtts(ptr + 1);
            if (u === btGt) return this.startTagEnd(ptr, tokStartTagNoAtts);
            if (u === btSol) return this.emptyTagEnd(ptr, tokEmptyElementNoAtts);
            if (u === btPartial) return tokPartialChar;
            if (!isSpace(u)) return this.invalid(ptr);
            ptr++;
          }
          return tokPartial;
        case btGt:
          return this.startTagEnd(ptr, tokStartTagNoAtts);
        case btSol:
          return this.emptyTagEnd(ptr, tokEmptyElementNoAtts);
        default:
          return this.invalid(ptr);
      }
    }
    return tokPartial;
  }

  protected startTagEnd(gt: number, tok: number): number {
    this.next = gt + 1;
    return tok;
  }

  private emptyTagEnd(sol: number, tok: number): number {
    const ptr = sol + 1;
    if (ptr >= this.n) return tokPartial;
    if (this.text.charCodeAt(ptr) !== 0x3e) return this.invalid(ptr);
    this.next = ptr + 1;
    return tok;
  }

  /** After the first character of an attribute name. */
  private scanAtts(ptr: number): number {
    const n = this.n;
    while (ptr < n) {
      let t = this.type(ptr);
      if (isNameChar(t)) {
        ptr++;
        continue;
      }
      if (t === btPartial) return tokPartialChar;
      if (isSpace(t)) {
        for (;;) {
          ptr++;
          if (ptr >= n) return tokPartial;
          t = this.type(ptr);
          if (t === btEquals) break;
          if (!isSpace(t)) return this.invalid(ptr);
        }
      }
      if (t !== btEquals) return this.invalid(ptr);
      let open: number;
      for (;;) {
        ptr++;
        if (ptr >= n) return tokPartial;
        open = this.type(ptr);
        if (open === btQuot || open === btApos) break;
        if (!isSpace(open)) return this.invalid(ptr);
      }
      ptr++;
      for (;;) {
        if (ptr >= n) return tokPartial;
        const v = this.type(ptr);
        if (v === open) break;
        switch (v) {
          case btLead4:
            ptr += 2;
            break;
          case btPartial:
            return tokPartialChar;
          case btNonXml:
          case btLt:
            return this.invalid(ptr);
          case btAmp: {
            const tok = this.scanRef(ptr + 1);
            if (tok <= 0) return tok;
            ptr = this.next;
            break;
          }
          default:
            ptr++;
        }
      }
      ptr++;
      if (ptr >= n) return tokPartial;
      t = this.type(ptr);
      if (t === btSol) return this.emptyTagEnd(ptr, tokEmptyElementWithAtts);
      if (t === btGt) return this.startTagEnd(ptr, tokStartTagWithAtts);
      if (!isSpace(t)) return this.invalid(ptr);
      for (;;) {
        ptr++;
        if (ptr >= n) return tokPartial;
        t = this.type(ptr);
        if (t === btNmstrt || t === btHex) {
          ptr++;
          break;
        }
        if (t === btGt) return this.startTagEnd(ptr, tokStartTagWithAtts);
        if (t === btSol) return this.emptyTagEnd(ptr, tokEmptyElementWithAtts);
        if (t === btPartial) return tokPartialChar;
        if (!isSpace(t)) return this.invalid(ptr);
      }
    }
    return tokPartial;
  }

  /** After `</`. */
  private scanEndTag(ptr: number): number {
    const n = this.n;
    if (ptr >= n) return tokPartial;
    const first = this.type(ptr);
    if (first === btPartial) return tokPartialChar;
    if (first !== btNmstrt && first !== btHex) return this.invalid(ptr);
    ptr++;
    while (ptr < n) {
      const t = this.type(ptr);
      if (isNameChar(t)) {
        ptr++;
        continue;
      }
      this.nameEnd = ptr;
      if (t === btPartial) return tokPartialChar;
      if (t === btGt) return this.startTagEnd(ptr, tokEndTag);
      if (!isSpace(t)) return this.invalid(ptr);
      for (ptr++; ptr < n; ptr++) {
        const u = this.type(ptr);
        if (u === btGt) return this.startTagEnd(ptr, tokEndTag);
        if (!isSpace(u)) return this.invalid(ptr);
      }
      return tokPartial;
    }
    return tokPartial;
  }

  /** After `&` (content and attribute values). */
  scanRef(ptr: number): number {
    const n = this.n;
    if (ptr >= n) return tokPartial;
    const first = this.type(ptr);
    if (first === btNum) return this.scanCharRef(ptr + 1);
    if (first === btPartial) return tokPartialChar;
    if (first !== btNmstrt && first !== btHex) return this.invalid(ptr);
    for (ptr++; ptr < n; ptr++) {
      const t = this.type(ptr);
      if (isNameChar(t)) continue;
      if (t === btPartial) return tokPartialChar;
      if (t === btSemi) return this.startTagEnd(ptr, tokEntityRef);
      return this.invalid(ptr);
    }
    return tokPartial;
  }

  /** After `&#`: decimal, or hex after a lowercase `x` only. */
  private scanCharRef(ptr: number): number {
    const n = this.n;
    if (ptr >= n) return tokPartial;
    const hex = this.text.charCodeAt(ptr) === 0x78;
    if (hex) {
      ptr++;
      if (ptr >= n) return tokPartial;
    }
    const first = this.type(ptr);
    if (first !== btDigit && !(hex && first === btHex)) return this.invalid(ptr);
    for (ptr++; ptr < n; ptr++) {
      const t = this.type(ptr);
      if (t === btDigit || (hex && t === btHex)) continue;
      if (t === btSemi) return this.startTagEnd(ptr, tokCharRef);
      return this.invalid(ptr);
    }
    return tokPartial;
  }

  /** After `<!-`. */
  protected scanComment(ptr: number): number {
    const n = this.n;
    if (ptr >= n) return tokPartial;
    if (this.text.charCodeAt(ptr) !== 0x2d) return this.invalid(ptr);
    ptr++;
    while (ptr < n) {
      switch (this.type(ptr)) {
        case btLead4:
          ptr += 2;
          break;
        case btPartial:
          return tokPartialChar;
        case btNonXml:
          return this.invalid(ptr);
        case btMinus:
          ptr++;
          if (ptr >= n) return tokPartial;
          if (this.text.charCodeAt(ptr) === 0x2d) {
            ptr++;
            if (ptr >= n) return tokPartial;
            if (this.text.charCodeAt(ptr) !== 0x3e) return this.invalid(ptr);
            this.next = ptr + 1;
            return tokComment;
          }
          break;
        default:
          ptr++;
      }
    }
    return tokPartial;
  }

  /** After `<![` in content: `CDATA[`. */
  private scanCdataSection(ptr: number): number {
    if (!this.hasUnits(ptr, 6)) return tokPartial;
    const want = 'CDATA[';
    for (let i = 0; i < 6; i++, ptr++) {
      if (this.text.charCodeAt(ptr) !== want.charCodeAt(i)) return this.invalid(ptr);
    }
    this.next = ptr;
    return tokCdataSectOpen;
  }

  /** After `<?`: a processing instruction, or the XML declaration (target exactly `xml`). */
  scanPi(ptr: number): number {
    const n = this.n;
    const target = ptr;
    if (ptr >= n) return tokPartial;
    const first = this.type(ptr);
    if (first === btPartial) return tokPartialChar;
    if (first !== btNmstrt && first !== btHex) return this.invalid(ptr);
    for (ptr++; ptr < n; ptr++) {
      const t = this.type(ptr);
      if (isNameChar(t)) continue;
      if (t === btPartial) return tokPartialChar;
      if (isSpace(t)) {
        const tok = this.piTarget(target, ptr);
        if (tok === tokInvalid) return this.invalid(ptr);
        ptr++;
        while (ptr < n) {
          const u = this.type(ptr);
          if (u === btLead4) ptr += 2;
          else if (u === btPartial) return tokPartialChar;
          else if (u === btNonXml) return this.invalid(ptr);
          else if (u === btQuest) {
            ptr++;
            if (ptr >= n) return tokPartial;
            if (this.text.charCodeAt(ptr) === 0x3e) return this.startTagEnd(ptr, tok);
          } else ptr++;
        }
        return tokPartial;
      }
      if (t === btQuest) {
        const tok = this.piTarget(target, ptr);
        if (tok === tokInvalid) return this.invalid(ptr);
        ptr++;
        if (ptr >= n) return tokPartial;
        if (this.text.charCodeAt(ptr) === 0x3e) return this.startTagEnd(ptr, tok);
      }
      return this.invalid(ptr);
    }
    return tokPartial;
  }

  /** checkPiTarget: `xml` is the declaration, another case of it is invalid, anything else a PI. */
  private piTarget(start: number, end: number): number {
    if (end - start !== 3) return tokPi;
    const name = this.text.slice(start, end);
    if (name === 'xml') return tokXmlDecl;
    return name.toLowerCase() === 'xml' ? tokInvalid : tokPi;
  }

  /** XmlCdataSectionTok: inside `<![CDATA[`. */
  cdataSectionTok(ptr: number): number {
    const n = this.n;
    const text = this.text;
    if (ptr >= n) return tokNone;
    switch (this.type(ptr)) {
      case btRsqb:
        ptr++;
        if (ptr >= n) return tokPartial;
        if (text.charCodeAt(ptr) !== 0x5d) break;
        ptr++;
        if (ptr >= n) return tokPartial;
        if (text.charCodeAt(ptr) !== 0x3e) {
          ptr--;
          break;
        }
        this.next = ptr + 1;
        return tokCdataSectClose;
      case btCr:
        ptr++;
        if (ptr >= n) return tokPartial;
        if (this.type(ptr) === btLf) ptr++;
        this.next = ptr;
        return tokDataNewline;
      case btLf:
        this.next = ptr + 1;
        return tokDataNewline;
      case btLead4:
        ptr += 2;
        break;
      case btPartial:
        return tokPartialChar;
      case btNonXml:
        return this.invalid(ptr);
      default:
        ptr++;
    }
    while (ptr < n) {
      const t = this.type(ptr);
      if (t === btLead4) ptr += 2;
      else if (t === btPartial || t === btNonXml || t === btCr || t === btLf || t === btRsqb) break;
      else ptr++;
    }
    this.next = ptr;
    return tokDataChars;
  }
}
