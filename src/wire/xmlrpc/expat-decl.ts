/**
 * expat's XML declaration parser (xmltok.c `doParseXmlDecl` / `parsePseudoAttribute`) and the
 * encoding switch it triggers (xmlparse.c `processXmlDecl`).
 */

/** A parsed `<?xml …?>`: where it failed, or the encoding name it declares (if any). */
export type XmlDecl = { bad: number } | { encoding?: { name: string; at: number } };

function isDeclSpace(c: number): boolean {
  return c === 0x20 || c === 0x0d || c === 0x0a || c === 0x09;
}

function isValueChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2d || c === 0x5f;
}

interface PseudoAttribute {
  /** Absent when only spaces remain. */
  name?: string;
  nameAt: number;
  value: string;
  valueAt: number;
  next: number;
}

/**
 * Parses the declaration token `text[start, end)` (`<?xml` … `?>`): `version` first, then optional
 * `encoding` (starting with a letter) and `standalone` (`yes`/`no`). Positions are text indexes.
 */
export function parseXmlDecl(text: string, start: number, end: number): XmlDecl {
  const stop = end - 2;
  const code = (i: number) => (i < stop ? text.charCodeAt(i) : -1);
  let failAt = 0;

  // parsePseudoAttribute: undefined when malformed (the position is left in `failAt`).
  const attribute = (from: number): PseudoAttribute | undefined => {
    let p = from;
    const none = { nameAt: p, value: '', valueAt: p, next: from };
    if (p === stop) return none;
    if (!isDeclSpace(code(p))) return void (failAt = p);
    do p++;
    while (isDeclSpace(code(p)));
    if (p === stop) return none;
    const nameAt = p;
    let nameEnd: number;
    for (;;) {
      const c = code(p);
      if (c === -1 || c > 0x7f) return void (failAt = p);
      if (c === 0x3d) {
        nameEnd = p;
        break;
      }
      if (isDeclSpace(c)) {
        nameEnd = p;
        do p++;
        while (isDeclSpace(code(p)));
        if (code(p) !== 0x3d) return void (failAt = p);
        break;
      }
      p++;
    }
    if (p === nameAt) return void (failAt = p);
    p++;
    while (isDeclSpace(code(p))) p++;
    const open = code(p);
    if (open !== 0x22 && open !== 0x27) return void (failAt = p);
    p++;
    const valueAt = p;
    for (; ; p++) {
      const c = code(p);
      if (c === open) break;
      if (!isValueChar(c)) return void (failAt = p);
    }
    return { name: text.slice(nameAt, nameEnd), nameAt, value: text.slice(valueAt, p), valueAt, next: p + 1 };
  };

  let ptr = start + 5;
  let attr = attribute(ptr);
  if (!attr) return { bad: failAt };
  if (attr.name === undefined) return { bad: ptr };
  if (attr.name !== 'version') return { bad: attr.nameAt };
  ptr = attr.next;
  attr = attribute(ptr);
  if (!attr) return { bad: failAt };
  if (attr.name === undefined) return {};
  let encoding: { name: string; at: number } | undefined;
  if (attr.name === 'encoding') {
    const first = attr.value.charCodeAt(0);
    if (!((first >= 0x61 && first <= 0x7a) || (first >= 0x41 && first <= 0x5a))) return { bad: attr.valueAt };
    encoding = { name: attr.value, at: attr.valueAt };
    ptr = attr.next;
    attr = attribute(ptr);
    if (!attr) return { bad: failAt };
    if (attr.name === undefined) return { encoding };
  }
  if (attr.name !== 'standalone') return { bad: attr.nameAt };
  if (attr.value !== 'yes' && attr.value !== 'no') return { bad: attr.valueAt };
  ptr = attr.next;
  while (isDeclSpace(code(ptr))) ptr++;
  if (ptr !== stop) return { bad: ptr };
  return encoding ? { encoding } : {};
}
