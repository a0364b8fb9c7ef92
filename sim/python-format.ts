/**
 * Python's `format % mapping` (CPython's PyUnicode_Format), reduced to whether it succeeds when every
 * key maps to the int 1 — what `res.country._check_address_format` tries — and which exception it
 * raises otherwise. python-format.test.ts compares it with Python itself.
 */

export type PercentFormatOutcome = { ok: true } | { ok: false; error: 'KeyError' | 'ValueError' | 'TypeError'; message: string };

const flags = new Set(['-', '+', ' ', '#', '0']);
const lengthModifiers = new Set(['h', 'l', 'L']);
/** The conversions a `str` accepts for its argument; a dict also fits `s`, `r` and `a` only. */
const conversions = new Set([...'srabcdiouxXeEfFgG']);
const stringConversions = new Set(['s', 'r', 'a']);

const fail = (error: 'KeyError' | 'ValueError' | 'TypeError', message: string): PercentFormatOutcome => ({ ok: false, error, message });

/** `format % {key: 1 for key in keys}`: success, or the exception Python raises. */
export function percentFormat(format: string, keys: ReadonlySet<string>): PercentFormatOutcome {
  const chars = [...format];
  // A mapping passed alone is also the one positional argument: the first key-less conversion
  // takes it; a key-less conversion after any other conversion finds no argument left.
  let argumentLeft = true;
  let i = 0;
  const incomplete = () => fail('ValueError', 'incomplete format');
  while (i < chars.length) {
    if (chars[i] !== '%') {
      i++;
      continue;
    }
    i++;
    if (i >= chars.length) return incomplete();
    let keyed = false;
    if (chars[i] === '(') {
      let depth = 1;
      const start = ++i;
      while (i < chars.length && depth > 0) {
        if (chars[i] === '(') depth++;
        else if (chars[i] === ')') depth--;
        i++;
      }
      if (depth > 0) return fail('ValueError', 'incomplete format key');
      const key = chars.slice(start, i - 1).join('');
      if (!keys.has(key)) return fail('KeyError', `'${key}'`);
      keyed = true;
      argumentLeft = true; // the key's value is the argument of this conversion
    }
    while (i < chars.length && flags.has(chars[i] as string)) i++;
    for (const part of ['width', 'precision'] as const) {
      if (part === 'precision') {
        if (chars[i] !== '.') break;
        i++;
      }
      if (chars[i] === '*') {
        // `*` takes an int argument: the mapping itself, or the key's value with none left after it
        if (!argumentLeft) return fail('TypeError', 'not enough arguments for format string');
        if (!keyed) return fail('TypeError', '* wants int');
        argumentLeft = false;
        i++;
      } else while (i < chars.length && /[0-9]/.test(chars[i] as string)) i++;
    }
    if (i < chars.length && lengthModifiers.has(chars[i] as string)) i++;
    if (i >= chars.length) return incomplete();
    const conversion = chars[i] as string;
    const index = i; // in code points, as Python counts
    i++;
    if (conversion === '%' && chars[i - 2] === '%') continue; // `%%`
    // Python takes the argument before it looks at the conversion character
    if (!argumentLeft) return fail('TypeError', 'not enough arguments for format string');
    argumentLeft = false;
    if (!conversions.has(conversion)) {
      const code = conversion.codePointAt(0) ?? 0;
      return fail('ValueError', `unsupported format character '${conversion}' (0x${code.toString(16)}) at index ${index}`);
    }
    if (!keyed && !stringConversions.has(conversion)) {
      return fail(
        'TypeError',
        conversion === 'c' ? '%c requires int or char' : `%${conversion} format: a real number is required, not dict`,
      );
    }
  }
  return { ok: true };
}
