/**
 * A streamed string result (`db.dump`) as a `/jsonrpc` success envelope, byte for byte as
 * `encodeResult` writes a string result: the envelope up to the opening quote, the text as it
 * arrives (base64 needs no JSON escaping), the closing quote and brace.
 */
import type { StreamedString, Value } from '../../value.ts';
import { framedChunks } from '../streamed-body.ts';
import { encodeResult } from './encode.ts';

const marker = 'streamed-string-marker';

/** The text of `{"jsonrpc": "2.0", "id": …, "result": "<streamed string>"}`, chunk by chunk. */
export function encodeStreamedResult(id: Value, result: StreamedString): AsyncGenerator<string> {
  // The result is the envelope's last member: split at the marker's last occurrence (the id may hold it).
  const text = encodeResult(id, marker);
  const at = text.lastIndexOf(marker);
  return framedChunks(text.slice(0, at), result.chunks, text.slice(at + marker.length));
}
