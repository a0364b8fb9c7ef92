/**
 * Every corpus case that shows binding: the legacy call, run through call_kw's ids split and context
 * pop, must bind to exactly the named arguments of its recorded JSON-2 body (minus `ids`/`context`),
 * in the same order, or to the TypeError Odoo's legacy endpoint answered.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LegacyError } from '../errors.ts';
import { PyFloat, type Struct, type Value } from '../value.ts';
import { bindArguments } from './bind.ts';
import { builtinTable, type BuiltinTable } from './builtin-table.ts';
import { createSignatureResolver } from './resolver.ts';
import { modelAbsent } from './signature.ts';

const casesDir = new URL('../../fixtures/conformance/cases/', import.meta.url);
const bindingCases =
  /^(err-typeerror-.*|obj-.*-positional-.*|obj-.*-execute-.*|types-empty-args-array|err-execute-no-args-xmlrpc2|obj-name_search-.*|obj-read-.*)\.json$/;
// Keyword arguments in an order of their own: the JSON-2 body keeps the caller's order.
const keywordOrderCases = [
  'obj-search_read-kwargs-xmlrpc2',
  'obj-search_read-node',
  'obj-search_read-perl',
  'obj-search-jsonrpc',
  'obj-search-xmlrpc1',
  'obj-web_search_read-xmlrpc2',
  'obj-fields_get-attributes-jsonrpc',
  'obj-context-lang-fr-xmlrpc2',
];
/** Perl hashes have no order: the recorded body has the recording script's order, not the wire's. */
const unorderedKeywordCases = new Set(['obj-search_read-perl']);

interface CorpusCase {
  id: string;
  protocol: string;
  legacy: { request_body: string };
  json2: { request_body: Record<string, unknown> } | null;
  equivalent: boolean | null;
  legacy_decoded: { kind: string; value: { faultString?: string; data?: { debug: string } } };
}

// A minimal XML-RPC request reader for the corpus (Python's xmlrpc.client output); the gateway's own
// decoder lives in wire/ and is tested there.
function decodeXmlRpcParams(xml: string): Value[] {
  const tokens = [...xml.replace(/^<\?xml[^>]*\?>/, '').matchAll(/<(\/?)([\w.]+)\s*(\/?)>|([^<]+)/g)];
  let pos = 0;
  const unescape = (s: string) =>
    s.replace(/&(lt|gt|quot|apos|amp);/g, (_, e: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[e]!);
  const skipText = () => {
    while (tokens[pos]?.[4] !== undefined && tokens[pos]![4]!.trim() === '') pos++;
  };
  const open = (name: string) => {
    skipText();
    const t = tokens[pos++];
    if (t?.[2] !== name || t[1] !== '') throw new Error(`expected <${name}> at token ${pos - 1}`);
    return t[3] === '/';
  };
  const close = (name: string) => {
    skipText();
    const t = tokens[pos++];
    if (t?.[2] !== name || t[1] !== '/') throw new Error(`expected </${name}> at token ${pos - 1}`);
  };
  const text = () => (tokens[pos]?.[4] !== undefined ? unescape(tokens[pos++]![4]!) : '');
  const value = (): Value => {
    open('value');
    const first = tokens[pos];
    if (first?.[4] !== undefined || first?.[1] === '/') {
      const s = text();
      close('value');
      return s;
    }
    skipText();
    const type = tokens[pos]![2]!;
    if (open(type)) {
      close('value');
      return type === 'nil' ? null : type === 'struct' ? new Map() : type === 'array' ? [] : '';
    }
    let v: Value;
    if (type === 'array') {
      const items: Value[] = [];
      if (!open('data')) {
        for (skipText(); tokens[pos]?.[2] === 'value'; skipText()) items.push(value());
        close('data');
      }
      v = items;
    } else if (type === 'struct') {
      const members: Struct = new Map();
      for (skipText(); tokens[pos]?.[2] === 'member'; skipText()) {
        open('member');
        open('name');
        const key = text();
        close('name');
        members.set(key, value());
        close('member');
      }
      v = members;
    } else {
      const s = text();
      v = ['int', 'i4', 'i8'].includes(type)
        ? Number(s)
        : type === 'boolean'
          ? s.trim() === '1'
          : type === 'double'
            ? new PyFloat(Number(s))
            : s;
    }
    close(type);
    close('value');
    return v;
  };
  const params: Value[] = [];
  open('methodCall');
  open('methodName');
  text();
  close('methodName');
  open('params');
  for (skipText(); tokens[pos]?.[2] === 'param'; skipText()) {
    open('param');
    params.push(value());
    close('param');
  }
  return params;
}

function valueFromJson(json: unknown): Value {
  if (json === null || typeof json === 'string' || typeof json === 'boolean') return json;
  if (typeof json === 'number') return Number.isInteger(json) ? json : new PyFloat(json);
  if (Array.isArray(json)) return json.map(valueFromJson);
  return new Map(Object.entries(json as object).map(([k, v]) => [k, valueFromJson(v)]));
}

function valueToJson(value: Value): unknown {
  if (value instanceof PyFloat) return value.value;
  if (Array.isArray(value)) return value.map(valueToJson);
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [k, valueToJson(v)]));
  return value;
}

function legacyParams(c: CorpusCase): { method: string; params: Value[] } {
  if (c.protocol === 'jsonrpc') {
    const body = JSON.parse(c.legacy.request_body) as { params: { method: string; args: unknown[] } };
    return { method: body.params.method, params: body.params.args.map(valueFromJson) };
  }
  const method = /<methodName>([^<]*)<\/methodName>/.exec(c.legacy.request_body)![1]!;
  return { method, params: decodeXmlRpcParams(c.legacy.request_body) };
}

/** The last line of Odoo's legacy traceback (`TypeError: …`), or undefined for a plain answer. */
function legacyLastLine(c: CorpusCase): string | undefined {
  const { kind, value } = c.legacy_decoded;
  const traceback = kind === 'fault' ? value.faultString : kind === 'error' ? value.data?.debug : undefined;
  return traceback?.trimEnd().split('\n').at(-1);
}

type Outcome = { kind: 'indexError' } | { kind: 'bound'; body: [string, unknown][]; hasIds: boolean } | { kind: 'fault'; lastLine: string };

/** What the gateway does with the case's legacy call, up to the JSON-2 body (call_kw, odoo/service/model.py). */
async function bindCase(c: CorpusCase, table: BuiltinTable): Promise<Outcome> {
  const { method: service, params } = legacyParams(c);
  const [, , , model, method, ...rest] = params as [Value, Value, Value, string, string, ...Value[]];
  let args: Value[] = service === 'execute' ? rest : (rest[0] as Value[]);
  const kwargs: Struct = new Map(service === 'execute' ? [] : ((rest[1] ?? new Map()) as Struct));
  const sig = await createSignatureResolver({ table }).resolve('gw', model, method);
  if (sig === undefined || sig === modelAbsent) throw new Error(`no signature for ${model}.${method}`);
  if (!sig.apiModel) {
    if (args.length === 0) return { kind: 'indexError' };
    args = args.slice(1);
  }
  kwargs.delete('context');
  const result = bindArguments(sig, model, method, args, kwargs);
  if (result instanceof LegacyError) return { kind: 'fault', lastLine: result.lastLine };
  return { kind: 'bound', body: [...result].map(([k, v]) => [k, valueToJson(v)]), hasIds: !sig.apiModel };
}

function expectedOutcome(c: CorpusCase): Outcome {
  const lastLine = legacyLastLine(c);
  if (lastLine === 'IndexError: list index out of range') return { kind: 'indexError' };
  if (lastLine !== undefined) return { kind: 'fault', lastLine };
  const { ids, context, ...named } = c.json2!.request_body;
  void context;
  return { kind: 'bound', body: Object.entries(named), hasIds: ids !== undefined };
}

/**
 * What must match. Where the recorded JSON-2 call used other values (`equivalent: false`:
 * obj-create-execute-xmlrpc2 sent a list and another name), only the argument names are compared.
 */
function comparable(c: CorpusCase, outcome: Outcome): unknown {
  if (outcome.kind !== 'bound') return outcome;
  if (c.equivalent === false) return { ...outcome, body: outcome.body.map(([k]) => k) };
  if (unorderedKeywordCases.has(c.id)) return { ...outcome, body: [...outcome.body].sort(([a], [b]) => (a < b ? -1 : 1)) };
  return outcome;
}

const cases = readdirSync(casesDir)
  .filter((f) => bindingCases.test(f) || keywordOrderCases.includes(f.replace(/\.json$/, '')))
  .sort()
  .map((f) => JSON.parse(readFileSync(new URL(f, casesDir), 'utf8')) as CorpusCase);

describe('bindArguments() on the conformance corpus', () => {
  it('finds the cases', () => {
    expect(cases.length).toBe(31 + keywordOrderCases.length);
  });

  it.each(cases.map((c) => [c.id, c] as const))('%s', async (_id, c) => {
    const outcome = await bindCase(c, builtinTable);
    expect(comparable(c, outcome)).toEqual(comparable(c, expectedOutcome(c)));
  });

  it('fails the corpus when two parameters of search are swapped in the table', async () => {
    const table: BuiltinTable = structuredClone(builtinTable);
    const params = table.signatures['BaseModel.search']![1];
    [params[0], params[1]] = [params[1]!, params[0]!];
    const failures = [];
    for (const c of cases) {
      const outcome = await bindCase(c, table);
      if (JSON.stringify(comparable(c, outcome)) !== JSON.stringify(comparable(c, expectedOutcome(c)))) failures.push(c.id);
    }
    expect(failures).toEqual(['obj-search-execute-jsonrpc', 'obj-search-jsonrpc', 'obj-search-positional-xmlrpc2', 'obj-search-xmlrpc1']);
  });
});
