/**
 * Base64 in pieces, so a backup never has to be whole in memory: bytes → base64 text while the
 * backup is read (`db.dump`, as `base64.b64encode` would write it in one piece), and base64 text →
 * bytes in slices for the restore upload.
 */

/** The standard base64 of everything `bytes` yields, one text chunk per input chunk (3-byte aligned). */
export async function* base64Chunks(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  // 0–2 bytes left over from the previous chunk, completed from the next one (no chunk is copied).
  let carry = Buffer.alloc(0);
  for await (const chunk of bytes) {
    let view = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (carry.length > 0) {
      const take = Math.min(3 - carry.length, view.length);
      carry = Buffer.concat([carry, view.subarray(0, take)]);
      view = view.subarray(take);
      if (carry.length < 3) continue;
      // A separate 4-character chunk: joined to the next text it would be copied once more.
      yield carry.toString('base64');
    }
    const usable = view.length - (view.length % 3);
    // Copy the leftover bytes first: the caller may reuse its buffer once we yield.
    carry = Buffer.from(view.subarray(usable));
    if (usable > 0) yield view.toString('base64', 0, usable);
  }
  if (carry.length > 0) yield carry.toString('base64');
}

/**
 * The bytes of `text` (base64 holding only alphabet characters and final padding), decoded one
 * slice of about `chunkBytes` at a time when the consumer asks for it.
 */
export function* base64Decoded(text: string, chunkBytes = 1 << 20): Generator<Uint8Array> {
  const step = Math.max(1, Math.ceil(chunkBytes / 3)) * 4;
  for (let at = 0; at < text.length; at += step) yield Buffer.from(text.slice(at, at + step), 'base64');
}
