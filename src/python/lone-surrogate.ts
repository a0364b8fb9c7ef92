/**
 * Lone surrogates: a high surrogate not followed by a low one, or a low one not after a high one.
 * JSON can carry them (`"\ud800"`), JavaScript strings hold them, and Python's `str.encode('utf-8')`
 * refuses them (`UnicodeEncodeError: … surrogates not allowed`).
 */

/** Whether Python could not encode `text` to UTF-8 (a string that is not well-formed UTF-16). */
export function hasLoneSurrogate(text: string): boolean {
  return !text.isWellFormed();
}
