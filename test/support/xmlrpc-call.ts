/**
 * A test client's XML-RPC call through the gateway: the request written as Python's xmlrpc.client
 * writes it, the answer read back into a value or a fault (`faultCode` int on `/xmlrpc/2`, string
 * on `/xmlrpc`).
 */
import type { Value } from '../../src/value.ts';
import { parseTaggedResponse, taggedToValue } from '../../src/cutover/compare/xmlrpc-tagged.ts';
import { encodeRequest } from '../fixtures-xml/xmlrpc-request.ts';
import type { Stack } from './stack.ts';

export type XmlRpcAnswer = { result: Value } | { fault: { faultCode: Value; faultString: string } };

/** POSTs `method(*params)` to `/xmlrpc/<service>` (`xmlrpc1`) or `/xmlrpc/2/<service>` (`xmlrpc2`). */
export async function xmlrpcCall(
  stack: Stack,
  dialect: 'xmlrpc1' | 'xmlrpc2',
  service: string,
  method: string,
  params: Value[],
): Promise<XmlRpcAnswer> {
  const path = dialect === 'xmlrpc2' ? `/xmlrpc/2/${service}` : `/xmlrpc/${service}`;
  const res = await stack.post(path, encodeRequest(method, params).toString('utf8'), 'text/xml');
  const answer = parseTaggedResponse(res.text);
  if (answer.kind === 'params') return { result: taggedToValue(answer.params[0]!) };
  const fault = taggedToValue(answer.fault) as Map<string, Value>;
  return { fault: { faultCode: fault.get('faultCode') as Value, faultString: String(fault.get('faultString')) } };
}
