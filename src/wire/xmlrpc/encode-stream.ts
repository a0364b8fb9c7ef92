/**
 * A streamed string result (`db.dump`) as XML-RPC, framed exactly as Odoo's `dumps((result,))`
 * frames one `<string>` (Odoo: `addons/rpc/controllers/xmlrpc.py`): the opening lines, the text as it arrives (base64 needs no
 * escaping), the closing lines. If the source fails midway the closing lines never come.
 */
import type { StreamedString } from '../../value.ts';
import { framedChunks } from '../streamed-body.ts';
import { defaultMarshalOptions, encodeResponse } from './encode.ts';

// Split a one-string answer around its text, so the framing is the marshaller's own.
const marker = 'streamed-string-marker';
const [head, tail] = (encodeResponse(marker, defaultMarshalOptions) as Buffer).toString('utf8').split(marker) as [string, string];

/** The text of a `methodResponse` whose one param is the streamed string, chunk by chunk. */
export function encodeStreamedResponse(result: StreamedString): AsyncGenerator<string> {
  return framedChunks(head, result.chunks, tail);
}
