/**
 * Request bytes → the string expat tokenizes, with expat's encoding rules: autodetection from the
 * first bytes (BOM, `<\0`, `\0<`), the encodings expat knows (UTF-8, UTF-16, ISO-8859-1, US-ASCII),
 * and the single-byte code pages pyexpat's unknown-encoding handler builds from Python's codecs.
 * An undecodable byte becomes U+FFFF (invalid for expat); a text ending inside a character ends with
 * a lone U+D800 (`partial`).
 */
import { codePages, encodingNames } from './charset-table.ts';

/** How the bytes are read: expat's built-in encodings, or a pyexpat single-byte code page. */
export type ByteEncoding = 'utf8' | 'utf16le' | 'utf16be' | 'latin1' | 'ascii' | { page: string };

/** A decoded request body, as the scanners see it. */
export interface XmlText {
  text: string;
  /** The text ends inside a multi-byte character (its last unit is a lone U+D800). */
  partial: boolean;
  /** UTF-16 with an odd byte left over (expat: an unclosed token there). */
  odd: boolean;
  /** UTF-8 only: the bytes the text stands for are counted (expat looks ahead in bytes). */
  utf8?: boolean;
  /** UTF-8 ending in a sentinel: how many raw bytes it stands for (the rest of the body). */
  tailBytes?: number;
  /** UTF-8: the undecodable byte is one expat types as a lead byte (0xC0–0xF4). */
  badLead?: boolean;
}

const invalidChar = '\uffff';
const utf8Decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * expat's `initScan`: the encoding implied by the first bytes, or `undefined` when a lone first
 * byte could still start a BOM or a UTF-16 character (expat: unclosed token at 1:0).
 */
export function detectEncoding(bytes: Uint8Array): 'utf8' | 'utf16le' | 'utf16be' | undefined {
  const b0 = bytes[0];
  if (bytes.length === 1) return b0 === 0xfe || b0 === 0xff || b0 === 0xef || b0 === 0x00 ? undefined : 'utf8';
  const b1 = bytes[1];
  if (b0 === 0xfe && b1 === 0xff) return 'utf16be';
  if (b0 === 0xff && b1 === 0xfe) return 'utf16le';
  if (b0 === 0x3c && b1 === 0x00) return 'utf16le';
  if (b0 === 0xef && b1 === 0xbb && bytes.length === 2) return undefined;
  if (b0 === 0x00) return 'utf16be';
  if (b1 === 0x00) return 'utf16le';
  return 'utf8';
}

/** Decodes the whole body with one encoding (BOMs are kept: expat counts them as a column). */
export function decodeBytes(bytes: Uint8Array, encoding: ByteEncoding): XmlText {
  if (encoding === 'utf8') return decodeUtf8(bytes);
  if (encoding === 'utf16le' || encoding === 'utf16be') return decodeUtf16(bytes, encoding === 'utf16be');
  const latin1 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  if (encoding === 'latin1') return { text: latin1, partial: false, odd: false };
  if (encoding === 'ascii') return { text: latin1.replace(/[\x80-\xff]/g, invalidChar), partial: false, odd: false };
  return { text: decodeCodePage(latin1, encoding.page), partial: false, odd: false };
}

function decodeCodePage(latin1: string, page: string): string {
  const low = page.length === 256;
  let out = '';
  let from = 0;
  for (let i = 0; i < latin1.length; i++) {
    const b = latin1.charCodeAt(i);
    if (b < 0x80 && !low) continue;
    const ch = page[low ? b : b - 0x80]!;
    out += latin1.slice(from, i) + (ch === '\ufffd' ? invalidChar : ch);
    from = i + 1;
  }
  return out + latin1.slice(from);
}

function decodeUtf8(bytes: Uint8Array): XmlText {
  try {
    return { text: utf8Decoder.decode(bytes), partial: false, odd: false, utf8: true };
  } catch {
    // Nothing after the first bad byte is ever read, only counted (expat's look-ahead is in bytes).
    const bad = firstInvalidUtf8(bytes);
    const prefix = utf8Decoder.decode(bytes.subarray(0, bad.at));
    const tailBytes = bytes.length - bad.at;
    return bad.partial
      ? { text: `${prefix}\ud800`, partial: true, odd: false, utf8: true, tailBytes }
      : {
          text: prefix + invalidChar,
          partial: false,
          odd: false,
          utf8: true,
          tailBytes,
          badLead: bytes[bad.at]! >= 0xc0 && bytes[bad.at]! <= 0xf4,
        };
  }
}

/**
 * Where expat's UTF-8 tables stop: the lead byte of the first invalid sequence, `partial` when it is
 * a lead byte with too few bytes left (checked before its continuation bytes, as expat does).
 */
function firstInvalidUtf8(bytes: Uint8Array): { at: number; partial: boolean } {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    const len = b >= 0xc0 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (len === 0) return { at: i, partial: false };
    if (n - i < len) return { at: i, partial: true };
    if (!isValidSequence(bytes, i, len)) return { at: i, partial: false };
    i += len;
  }
  return { at: n, partial: false };
}

function isTrail(b: number): boolean {
  return (b & 0xc0) === 0x80;
}

function isValidSequence(p: Uint8Array, i: number, len: number): boolean {
  const b0 = p[i]!;
  const b1 = p[i + 1]!;
  if (len === 2) return b0 >= 0xc2 && isTrail(b1);
  const b2 = p[i + 2]!;
  if (len === 3) {
    if (!isTrail(b1) || !isTrail(b2)) return false;
    if (b0 === 0xe0 && b1 < 0xa0) return false; // overlong
    if (b0 === 0xed && b1 > 0x9f) return false; // surrogates
    return !(b0 === 0xef && b1 === 0xbf && b2 > 0xbd); // U+FFFE, U+FFFF
  }
  if (!isTrail(b1) || !isTrail(b2) || !isTrail(p[i + 3]!)) return false;
  if (b0 === 0xf0 && b1 < 0x90) return false; // overlong
  return !(b0 === 0xf4 && b1 > 0x8f); // beyond U+10FFFF
}

function decodeUtf16(bytes: Uint8Array, bigEndian: boolean): XmlText {
  const even = bytes.length & ~1;
  const copy = Buffer.from(bytes.subarray(0, even));
  if (bigEndian) copy.swap16();
  const text = copy.toString('utf16le');
  const last = text.charCodeAt(text.length - 1);
  return { text, partial: last >= 0xd800 && last <= 0xdbff, odd: even !== bytes.length };
}

/** What pyexpat makes of an `encoding=` name expat does not know itself. */
export type EncodingLookup = { page: string } | { expat: 'unknown encoding' } | { pyName: string; message: string };

/** Python's codec lookup (`normalize_encoding` of the lower-cased name, then aliases) as pyexpat sees it. */
export function lookupPythonEncoding(name: string): EncodingLookup {
  const norm = normalizeEncodingName(name);
  let entry = Object.hasOwn(encodingNames, norm) ? encodingNames[norm] : undefined;
  if (!entry && norm.includes('.')) {
    const aliased = norm.replaceAll('.', '_');
    if (Object.hasOwn(encodingNames, aliased)) entry = encodingNames[aliased];
  }
  switch (entry?.[0]) {
    case 'map':
      return { page: codePages[entry[1] as number]! };
    case 'expat':
      return { expat: 'unknown encoding' };
    case 'notText':
      return {
        pyName: 'LookupError',
        message: `'${name}' is not a text encoding; use codecs.decode() to handle arbitrary codecs`,
      };
    case 'py':
      return { pyName: entry[1] as string, message: entry[2] as string };
  }
  return { pyName: 'LookupError', message: `unknown encoding: ${name}` };
}

/** `encodings.normalize_encoding(name.lower())`: runs of other characters than [a-z0-9.] become `_`. */
function normalizeEncodingName(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, '_')
    .replace(/^_+|_+$/g, '');
}
