/**
 * Python json's number token (`-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?`): a fraction or an exponent
 * without digits is not part of it (the scanner then stops before it). One scanner for the lossless
 * parser, the canonical-text check and the XML-RPC transcoder, so they can never disagree.
 */

export function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Where a number token ends, where its integer digits are, and whether it is a float. */
export interface NumberToken {
  end: number;
  intStart: number;
  intEnd: number;
  isFloat: boolean;
}

/** The number token starting at `start`, or `undefined` when no digit follows the optional minus. */
export function scanNumber(t: string, start: number): NumberToken | undefined {
  let p = start;
  if (t.charCodeAt(p) === 0x2d) p++;
  const intStart = p;
  if (t.charCodeAt(p) === 0x30) p++;
  else {
    if (!isDigit(t.charCodeAt(p))) return undefined;
    while (isDigit(t.charCodeAt(p))) p++;
  }
  const intEnd = p;
  let isFloat = false;
  if (t.charCodeAt(p) === 0x2e && isDigit(t.charCodeAt(p + 1))) {
    isFloat = true;
    p += 2;
    while (isDigit(t.charCodeAt(p))) p++;
  }
  const e = t.charCodeAt(p);
  if (e === 0x65 || e === 0x45) {
    let q = p + 1;
    const sign = t.charCodeAt(q);
    if (sign === 0x2b || sign === 0x2d) q++;
    if (isDigit(t.charCodeAt(q))) {
      isFloat = true;
      while (isDigit(t.charCodeAt(q))) q++;
      p = q;
    }
  }
  return { end: p, intStart, intEnd, isFloat };
}
