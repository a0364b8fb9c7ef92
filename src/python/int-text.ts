/**
 * CPython 3.11's `int(str)` and `float(str)` text rules, and the `ValueError` texts they raise (which
 * embed Python's `repr()` of the text). Used by the XML-RPC decoder (`<int>`, `<double>`) and by the
 * object service (`uid = int(uid)`, Odoo: `odoo/service/model.py`). Checked against python3.11.
 */

/** `sys.get_int_max_str_digits()` default (CPython ≥ 3.11, CVE-2020-10735): longer texts are refused. */
export const maxIntStrDigits = 4300;

// Non-ASCII characters `str.isspace()` accepts (Unicode 14, CPython 3.11); ASCII ones are [ \t\n\v\f\r].
const unicodeSpaces = new Set([
  0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f,
  0x205f, 0x3000,
]);

// The digit-zero of every run of Unicode decimal digits (category Nd, Unicode 14): each run is 10 long.
const decimalZeros = [
  0x660, 0x6f0, 0x7c0, 0x966, 0x9e6, 0xa66, 0xae6, 0xb66, 0xbe6, 0xc66, 0xce6, 0xd66, 0xde6, 0xe50, 0xed0, 0xf20, 0x1040, 0x1090, 0x17e0,
  0x1810, 0x1946, 0x19d0, 0x1a80, 0x1a90, 0x1b50, 0x1bb0, 0x1c40, 0x1c50, 0xa620, 0xa8d0, 0xa900, 0xa9d0, 0xa9f0, 0xaa50, 0xabf0, 0xff10,
  0x104a0, 0x10d30, 0x11066, 0x110f0, 0x11136, 0x111d0, 0x112f0, 0x11450, 0x114d0, 0x11650, 0x116c0, 0x11730, 0x118e0, 0x11950, 0x11c50,
  0x11d50, 0x11da0, 0x16a60, 0x16ac0, 0x16b50, 0x1d7ce, 0x1d7d8, 0x1d7e2, 0x1d7ec, 0x1d7f6, 0x1e140, 0x1e2f0, 0x1e950, 0x1fbf0,
];

/** The decimal value of a non-ASCII code point (`unicodedata.decimal`, Unicode 14), or -1. */
export function unicodeDigitValue(cp: number): number {
  let lo = 0;
  let hi = decimalZeros.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const zero = decimalZeros[mid]!;
    if (cp < zero) hi = mid - 1;
    else if (cp >= zero + 10) lo = mid + 1;
    else return cp - zero;
  }
  return -1;
}

// eslint-disable-next-line no-control-regex -- ASCII is defined from NUL
const nonAsciiRe = /[^\x00-\x7e]/;

/**
 * `_PyUnicode_TransformDecimalAndSpaceToASCII`: Unicode spaces become ' ', Unicode digits their ASCII
 * digit; the first other non-ASCII character becomes '?' and ends the text.
 */
function toAsciiNumeric(text: string): string {
  if (!nonAsciiRe.test(text)) return text;
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp < 127) out += ch;
    else if (unicodeSpaces.has(cp)) out += ' ';
    else {
      const d = unicodeDigitValue(cp);
      if (d < 0) return `${out}?`;
      out += String.fromCharCode(48 + d);
    }
  }
  return out;
}

function isAsciiSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** `int(text)`'s outcome: the value, or why it fails (`tooLong` carries the digit count). */
type IntScan = number | bigint | { tooLong: number } | undefined;

/** `PyLong_FromString(s, base=10)` on the transformed text, in CPython's order of checks. */
function scanInt(text: string): IntScan {
  const s = toAsciiNumeric(text);
  const n = s.length;
  let i = 0;
  while (i < n && isAsciiSpace(s.charCodeAt(i))) i++;
  let negative = false;
  if (s.charCodeAt(i) === 0x2b) i++;
  else if (s.charCodeAt(i) === 0x2d) {
    negative = true;
    i++;
  }
  if (!isDigit(s.charCodeAt(i))) return undefined; // no digits, or a leading underscore
  const start = i;
  let digits = 0;
  let underscores = false;
  let prevUnderscore = false;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (isDigit(c)) {
      digits++;
      prevUnderscore = false;
    } else if (c === 0x5f) {
      if (prevUnderscore) return undefined; // only one underscore between digits
      prevUnderscore = underscores = true;
    } else break;
  }
  if (prevUnderscore) return undefined; // trailing underscore
  if (digits > maxIntStrDigits) return { tooLong: digits };
  const end = i;
  while (i < n && isAsciiSpace(s.charCodeAt(i))) i++;
  if (i !== n) return undefined;
  const body = underscores ? s.slice(start, end).replaceAll('_', '') : s.slice(start, end);
  if (digits <= 15) {
    const v = Number(body);
    return negative && v !== 0 ? -v : v;
  }
  const big = BigInt(body);
  const v = negative ? -big : big;
  return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
}

/**
 * Python's `int(text)` (base 10): surrounding whitespace (Unicode too), one sign, single underscores
 * between digits, Unicode decimal digits, unbounded. A `number` when safe, else a `bigint`;
 * `undefined` when `int()` would raise ValueError (see {@link intValueErrorMessage}).
 */
export function parsePythonInt(text: string): number | bigint | undefined {
  const r = scanInt(text);
  return typeof r === 'object' ? undefined : r;
}

/** The ValueError text `int(text)` raises, for a text {@link parsePythonInt} refused. */
export function intValueErrorMessage(text: string): string {
  const r = scanInt(text);
  return typeof r === 'object' ? intDigitsLimitMessage(r.tooLong) : invalidIntLiteralMessage(text);
}

/** `invalid literal for int() with base 10: '<repr>'`; like CPython's `%.200R`, the repr is cut at 200. */
export function invalidIntLiteralMessage(text: string): string {
  return `invalid literal for int() with base 10: ${truncateCodePoints(pyRepr(text), 200)}`;
}

/** CPython 3.11's refusal of a text with more than {@link maxIntStrDigits} digits. */
export function intDigitsLimitMessage(digits: number): string {
  return (
    `Exceeds the limit (${maxIntStrDigits} digits) for integer string conversion: ` +
    `value has ${digits} digits; use sys.set_int_max_str_digits() to increase the limit`
  );
}

/**
 * What `PyOS_string_to_double` accepts once spaces are stripped and underscores removed: a sign,
 * digits with at most one point, an exponent; or inf/infinity/nan. A scan, not a regex: an
 * ambiguous pattern would backtrack quadratically on a long `<double>`.
 */
function isFloatText(t: string, start: number): boolean {
  const n = t.length;
  if (n - start <= 8) {
    const word = t.slice(start).toLowerCase();
    if (word === 'inf' || word === 'infinity' || word === 'nan') return true;
  }
  let i = start;
  let digits = 0;
  while (i < n && isDigit(t.charCodeAt(i))) i++;
  digits += i - start;
  if (t.charCodeAt(i) === 0x2e) {
    const from = ++i;
    while (i < n && isDigit(t.charCodeAt(i))) i++;
    digits += i - from;
  }
  if (digits === 0) return false;
  if (t.charCodeAt(i) === 0x65 || t.charCodeAt(i) === 0x45) {
    i++;
    if (t.charCodeAt(i) === 0x2b || t.charCodeAt(i) === 0x2d) i++;
    const from = i;
    while (i < n && isDigit(t.charCodeAt(i))) i++;
    if (i === from) return false;
  }
  return i === n;
}

/**
 * Python's `float(text)`: surrounding whitespace, sign, `1E3`, `.5`, `5.`, `inf`/`infinity`/`nan` in any
 * case, underscores between digits, Unicode digits. `undefined` when `float()` would raise ValueError.
 */
export function parsePythonFloat(text: string): number | undefined {
  let s = toAsciiNumeric(text);
  if (s.includes('_')) {
    // `_Py_string_to_number_with_underscores`: each underscore sits between two ASCII digits.
    for (let i = 0; i < s.length; i++) {
      if (s.charCodeAt(i) !== 0x5f) continue;
      if (!isDigit(s.charCodeAt(i - 1)) || !isDigit(s.charCodeAt(i + 1))) return undefined;
    }
    s = s.replaceAll('_', '');
  }
  let a = 0;
  let b = s.length;
  while (a < b && isAsciiSpace(s.charCodeAt(a))) a++;
  while (b > a && isAsciiSpace(s.charCodeAt(b - 1))) b--;
  const t = s.slice(a, b);
  const signed = t.charCodeAt(0) === 0x2b || t.charCodeAt(0) === 0x2d;
  if (!isFloatText(t, signed ? 1 : 0)) return undefined;
  const last = t.charCodeAt(t.length - 1) | 0x20; // 'n' of nan, 'f'/'y' of inf/infinity
  if (last === 0x6e) return NaN;
  if (last === 0x66 || last === 0x79) return t.charCodeAt(0) === 0x2d ? -Infinity : Infinity;
  return Number(t);
}

/** The ValueError text `float(text)` raises: `could not convert string to float: '<repr>'`. */
export function floatValueErrorMessage(text: string): string {
  return `could not convert string to float: ${pyRepr(text)}`;
}

// Anything but printable ASCII other than ' and \ takes the slow path.
const needsEscapeRe = /[^\x20-\x26\x28-\x5b\x5d-\x7e]/;
// Python's str.isprintable() is false for these categories (space U+0020 excepted).
const nonPrintableRe = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

function hex(cp: number, width: number): string {
  return cp.toString(16).padStart(width, '0');
}

/**
 * Python's `repr()` of a str: single quotes unless the text has `'` and no `"`; `\\`, `\t`, `\n`,
 * `\r`, `\xNN` for other controls, non-printable non-ASCII as `\xNN`/`\uNNNN`/`\UNNNNNNNN`.
 * (Printability follows this runtime's Unicode tables, newer than CPython 3.11's 14.0.)
 */
export function pyRepr(text: string): string {
  if (!needsEscapeRe.test(text)) return `'${text}'`;
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x7f && cp >= 0x20) {
      out += ch === quote || ch === '\\' ? `\\${ch}` : ch;
    } else if (cp === 0x09) out += '\\t';
    else if (cp === 0x0a) out += '\\n';
    else if (cp === 0x0d) out += '\\r';
    else if (cp < 0x80) out += `\\x${hex(cp, 2)}`;
    else if (!nonPrintableRe.test(ch)) out += ch;
    else if (cp <= 0xff) out += `\\x${hex(cp, 2)}`;
    else if (cp <= 0xffff) out += `\\u${hex(cp, 4)}`;
    else out += `\\U${hex(cp, 8)}`;
  }
  return out + quote;
}

function truncateCodePoints(text: string, max: number): string {
  if (text.length <= max) return text;
  let count = 0;
  let i = 0;
  while (i < text.length && count < max) {
    i += text.codePointAt(i)! > 0xffff ? 2 : 1;
    count++;
  }
  return text.slice(0, i);
}
