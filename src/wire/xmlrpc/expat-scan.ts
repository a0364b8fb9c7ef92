/**
 * expat 2.5's tokenizer (xmltok_impl.c) ported to a decoded string, so that every well-formedness
 * error lands on the same token and position as in CPython's pyexpat. Each scanner returns a token
 * code and leaves the position after the token (or of the offending character) in `next`.
 */
import {
  btAmp, btApos, btAst, btComma, btCr, btDigit, btEquals, btExcl, btGt, btHex, btLead4, btLf, btLpar,
  btLsqb, btLt, btMinus, btName, btNmstrt, btNonXml, btNum, btPartial, btPercnt, btPlus, btQuest,
  btQuot, btRpar, btRsqb, btS, btSemi, btSol, btVerbar, charTypes,
} from './expat-chars.ts';

// Token codes (xmltok.h). Values ≤ 0 are incomplete or invalid tokens.
export const tokTrailingRsqb = -5;
export const tokNone = -4;
export const tokTrailingCr = -3;
export const tokPartialChar = -2;
export const tokPartial = -1;
export const tokInvalid = 0;
export const tokStartTagWithAtts = 1;
export const tokStartTagNoAtts = 2;
export const tokEmptyElementWithAtts = 3;
export const tokEmptyElementNoAtts = 4;
export const tokEndTag = 5;
export const tokDataChars = 6;
export const tokDataNewline = 7;
export const tokCdataSectOpen = 8;
export const tokEntityRef = 9;
export const tokCharRef = 10;
export const tokPi = 11;
export const tokXmlDecl = 12;
export const tokComment = 13;
export const tokPrologS = 15;
export const tokDeclOpen = 16;
export const tokDeclClose = 17;
export const tokName = 18;
export const tokNmtoken = 19;
export const tokPoundName = 20;
export const tokOr = 21;
export const tokPercent = 22;
export const tokOpenParen = 23;
export const tokCloseParen = 24;
export const tokOpenBracket = 25;
export const tokCloseBracket = 26;
export const tokLiteral = 27;
export const tokParamEntityRef = 28;
export const tokInstanceStart = 29;
export const tokNameQuestion = 30;
export const tokNameAsterisk = 31;
export const tokNamePlus = 32;
export const tokCondSectOpen = 33;
export const tokCondSectClose = 34;
export const tokCloseParenQuestion = 35;
export const tokCloseParenAsterisk = 36;
export const tokCloseParenPlus = 37;
export const tokComma = 38;
export const tokCdataSectClose = 40;

function isNameChar(t: number): boolean {
  return t === btNmstrt || t === btHex || t === btDigit || t === btName || t === btMinus;
}

function isSpace(t: number): boolean {
  return t === btS || t === btCr || t === btLf;
}

/** The scanners over one decoded document. `partial`: the text ends inside a character. */
export class XmlScanner {
  /** Where the last token ends (or, for `tokInvalid`, the offending character). */
  next = 0;
  /** After a start tag: where its name ends. */
  nameEnd = 0;
  /** UTF-16 with an odd byte left over: the end of the text is an unclosed token. */
  odd = false;
  /** UTF-8: look-ahead counts bytes, and a final sentinel stands for `tailBytes` bytes. */
  utf8 = false;
  tailBytes = 0;
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
  private hasUnits(ptr: number, k: number): boolean {
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

  private invalid(at: number): number {
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
    while (ptr < n) {
      const t = this.type(ptr);
      if (isNameChar(t)) {
        ptr++;
        continue;
      }
      this.nameEnd = ptr;
      switch (t) {
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

  private startTagEnd(gt: number, tok: number): number {
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
  private scanComment(ptr: number): number {
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

  /** XmlPrologTok: the next token before or after the root element. */
  prologTok(ptr: number): number {
    const n = this.n;
    if (ptr >= n) return tokNone;
    let tok: number;
    switch (this.type(ptr)) {
      case btQuot:
        return this.scanLit(btQuot, ptr + 1);
      case btApos:
        return this.scanLit(btApos, ptr + 1);
      case btLt: {
        ptr++;
        if (ptr >= n) return tokPartial;
        const t = this.type(ptr);
        if (t === btExcl) return this.scanDecl(ptr + 1);
        if (t === btQuest) return this.scanPi(ptr + 1);
        // expat starts the root on any name start or non-ASCII character and lets scanLt judge it.
        if (t === btNmstrt || t === btHex || this.text.charCodeAt(ptr) >= 0x80) {
          this.next = ptr - 1;
          return tokInstanceStart;
        }
        return this.invalid(ptr);
      }
      case btCr:
        if (ptr + 1 === n) {
          this.next = n;
          return -tokPrologS;
        }
        return this.prologSpace(ptr);
      case btS:
      case btLf:
        return this.prologSpace(ptr);
      case btPercnt:
        return this.scanPercent(ptr + 1);
      case btComma:
        this.next = ptr + 1;
        return tokComma;
      case btLsqb:
        this.next = ptr + 1;
        return tokOpenBracket;
      case btRsqb:
        ptr++;
        if (ptr >= n) return -tokCloseBracket;
        if (this.text.charCodeAt(ptr) === 0x5d) {
          if (!this.hasUnits(ptr, 2)) return tokPartial;
          if (this.text.charCodeAt(ptr + 1) === 0x3e) {
            this.next = ptr + 2;
            return tokCondSectClose;
          }
        }
        this.next = ptr;
        return tokCloseBracket;
      case btLpar:
        this.next = ptr + 1;
        return tokOpenParen;
      case btRpar:
        return this.closeParen(ptr + 1);
      case btVerbar:
        this.next = ptr + 1;
        return tokOr;
      case btGt:
        this.next = ptr + 1;
        return tokDeclClose;
      case btNum:
        return this.scanPoundName(ptr + 1);
      case btPartial:
        return tokPartialChar;
      case btNmstrt:
      case btHex:
        tok = tokName;
        ptr++;
        break;
      case btDigit:
      case btName:
      case btMinus:
        tok = tokNmtoken;
        ptr++;
        break;
      default:
        return this.invalid(ptr);
    }
    while (ptr < n) {
      const t = this.type(ptr);
      if (isNameChar(t)) {
        ptr++;
        continue;
      }
      switch (t) {
        case btPartial:
          return tokPartialChar;
        case btGt:
        case btRpar:
        case btComma:
        case btVerbar:
        case btLsqb:
        case btPercnt:
        case btS:
        case btCr:
        case btLf:
          this.next = ptr;
          return tok;
        case btPlus:
          return tok === tokNmtoken ? this.invalid(ptr) : this.startTagEnd(ptr, tokNamePlus);
        case btAst:
          return tok === tokNmtoken ? this.invalid(ptr) : this.startTagEnd(ptr, tokNameAsterisk);
        case btQuest:
          return tok === tokNmtoken ? this.invalid(ptr) : this.startTagEnd(ptr, tokNameQuestion);
        default:
          return this.invalid(ptr);
      }
    }
    return -tok;
  }

  /** Blanks in the prolog; a final CR is left for the next call (it may start a CR/LF pair). */
  private prologSpace(ptr: number): number {
    const n = this.n;
    for (;;) {
      ptr++;
      if (ptr >= n) break;
      const t = this.type(ptr);
      if (t === btS || t === btLf) continue;
      if (t === btCr && ptr + 1 !== n) continue;
      break;
    }
    this.next = ptr;
    return tokPrologS;
  }

  private closeParen(ptr: number): number {
    if (ptr >= this.n) return -tokCloseParen;
    switch (this.type(ptr)) {
      case btAst:
        return this.startTagEnd(ptr, tokCloseParenAsterisk);
      case btQuest:
        return this.startTagEnd(ptr, tokCloseParenQuestion);
      case btPlus:
        return this.startTagEnd(ptr, tokCloseParenPlus);
      case btCr:
      case btLf:
      case btS:
      case btGt:
      case btComma:
      case btVerbar:
      case btRpar:
        this.next = ptr;
        return tokCloseParen;
    }
    return this.invalid(ptr);
  }

  private scanLit(open: number, ptr: number): number {
    const n = this.n;
    while (ptr < n) {
      const t = this.type(ptr);
      if (t === btLead4) ptr += 2;
      else if (t === btPartial) return tokPartialChar;
      else if (t === btNonXml) return this.invalid(ptr);
      else if (t === btQuot || t === btApos) {
        ptr++;
        if (t !== open) continue;
        if (ptr >= n) return -tokLiteral;
        this.next = ptr;
        const u = this.type(ptr);
        return isSpace(u) || u === btGt || u === btPercnt || u === btLsqb ? tokLiteral : tokInvalid;
      } else ptr++;
    }
    return tokPartial;
  }

  /** After `<!` in the prolog: a comment, `<![`, or a declaration keyword (ASCII letters only). */
  private scanDecl(ptr: number): number {
    const n = this.n;
    if (ptr >= n) return tokPartial;
    const first = this.type(ptr);
    if (first === btMinus) return this.scanComment(ptr + 1);
    if (first === btLsqb) return this.startTagEnd(ptr, tokCondSectOpen);
    if (!this.isAsciiNmstrt(ptr, first)) return this.invalid(ptr);
    for (ptr++; ptr < n; ptr++) {
      const t = this.type(ptr);
      if (t === btPercnt) {
        if (!this.hasUnits(ptr, 2)) return tokPartial;
        const u = this.type(ptr + 1);
        if (isSpace(u) || u === btPercnt) return this.invalid(ptr);
        this.next = ptr;
        return tokDeclOpen;
      }
      if (isSpace(t)) {
        this.next = ptr;
        return tokDeclOpen;
      }
      if (!this.isAsciiNmstrt(ptr, t)) return this.invalid(ptr);
    }
    return tokPartial;
  }

  private isAsciiNmstrt(ptr: number, t: number): boolean {
    return (t === btNmstrt || t === btHex) && this.text.charCodeAt(ptr) < 0x80;
  }

  private scanPercent(ptr: number): number {
    const n = this.n;
    if (ptr >= n) return tokPartial;
    const first = this.type(ptr);
    if (first === btPartial) return tokPartialChar;
    if (isSpace(first) || first === btPercnt) {
      this.next = ptr;
      return tokPercent;
    }
    if (first !== btNmstrt && first !== btHex) return this.invalid(ptr);
    for (ptr++; ptr < n; ptr++) {
      const t = this.type(ptr);
      if (isNameChar(t)) continue;
      if (t === btPartial) return tokPartialChar;
      if (t === btSemi) return this.startTagEnd(ptr, tokParamEntityRef);
      return this.invalid(ptr);
    }
    return tokPartial;
  }

  private scanPoundName(ptr: number): number {
    const n = this.n;
    if (ptr >= n) return tokPartial;
    const first = this.type(ptr);
    if (first === btPartial) return tokPartialChar;
    if (first !== btNmstrt && first !== btHex) return this.invalid(ptr);
    for (ptr++; ptr < n; ptr++) {
      const t = this.type(ptr);
      if (isNameChar(t)) continue;
      if (t === btPartial) return tokPartialChar;
      if (isSpace(t) || t === btRpar || t === btGt || t === btPercnt || t === btVerbar) {
        this.next = ptr;
        return tokPoundName;
      }
      return this.invalid(ptr);
    }
    return -tokPoundName;
  }
}
