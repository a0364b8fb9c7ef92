/**
 * What shadow mode keeps of a difference: both answers rendered with their types and the
 * comparison's messages — with the client's password, API keys and argument values cut out, values
 * under secret-looking member names hidden, and everything truncated. The client's body itself is
 * never kept: it is read here only to learn what to cut.
 */
import type { Dialect } from '../../call.ts';
import { renderJson, type Difference } from '../compare/compare.ts';
import { parseTaggedCall, parseTaggedResponse, renderTagged, taggedToValue, type Tagged } from '../compare/xmlrpc-tagged.ts';
import { parseJson } from '../../json/index.ts';
import { isStruct, type Value } from '../../value.ts';
import { apiKeysInText } from '../../api-key.ts';

/** Longest rendered answer kept. */
export const maxAnswerChars = 1500;
/** Longest difference message kept, and how many are kept. */
export const maxMessageChars = 300;
export const maxMessages = 5;

const redacted = '‹redacted›';
/** An Odoo API key: 40 lowercase hex characters. */
/** Member names whose values are secrets wherever they appear. */
const secretName = /pass|secret|token|api_?key|apikey|\bkey\b/i;
/** Argument strings shorter than this are not cut everywhere (operators, short codes); passwords always are. */
const minArgumentLength = 3;

/** The strings to cut out of everything kept about a call, longest first (a secret containing another is cut whole). */
export interface Secrets {
  /** The password: cut from everything, member names included. */
  readonly passwords: readonly string[];
  /** Every argument string and the password: cut from values and messages. */
  readonly strings: readonly string[];
}

function stringLeaves(v: Value, out: Set<string>): void {
  if (typeof v === 'string') {
    if (v.length >= minArgumentLength) out.add(v);
  } else if (Array.isArray(v)) for (const item of v) stringLeaves(item, out);
  else if (isStruct(v)) for (const item of v.values()) stringLeaves(item, out);
}

/** The params of the client's call, read with the comparison's own reader; undefined when unreadable. */
function paramsOf(dialect: Dialect, body: string): { service?: string; params: Value[] } | undefined {
  try {
    if (dialect !== 'jsonrpc') return { params: parseTaggedCall(body).params.map((p) => taggedToValue(p.value)) };
    const envelope = parseJson(body);
    const params = isStruct(envelope) ? envelope.get('params') : undefined;
    const args = params !== undefined && isStruct(params) ? params.get('args') : undefined;
    return Array.isArray(args) ? { params: args } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The secrets of a call: its password (the third param of `object` and `login`/`authenticate`
 * calls, the master password of `db` calls) and every argument string, except the model and method
 * an `object` call names (the report shows them anyway).
 */
export function secretsOf(dialect: Dialect, body: string, service: string): Secrets {
  const read = paramsOf(dialect, body);
  const out = new Set<string>();
  const passwords: string[] = [];
  if (read !== undefined) {
    const { params } = read;
    const password = service === 'db' ? params[0] : params[2];
    if (typeof password === 'string' && password !== '') passwords.push(password);
    params.forEach((p, i) => {
      if (service === 'object' && (i === 3 || i === 4)) return;
      stringLeaves(p, out);
    });
  }
  const longestFirst = (list: Iterable<string>) => [...new Set(list)].sort((a, b) => b.length - a.length);
  return { passwords: longestFirst(passwords), strings: longestFirst([...passwords, ...out]) };
}

/** `text` with every secret and every API key cut out. */
export function redactText(text: string, secrets: Secrets): string {
  let out = text;
  for (const s of secrets.strings) out = out.split(s).join(redacted);
  return out.replace(apiKeysInText, redacted);
}

/**
 * A member name or a path of them (`result[0].email`) with the password and API keys cut out: the
 * answer's own field names stay readable even when the client also named them (`fields`).
 */
function redactName(text: string, secrets: Secrets): string {
  let out = text;
  for (const s of secrets.passwords) out = out.split(s).join(redacted);
  return out.replace(apiKeysInText, redacted);
}

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

function redactTagged(t: Tagged, secrets: Secrets, hide: boolean): Tagged {
  switch (t.kind) {
    case 'scalar':
      return { ...t, text: hide ? redacted : redactText(t.text, secrets) };
    case 'array':
      return { ...t, items: t.items.map((item) => redactTagged(item, secrets, hide)) };
    case 'struct':
      return {
        ...t,
        members: t.members.map((m) => ({
          name: redactName(m.name, secrets),
          value: redactTagged(m.value, secrets, hide || secretName.test(m.name)),
        })),
      };
  }
}

function redactValue(v: Value, secrets: Secrets, hide: boolean): Value {
  if (typeof v === 'string') return hide ? redacted : redactText(v, secrets);
  if (Array.isArray(v)) return v.map((item) => redactValue(item, secrets, hide));
  if (isStruct(v))
    return new Map([...v].map(([k, item]) => [redactName(k, secrets), redactValue(item, secrets, hide || secretName.test(k))]));
  return hide && v !== null ? redacted : v;
}

/** One answer as kept: its value with XML-RPC or JSON types, redacted, at most {@link maxAnswerChars}. */
export function renderAnswer(dialect: Dialect, status: number, body: string, secrets: Secrets): string {
  try {
    if (dialect === 'jsonrpc') return cut(renderJson(redactValue(parseJson(body), secrets, false), maxAnswerChars * 2), maxAnswerChars);
    const r = parseTaggedResponse(body);
    const text =
      r.kind === 'fault'
        ? `fault ${renderTagged(redactTagged(r.fault, secrets, false), maxAnswerChars * 2)}`
        : r.params.map((p) => renderTagged(redactTagged(p, secrets, false), maxAnswerChars * 2)).join(', ');
    return cut(text, maxAnswerChars);
  } catch {
    return cut(`HTTP ${status}: ${redactText(body, secrets)}`, maxAnswerChars);
  }
}

/** The comparison's messages as kept: redacted, values under secret-looking names hidden, truncated. */
export function redactDifferences(differences: readonly Difference[], secrets: Secrets): string[] {
  return differences.slice(0, maxMessages).map((d) => {
    const last = /([^.[\]]+)$/.exec(d.path)?.[1] ?? '';
    const message = secretName.test(last) ? redacted : redactText(d.message, secrets);
    return cut(`${redactName(d.path, secrets)}: ${message}`, maxMessageChars);
  });
}
