/** The `/jsonrpc` dialect. */
export { contentTypeJson, isJsonRpcContentType } from './content-type.ts';
export { decodeRequest } from './decode.ts';
export { encodeResult } from './encode.ts';
export { encodeError } from './fault.ts';
export { createJsonRpcHandler } from './handler.ts';
