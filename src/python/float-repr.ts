/**
 * Python's `repr(float)`: the shortest text that round-trips, in fixed notation for decimal
 * exponents -4..15 (always with a `.0` when integral) and scientific notation otherwise
 * (`1e+16`, `1e-05`). Both Odoo's marshaller (`<double>`) and `json.dumps` write floats this way.
 */

/** `repr(x)` for a finite or non-finite double: `2240.0`, `0.1`, `1e+16`, `inf`, `-inf`, `nan`. */
export function floatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  // toExponential() without digits gives the shortest round-tripping digits, as repr does.
  const [mantissa, expText] = x.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  const sign = negative ? '-' : '';
  if (exp < -4 || exp >= 16) {
    const frac = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = Math.abs(exp);
    return `${sign}${frac}e${exp < 0 ? '-' : '+'}${e < 10 ? '0' : ''}${e}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  if (digits.length <= exp + 1) return `${sign}${digits}${'0'.repeat(exp + 1 - digits.length)}.0`;
  return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
}

/** `json.dumps(x)` for a float: like repr, but non-finite values are `NaN`/`Infinity`. */
export function floatJson(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  return floatRepr(x);
}
