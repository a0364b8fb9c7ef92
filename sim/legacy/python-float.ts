/**
 * `repr(float)` as CPython prints it (the shortest text that reads back the same value, in
 * scientific notation below 1e-4 and from 1e16 on), for the simulator's legacy answers. Its own
 * implementation, not the gateway's: the legacy endpoints must not share the gateway's encoder.
 */

/** `repr(x)`: `2240.0`, `0.1`, `1e-05`, `1e+16`, `inf`, `nan`. */
export function pythonFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  // JavaScript's exponential form already holds the shortest round-trip digits
  const [mantissa = '', exp = '0'] = x.toExponential().split('e');
  const sign = mantissa.startsWith('-') ? '-' : '';
  const digits = mantissa.replace('-', '').replace('.', '');
  const e = Number(exp);
  if (e < -4 || e >= 16) {
    const rest = digits.slice(1);
    const abs = Math.abs(e);
    return `${sign}${digits[0]}${rest === '' ? '' : `.${rest}`}e${e < 0 ? '-' : '+'}${abs < 10 ? `0${abs}` : abs}`;
  }
  if (e < 0) return `${sign}0.${'0'.repeat(-e - 1)}${digits}`;
  const whole = digits.length > e + 1 ? digits.slice(0, e + 1) : digits.padEnd(e + 1, '0');
  const fraction = digits.length > e + 1 ? digits.slice(e + 1) : '0';
  return `${sign}${whole}.${fraction}`;
}
