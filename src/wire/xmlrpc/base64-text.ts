/**
 * `<base64>` as `xmlrpc.client` reads it: `base64.decodebytes(data.encode("ascii"))`, i.e. CPython
 * 3.11's non-strict `binascii.a2b_base64`, which skips foreign characters and stops at padding.
 */
import { LegacyError, pythonError } from '../../errors.ts';
import { PyBinary } from '../../value.ts';

const blanksRe = /[\r\n\t ]+/g;
const alphabetRe = /[^A-Za-z0-9+/]/;

/** Canonical base64 (a2b_base64 reads it exactly): whole quads, '=' only as final padding. */
function isCanonical(text: string): boolean {
  if (text.length % 4 !== 0) return false;
  let end = text.length;
  if (text.endsWith('==')) end -= 2;
  else if (text.endsWith('=')) end -= 1;
  // A scan for one bad character, not a pattern over the whole text (which may be megabytes).
  return !alphabetRe.test(end === text.length ? text : text.slice(0, end));
}

/** The binary's base64 text (canonical), or Python's UnicodeEncodeError / binascii.Error. */
export function binaryFromBase64Text(data: string): PyBinary | LegacyError {
  // eslint-disable-next-line no-control-regex -- ASCII is defined from NUL
  const nonAscii = data.search(/[^\x00-\x7f]/);
  if (nonAscii >= 0) return asciiEncodeError(data, nonAscii);
  const compact = data.replace(blanksRe, '');
  if (isCanonical(compact)) return new PyBinary(compact);
  const decoded = a2bBase64(compact);
  if (typeof decoded === 'string') return pythonError('binascii.Error', decoded);
  return new PyBinary(Buffer.from(decoded).toString('base64'));
}

function sextet(c: number): number {
  if (c >= 0x41 && c <= 0x5a) return c - 0x41;
  if (c >= 0x61 && c <= 0x7a) return c - 0x61 + 26;
  if (c >= 0x30 && c <= 0x39) return c - 0x30 + 52;
  if (c === 0x2b) return 62;
  if (c === 0x2f) return 63;
  return -1;
}

/** binascii_a2b_base64_impl with strict_mode=False: the bytes, or the binascii.Error text. */
function a2bBase64(text: string): Uint8Array | string {
  const out = new Uint8Array(Math.ceil(text.length / 4) * 3);
  let size = 0;
  let quadPos = 0;
  let leftChar = 0;
  let pads = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0x3d) {
      // A pad sequence completing the quad ends the data; other '=' are ignored.
      if (quadPos >= 2 && quadPos + ++pads >= 4) return out.subarray(0, size);
      continue;
    }
    const v = sextet(ch);
    if (v < 0) continue;
    pads = 0;
    switch (quadPos) {
      case 0:
        quadPos = 1;
        leftChar = v;
        break;
      case 1:
        quadPos = 2;
        out[size++] = (leftChar << 2) | (v >> 4);
        leftChar = v & 0x0f;
        break;
      case 2:
        quadPos = 3;
        out[size++] = ((leftChar << 4) | (v >> 2)) & 0xff;
        leftChar = v & 0x03;
        break;
      default:
        quadPos = 0;
        out[size++] = ((leftChar << 6) | v) & 0xff;
        leftChar = 0;
    }
  }
  if (quadPos === 0) return out.subarray(0, size);
  if (quadPos === 1) {
    const chars = Math.floor(size / 3) * 4 + 1;
    return `Invalid base64-encoded string: number of data characters (${chars}) cannot be 1 more than a multiple of 4`;
  }
  return 'Incorrect padding';
}

/** `data.encode("ascii")` failing: UnicodeEncodeError over the run of non-ASCII code points. */
function asciiEncodeError(data: string, firstUnit: number): LegacyError {
  const chars = Array.from(data);
  const start = Array.from(data.slice(0, firstUnit)).length;
  let end = start;
  while (end < chars.length && chars[end]!.codePointAt(0)! > 0x7f) end++;
  const reason = 'ordinal not in range(128)';
  let str: string;
  if (end === start + 1) {
    const cp = chars[start]!.codePointAt(0)!;
    const hex =
      cp <= 0xff
        ? `\\x${cp.toString(16).padStart(2, '0')}`
        : cp <= 0xffff
          ? `\\u${cp.toString(16).padStart(4, '0')}`
          : `\\U${cp.toString(16).padStart(8, '0')}`;
    str = `'ascii' codec can't encode character '${hex}' in position ${start}: ${reason}`;
  } else {
    str = `'ascii' codec can't encode characters in position ${start}-${end - 1}: ${reason}`;
  }
  const args = ['ascii', data, start, end, reason];
  return new LegacyError('internal', {
    name: 'builtins.UnicodeEncodeError',
    message: args.join('\n'),
    arguments: args,
    str,
  });
}
