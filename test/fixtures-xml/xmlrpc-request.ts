/**
 * A test client's side of XML-RPC: `methodCall` bodies written the way Python's
 * `xmlrpc.client.dumps(params, method, allow_none=True)` writes them, plus `<i8>`, `<bigdecimal>`,
 * `<dateTime.iso8601>` and `<base64>` for the types Odoo's clients send. CR is written `&#13;` so
 * that expat's line-end normalisation keeps it.
 */
import { floatRepr } from '../../src/python/float-repr.ts';
import { PyBinary, PyDateTime, PyDecimal, PyFloat, type Value } from '../../src/value.ts';

function escape(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('\r', '&#13;');
}

function valueXml(v: Value): string {
  if (v === null) return '<value><nil/></value>';
  if (typeof v === 'boolean') return `<value><boolean>${v ? 1 : 0}</boolean></value>\n`;
  if (typeof v === 'number' || typeof v === 'bigint') {
    const tag = v > 2147483647 || v < -2147483648 ? 'i8' : 'int';
    return `<value><${tag}>${v}</${tag}></value>\n`;
  }
  if (typeof v === 'string') return `<value><string>${escape(v)}</string></value>\n`;
  if (v instanceof PyFloat) return `<value><double>${floatRepr(v.value)}</double></value>\n`;
  if (Array.isArray(v)) return `<value><array><data>\n${v.map(valueXml).join('')}</data></array></value>\n`;
  if (v instanceof Map) {
    const members = [...v].map(([k, item]) => `<member>\n<name>${escape(k)}</name>\n${valueXml(item)}</member>\n`);
    return `<value><struct>\n${members.join('')}</struct></value>\n`;
  }
  if (v instanceof PyDateTime) {
    return `<value><dateTime.iso8601>${v.odoo.replaceAll('-', '').replace(' ', 'T')}</dateTime.iso8601></value>\n`;
  }
  if (v instanceof PyBinary) return `<value><base64>\n${v.base64}\n</base64></value>\n`;
  if (v instanceof PyDecimal) return `<value><bigdecimal>${v.text}</bigdecimal></value>\n`;
  throw new TypeError('not a Value');
}

/** A request body for `method(*params)`. */
export function encodeRequest(method: string, params: readonly Value[]): Buffer {
  const body = params.map((p) => `<param>\n${valueXml(p)}</param>\n`).join('');
  return Buffer.from(
    `<?xml version='1.0'?>\n<methodCall>\n<methodName>${escape(method)}</methodName>\n<params>\n${body}</params>\n</methodCall>\n`,
    'utf8',
  );
}
