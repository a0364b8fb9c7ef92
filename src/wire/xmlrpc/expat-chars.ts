/**
 * expat's character classes ("byte types", xmltok.c asciitab/latin1tab/nametab) for a decoded
 * UTF-16 string: one class per code unit, astral characters as a two-unit `btLead4`.
 */
import { nameCharRanges, nameStartRanges } from './expat-names.ts';

// The byte types the scanners switch on: expat's BT_* without namespace processing (':' is a name
// start); BT_NONXML, BT_MALFORM and BT_TRAIL are one class, as every scanner treats them alike.
/** A character XML 1.0 forbids, or the decoder's mark for an undecodable byte (U+FFFF). */
export const btNonXml = 0;
/** The sentinel closing a text that ended inside a multi-byte character (expat: LEADn past the end). */
export const btPartial = 1;
export const btLt = 2;
export const btAmp = 3;
export const btRsqb = 4;
/** A high surrogate: an astral character, two code units, never part of a name. */
export const btLead4 = 5;
export const btCr = 6;
export const btLf = 7;
export const btGt = 8;
export const btQuot = 9;
export const btApos = 10;
export const btEquals = 11;
export const btQuest = 12;
export const btExcl = 13;
export const btSol = 14;
export const btSemi = 15;
export const btNum = 16;
export const btLsqb = 17;
export const btS = 18;
/** A name start character (letters, `_`, `:` and expat 2.5's non-ASCII name starts). */
export const btNmstrt = 19;
export const btHex = 20;
export const btDigit = 21;
/** A name character that cannot start a name (`.`, and expat's non-ASCII name characters). */
export const btName = 22;
export const btMinus = 23;
export const btOther = 24;
export const btPercnt = 25;
export const btLpar = 26;
export const btRpar = 27;
export const btAst = 28;
export const btPlus = 29;
export const btComma = 30;
export const btVerbar = 31;

/** The class of every UTF-16 code unit (a high surrogate is `btLead4`, a low one is invalid). */
export const charTypes: Uint8Array = buildTable();

function buildTable(): Uint8Array {
  const t = new Uint8Array(0x10000).fill(btOther);
  t.fill(btNonXml, 0, 0x20);
  t[0x09] = btS;
  t[0x0a] = btLf;
  t[0x0d] = btCr;
  t[0x20] = btS;
  const ascii: Record<string, number> = {
    '!': btExcl,
    '"': btQuot,
    '#': btNum,
    '%': btPercnt,
    '&': btAmp,
    "'": btApos,
    '(': btLpar,
    ')': btRpar,
    '*': btAst,
    '+': btPlus,
    ',': btComma,
    '-': btMinus,
    '.': btName,
    '/': btSol,
    ':': btNmstrt,
    ';': btSemi,
    '<': btLt,
    '=': btEquals,
    '>': btGt,
    '?': btQuest,
    '[': btLsqb,
    ']': btRsqb,
    _: btNmstrt,
    '|': btVerbar,
  };
  for (const [ch, type] of Object.entries(ascii)) t[ch.charCodeAt(0)] = type;
  for (let c = 0x30; c <= 0x39; c++) t[c] = btDigit;
  for (let c = 0x41; c <= 0x5a; c++) t[c] = c <= 0x46 ? btHex : btNmstrt;
  for (let c = 0x61; c <= 0x7a; c++) t[c] = c <= 0x66 ? btHex : btNmstrt;
  fillRanges(t, nameCharRanges, btName);
  fillRanges(t, nameStartRanges, btNmstrt);
  t.fill(btLead4, 0xd800, 0xdc00);
  t.fill(btNonXml, 0xdc00, 0xe000);
  t[0xfffe] = btNonXml;
  t[0xffff] = btNonXml;
  return t;
}

function fillRanges(t: Uint8Array, ranges: readonly number[], type: number): void {
  for (let i = 0; i < ranges.length; i += 2) t.fill(type, ranges[i], ranges[i + 1]! + 1);
}

/** expat `checkCharRefNumber`: the code points a character reference may not name. */
export function isBadCharRef(cp: number): boolean {
  if (cp >= 0x110000) return true;
  if (cp < 0x20) return cp !== 0x09 && cp !== 0x0a && cp !== 0x0d;
  return (cp >= 0xd800 && cp <= 0xdfff) || cp === 0xfffe || cp === 0xffff;
}
