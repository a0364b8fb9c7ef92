/**
 * expat's prolog tokenizer (xmltok_impl.c `prologTok` and its scanners), for what comes before and
 * after the root element: the XML declaration, comments, PIs, blanks, and the declarations the
 * processors refuse or reject.
 */
import * as chars from './expat-chars.ts';
import { ContentScanner, isNameChar, isSpace } from './expat-scan.ts';
import * as tokens from './expat-tokens.ts';

// Module-local copies (see expat-scan.ts).
const {
  btApos,
  btAst,
  btComma,
  btCr,
  btDigit,
  btExcl,
  btGt,
  btHex,
  btLead4,
  btLf,
  btLpar,
  btLsqb,
  btLt,
  btMinus,
  btName,
  btNmstrt,
  btNonXml,
  btNum,
  btPartial,
  btPercnt,
  btPlus,
  btQuest,
  btQuot,
  btRpar,
  btRsqb,
  btS,
  btSemi,
  btVerbar,
  charTypes,
} = chars;
const {
  tokCloseBracket,
  tokCloseParen,
  tokCloseParenAsterisk,
  tokCloseParenPlus,
  tokCloseParenQuestion,
  tokComma,
  tokCondSectClose,
  tokCondSectOpen,
  tokDeclClose,
  tokDeclOpen,
  tokInstanceStart,
  tokInvalid,
  tokLiteral,
  tokName,
  tokNameAsterisk,
  tokNamePlus,
  tokNameQuestion,
  tokNmtoken,
  tokNone,
  tokOpenBracket,
  tokOpenParen,
  tokOr,
  tokParamEntityRef,
  tokPartial,
  tokPartialChar,
  tokPercent,
  tokPoundName,
  tokPrologS,
} = tokens;

/** All of expat's scanners over one decoded document: content (expat-scan.ts) and prolog. */
export class XmlScanner extends ContentScanner {
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
        if (t === btNmstrt || t === btHex || this.isWideNameStart(ptr)) {
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
    if (!this.isDeclNameChar(ptr, first)) return this.invalid(ptr);
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
      if (!this.isDeclNameChar(ptr, t)) return this.invalid(ptr);
    }
    return tokPartial;
  }

  /**
   * After `<`, expat starts the root on BT_LEADn/BT_NONASCII whatever the character (scanLt judges
   * it later; after the root that makes it "junk" rather than an invalid token): in UTF-8 every
   * non-ASCII character and an undecodable lead byte, in UTF-16 characters above U+00FF (but not a
   * lone low surrogate or U+FFFE/U+FFFF); single-byte encodings type every byte.
   */
  private isWideNameStart(ptr: number): boolean {
    const c = this.text.charCodeAt(ptr);
    if (c < 0x80) return false;
    if (this.utf8) return ptr === this.n - 1 && this.tailBytes > 0 && !this.partial ? this.badLead : true;
    return this.utf16 && c >= 0x100 && charTypes[c] !== btNonXml;
  }

  /**
   * scanDecl's keyword characters: expat's name-start byte types, which UTF-8 gives to ASCII only
   * (other characters are lead bytes there) and UTF-16 to U+0000–U+00FF (the rest is BT_NONASCII).
   */
  private isDeclNameChar(ptr: number, t: number): boolean {
    if (t !== btNmstrt && t !== btHex) return false;
    const c = this.text.charCodeAt(ptr);
    return this.utf8 ? c < 0x80 : !this.utf16 || c < 0x100;
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
