/**
 * Hands every hostile-input answer to one Python process (`validate_answers.py`), which parses it
 * with `xmlrpc.client.loads` / `json.loads` and, where a case asks, computes what Odoo 19 answers;
 * then compares each answer with its case's expectation.
 */
import { spawnSync } from 'node:child_process';
import type { Endpoint, Expect, Expected, HostileCase } from '../hostile-cases.ts';
import type { RawAnswer } from './raw-request.ts';

export type ParsedAnswer =
  | { kind: 'fault'; code: number | string; last: string; faultString: string }
  | { kind: 'error'; code: number; name: string; last: string; message: string }
  | { kind: 'result'; type: string }
  | { kind: 'http'; status: number; text: string }
  | { kind: 'malformed' | 'none'; error: string };
export type Oracle =
  { kind: 'exception'; name: string; jsonName: string; last: string } | { kind: 'http'; status: number; text: string } | { kind: 'passes' };

const script = new URL('./validate_answers.py', import.meta.url).pathname;

/** Parses every answer (and computes the oracles) in one `python3` run. */
export function pythonVerdicts(
  cases: HostileCase[],
  answers: Map<string, RawAnswer>,
  valid: Array<[string, number, string]>,
): Map<string, { answer: ParsedAnswer; oracle: Oracle | null }> {
  const input = cases.map((c) => {
    const a = answers.get(c.id) as RawAnswer;
    const wantsOracle = 'oracle' in c.expect;
    return {
      id: c.id,
      endpoint: c.endpoint,
      service: c.service,
      oracle: wantsOracle,
      valid,
      request: wantsOracle ? Buffer.concat(c.chunks).toString('base64') : '',
      answer: { status: a.status, error: a.error ?? null, body: a.body.toString('base64') },
    };
  });
  const run = spawnSync('python3', [script], { input: JSON.stringify(input), maxBuffer: 1 << 30, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`validate_answers.py failed: ${run.stderr}`);
  const out = JSON.parse(run.stdout) as Record<string, { answer: ParsedAnswer; oracle: Oracle | null }>;
  return new Map(Object.entries(out));
}

/** The expectation a case resolves to, once the oracle is known. */
export function resolveExpected(expect: Expect, oracle: Oracle | null): Expected | string {
  if (!('oracle' in expect)) return expect;
  if (oracle === null) return 'no oracle computed';
  if (oracle.kind === 'passes')
    return expect.passes ?? 'the oracle says the request reaches a real call, and the case has no expectation for that';
  if (oracle.kind === 'http') return { http: oracle.status, text: oracle.text };
  return { exception: oracle.name, last: oracle.last };
}

/** v2 faultCode of an Odoo exception (odoo/addons/rpc/controllers/xmlrpc.py). */
function v2Code(name: string): number {
  if (name === 'odoo.exceptions.AccessDenied') return 3;
  if (name === 'odoo.exceptions.AccessError') return 4;
  if (['odoo.exceptions.UserError', 'odoo.exceptions.ValidationError', 'odoo.exceptions.MissingError'].includes(name)) return 2;
  return 1;
}

/** What the answer should look like on this endpoint (for `expect(...).toEqual`). */
export function expectedAnswer(endpoint: Endpoint, expected: Expected): unknown {
  if ('http' in expected) return { kind: 'http', status: expected.http, ...(expected.text === undefined ? {} : { text: expected.text }) };
  if ('result' in expected) return { kind: 'result' };
  const lastMatches = expected.last;
  if (endpoint === 'jsonrpc') {
    const name = expected.exception.includes('.') ? expected.exception : `builtins.${expected.exception}`;
    return { kind: 'error', code: 0, name, last: lastMatches };
  }
  if (expected.exception === 'odoo.exceptions.AccessDenied') {
    return endpoint === 'xmlrpc2'
      ? { kind: 'fault', code: 3, last: 'Access Denied' }
      : { kind: 'fault', code: 'AccessDenied', last: 'Access Denied' };
  }
  return { kind: 'fault', code: endpoint === 'xmlrpc2' ? v2Code(expected.exception) : expect_string, last: lastMatches };
}

/** A marker for "any string" in expectedAnswer (v1 faultCodes are the exception text). */
export const expect_string = Symbol('a string');

/** The parts of a parsed answer compared with {@link expectedAnswer}. */
export function comparable(answer: ParsedAnswer, expected: unknown): unknown {
  const want = expected as Record<string, unknown>;
  const out: Record<string, unknown> = { kind: answer.kind };
  for (const key of Object.keys(want)) if (key !== 'kind') out[key] = (answer as Record<string, unknown>)[key];
  if (answer.kind === 'malformed' || answer.kind === 'none') out.error = answer.error;
  if (want.code === expect_string) out.code = typeof out.code === 'string' ? expect_string : out.code;
  if (want.last instanceof RegExp && typeof out.last === 'string' && want.last.test(out.last)) out.last = want.last;
  if (want.kind === 'http' && answer.kind === 'http' && want.text === undefined) delete out.text;
  return out;
}
