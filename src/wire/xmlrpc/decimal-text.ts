/**
 * `str(decimal.Decimal(text))` for `<bigdecimal>`: CPython 3.11's C decimal (libmpdec) reading a
 * string exactly, with its `InvalidOperation` texts.
 */
import { unicodeDigitValue } from '../../python/int-text.ts';

// `str.isspace()` characters (Decimal strips these from both ends, unlike int()).
const spaceRe =
  // eslint-disable-next-line no-control-regex -- Python's str.isspace() includes the separators U+001C-U+001F
  /^[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;
const finiteRe = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;
const specialRe = /^([+-]?)(?:(inf|infinity)|(s?nan)(\d*))$/i;

const maxEmax = 999999999999999999n;
const minEtiny = -1999999999999999997n;

/** The `decimal.InvalidOperation` text for a syntax error. */
export const decimalSyntaxError = "[<class 'decimal.ConversionSyntax'>]";
/** The `decimal.InvalidOperation` text for an exponent beyond the maximum context. */
export const decimalRangeError = "[<class 'decimal.InvalidOperation'>]";

/**
 * `str(Decimal(text))`, or the InvalidOperation text (`decimalSyntaxError`, `decimalRangeError`).
 * Whitespace is stripped, underscores ignored anywhere, Unicode digits accepted (CPython 3.11).
 */
export function decimalFromText(text: string): { text: string } | { error: string } {
  const ascii = toAscii(text.replace(spaceRe, ''));
  const special = specialRe.exec(ascii);
  if (special) {
    const sign = special[1] === '-' ? '-' : '';
    if (special[2]) return { text: `${sign}Infinity` };
    const payload = special[4]!.replace(/^0+/, '');
    return { text: `${sign}${special[3]!.toLowerCase() === 'nan' ? 'NaN' : 'sNaN'}${payload}` };
  }
  const m = finiteRe.exec(ascii);
  if (!m || (m[2] === '' && !m[3])) return { error: decimalSyntaxError };
  const fraction = m[3] ?? '';
  const coefficient = (m[2]! + fraction).replace(/^0+(?=\d)/, '');
  const expDigits = (m[4] ?? '0').replace(/^([+-]?)0+(?=\d)/, '$1');
  if (expDigits.replace(/^[+-]/, '').length > 20) return { error: decimalRangeError };
  const exponent = BigInt(expDigits) - BigInt(fraction.length);
  const adjusted = exponent + BigInt(coefficient.length - 1);
  if (adjusted > maxEmax || exponent < minEtiny) return { error: decimalRangeError };
  return { text: (m[1] === '-' ? '-' : '') + toSciString(coefficient, exponent, adjusted) };
}

/** The decimal spec's to-scientific-string, as `Decimal.__str__` prints it. */
function toSciString(coefficient: string, exponent: bigint, adjusted: bigint): string {
  if (exponent <= 0n && adjusted >= -6n) {
    if (exponent === 0n) return coefficient;
    const point = coefficient.length + Number(exponent);
    return point > 0 ? `${coefficient.slice(0, point)}.${coefficient.slice(point)}` : `0.${'0'.repeat(-point)}${coefficient}`;
  }
  const head = coefficient.length > 1 ? `${coefficient[0]}.${coefficient.slice(1)}` : coefficient;
  return `${head}E${adjusted >= 0n ? '+' : ''}${adjusted}`;
}

/** `numeric_as_ascii`: underscores dropped, Unicode digits → ASCII; anything else non-ASCII is invalid. */
function toAscii(text: string): string {
  // eslint-disable-next-line no-control-regex -- the ASCII range past NUL
  if (!/[^\x01-\x7f]|_/.test(text)) return text;
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (ch === '_') continue;
    if (cp > 0 && cp <= 127) out += ch;
    else {
      const d = unicodeDigitValue(cp);
      out += d < 0 ? '?' : String(d);
    }
  }
  return out;
}
