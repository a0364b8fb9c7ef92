/**
 * One legacy answer as shadow mode looks at it: a result value, or a fault reduced to its code and
 * the text a client reads (`faultString` of faults 2–4, the exception line of a traceback, the
 * JSON-RPC error's name and message). Decoded with the independent reader of `src/cutover/compare/`, never
 * with the gateway's own wire codec.
 */
import type { Dialect } from '../../call.ts';
import { exceptionTail, faultStringRule } from '../compare/compare.ts';
import { parseTaggedResponse, structMembers, taggedToValue } from '../compare/xmlrpc-tagged.ts';
import { parseJson } from '../../json/index.ts';
import { isStruct, type Value } from '../../value.ts';

/** What an answer says, for the policy, the intended deviations and the "legacy gone" check. */
export type AnswerView =
  | { kind: 'result'; value: Value }
  | {
      kind: 'fault';
      /** faultCode as text (`1`, `warning -- UserError\n\n…`), or the JSON-RPC error's `data.name`. */
      code: string;
      /** The code and what the client reads of the message: faults 2–4 whole, tracebacks from the exception line. */
      text: string;
      /** Odoo's AccessDenied: v2 fault 3, v1 `AccessDenied`, JSON-RPC `odoo.exceptions.AccessDenied`. */
      accessDenied: boolean;
    }
  | { kind: 'other' };

const other: AnswerView = { kind: 'other' };

function xmlView(dialect: 'xmlrpc1' | 'xmlrpc2', body: string): AnswerView {
  let parsed;
  try {
    parsed = parseTaggedResponse(body);
  } catch {
    return other;
  }
  if (parsed.kind === 'params') return parsed.params[0] === undefined ? other : { kind: 'result', value: taggedToValue(parsed.params[0]) };
  const members = structMembers(parsed.fault);
  const code = members.get('faultCode');
  const faultString = members.get('faultString');
  if (code?.kind !== 'scalar' || faultString?.kind !== 'scalar') return other;
  const message = faultStringRule(code) === 'tail' ? exceptionTail(faultString.text) : faultString.text;
  const accessDenied = dialect === 'xmlrpc2' ? code.text.trim() === '3' : code.text === 'AccessDenied';
  return { kind: 'fault', code: code.text, text: `${code.text}\n${message}`, accessDenied };
}

function jsonView(body: string): AnswerView {
  let envelope: Value;
  try {
    envelope = parseJson(body);
  } catch {
    return other;
  }
  if (!isStruct(envelope)) return other;
  const error = envelope.get('error');
  if (error === undefined) return { kind: 'result', value: envelope.has('result') ? (envelope.get('result') as Value) : null };
  const data = isStruct(error) ? error.get('data') : undefined;
  if (data === undefined || !isStruct(data)) return other;
  const name = String(data.get('name'));
  const debug = data.get('debug');
  const tail = typeof debug === 'string' ? exceptionTail(debug) : '';
  return {
    kind: 'fault',
    code: name,
    text: `${name}: ${String(data.get('message') ?? '')}\n${tail}`,
    accessDenied: name === 'odoo.exceptions.AccessDenied',
  };
}

/** Reads an answer body of `dialect`; `other` when it is not a legacy answer (an HTML page, garbage). */
export function viewAnswer(dialect: Dialect, body: string): AnswerView {
  return dialect === 'jsonrpc' ? jsonView(body) : xmlView(dialect, body);
}
