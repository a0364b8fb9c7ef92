/**
 * `npm run bench:xml`: the project's XML-RPC request decoder (a port of expat 2.5 feeding a port of
 * Python's Unmarshaller, src/wire/xmlrpc/decode.ts) against fast-xml-parser, the parser the design
 * card named (a devDependency only for this benchmark), decoding the same representative requests.
 *
 *   ours:     decodeRequest(bytes) → LegacyCall (params as the gateway's values)
 *   fxp:      TextDecoder + XMLParser.parse → object tree → the same LegacyCall, through the same
 *             int/float/base64/date converters (so both do the same work end to end)
 *   fxp tree: TextDecoder + XMLParser.parse alone (a floor: no values built)
 *
 * Both decoders' results are checked equal before timing. Each case runs the decoders in alternating
 * rounds in this one process (noise hits all alike); the figures are ratios inside one run, written
 * into BENCHMARKS.md section "xml-parsers" unless `--no-write`.
 *
 *   npm run bench:xml -- [--rounds N] [--no-write]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, type as osType } from 'node:os';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { LegacyCall } from '../src/call.ts';
import { LegacyError } from '../src/errors.ts';
import { parsePythonFloat, parsePythonInt } from '../src/python/int-text.ts';
import { PyBinary, PyDateTime, PyFloat, struct, type Value } from '../src/value.ts';
import { binaryFromBase64Text } from '../src/wire/xmlrpc/base64-text.ts';
import { dateTimeFromText } from '../src/wire/xmlrpc/datetime-text.ts';
import { decodeRequest } from '../src/wire/xmlrpc/decode.ts';
import { encodeRequest } from '../test/fixtures-xml/xmlrpc-request.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '15' }, 'no-write': { type: 'boolean', default: false } } });
const rounds = Number(values.rounds);
const root = new URL('..', import.meta.url);

// --- representative requests, written as Python's xmlrpc.client writes them ---

const partnerFields = ['name', 'email', 'phone', 'street', 'city', 'zip', 'country_id', 'is_company', 'comment', 'credit_limit'];
function partner(i: number): Map<string, Value> {
  return struct({
    name: `Customer ${i} & Sons <Ltd>`,
    email: `customer${i}@example.com`,
    phone: `+32 2 555 ${String(i).padStart(4, '0')}`,
    street: `Rue de la Loi ${i}`,
    city: 'Bruxelles',
    zip: '1000',
    country_id: 21,
    is_company: i % 3 === 0,
    comment: 'Préféré: livraison le matin. ✓',
    credit_limit: new PyFloat(1500.5 + i),
  });
}
const attachment = Buffer.from(Uint8Array.from({ length: 1024 * 1024 }, (_, i) => (i * 7919) % 251)).toString('base64');

const cases: { name: string; body: Buffer }[] = [
  { name: 'common.authenticate (login)', body: encodeRequest('authenticate', ['odoo', 'admin', 'a-password', struct({})]) },
  {
    name: 'search_read, domain of 3, 8 fields',
    body: encodeRequest('execute_kw', [
      'odoo',
      2,
      'key',
      'res.partner',
      'search_read',
      [[['is_company', '=', true], ['country_id.code', 'in', ['BE', 'FR']], '|', ['email', 'ilike', '@example.com']]],
      struct({ fields: partnerFields.slice(0, 8), limit: 80, order: 'name' }),
    ]),
  },
  {
    name: 'create, 200 partners × 10 fields',
    body: encodeRequest('execute_kw', ['odoo', 2, 'key', 'res.partner', 'create', [Array.from({ length: 200 }, (_, i) => partner(i))]]),
  },
  {
    name: 'read, 5,000 ids',
    body: encodeRequest('execute_kw', ['odoo', 2, 'key', 'res.partner', 'read', [Array.from({ length: 5000 }, (_, i) => i + 1), ['name']]]),
  },
  {
    name: 'write, a 1 MiB attachment (base64)',
    body: encodeRequest('execute_kw', [
      'odoo',
      2,
      'key',
      'ir.attachment',
      'write',
      [[7], struct({ datas: new PyBinary(attachment), name: 'scan.pdf', write_date: new PyDateTime('2026-01-31 12:00:00') })],
    ]),
  },
];

// --- fast-xml-parser: the tree, then the same values ---

const parser = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false, // keep every text as written: Python's converters decide
  trimValues: false, // <string> keeps its spaces
  isArray: (name) => name === 'param' || name === 'value' || name === 'member',
});

type Node = Record<string, unknown> | string;

function valueFrom(node: Node): Value {
  if (typeof node === 'string') return node; // <value>text</value>: a string
  for (const [tag, content] of Object.entries(node)) {
    if (tag === '#text') continue;
    const text = typeof content === 'string' ? content : '';
    switch (tag) {
      case 'string':
        return text;
      case 'int':
      case 'i4':
      case 'i8':
        return parsePythonInt(text) as Value;
      case 'boolean':
        return text === '1';
      case 'double':
        return new PyFloat(parsePythonFloat(text) as number);
      case 'nil':
        return null;
      case 'base64':
        return binaryFromBase64Text(text) as Value;
      case 'dateTime.iso8601':
        return dateTimeFromText(text) as PyDateTime;
      case 'array': {
        const data = (content as { data?: { value?: Node[] } | string }).data;
        return typeof data === 'object' ? (data.value ?? []).map(valueFrom) : [];
      }
      case 'struct': {
        const members = typeof content === 'object' ? ((content as { member?: { name: string; value: Node[] }[] }).member ?? []) : [];
        return new Map(members.map((m) => [String(m.name), valueFrom(m.value[0] ?? '')]));
      }
    }
  }
  return typeof node['#text'] === 'string' ? node['#text'] : '';
}

function fxpDecode(body: Uint8Array): LegacyCall {
  const doc = parser.parse(new TextDecoder().decode(body)) as {
    methodCall: { methodName: string; params?: { param?: { value: Node[] }[] } };
  };
  const params = (doc.methodCall.params?.param ?? []).map((p) => valueFrom(p.value[0] ?? ''));
  return { dialect: 'xmlrpc2', service: 'object', method: doc.methodCall.methodName, params };
}

// --- malformed requests: what Odoo's client is told (expat's message, which ours reproduces) ---

const malformed: { what: string; body: Buffer }[] = [
  { what: 'truncated body', body: Buffer.from('<?xml version="1.0"?>\n<methodCall>\n<methodName>version</methodName>\n<params>\n') },
  { what: 'mismatched end tag', body: Buffer.from('<?xml version="1.0"?>\n<methodCall><methodName>version</methodNam></methodCall>') },
  { what: 'bare `&`', body: Buffer.from('<?xml version="1.0"?>\n<methodCall><methodName>a & b</methodName></methodCall>') },
  {
    what: 'Latin-1 byte in a UTF-8 body (fast-xml-parser takes text: decoding made the byte U+FFFD)',
    body: Buffer.from('<?xml version="1.0"?>\n<methodCall><methodName>caf\xe9</methodName></methodCall>', 'latin1'),
  },
  { what: 'HTML entity', body: Buffer.from('<?xml version="1.0"?>\n<methodCall><methodName>a&nbsp;b</methodName></methodCall>') },
  {
    what: 'a second root element',
    body: Buffer.from('<?xml version="1.0"?>\n<methodCall><methodName>x</methodName></methodCall><extra/>'),
  },
];

function malformedRows(): string[] {
  return malformed.map(({ what, body }) => {
    const decoded = decodeRequest(body, 'xmlrpc2', 'common', { maxDepth: 64 });
    const expat = decoded instanceof LegacyError ? `\`${decoded.message}\`` : 'accepted';
    const text = new TextDecoder().decode(body);
    const verdict = XMLValidator.validate(text);
    let parsed: string;
    try {
      parser.parse(text);
      parsed = 'parses it';
    } catch (err) {
      parsed = `throws \`${(err as Error).message}\``;
    }
    const validator = verdict === true ? 'valid' : `\`${verdict.err.msg}\` (line ${verdict.err.line}, col ${verdict.err.col})`;
    return `| ${what} | ${expat} | ${validator} | ${parsed} |`;
  });
}

const ours = (body: Uint8Array) => decodeRequest(body, 'xmlrpc2', 'object', { maxDepth: 256 });
const fxpTree = (body: Uint8Array) => parser.parse(new TextDecoder().decode(body)) as unknown;

/**
 * Calls per CPU second of `fn` over about `ms` milliseconds of this process's CPU time (user +
 * system, GC threads included): other processes on the shared machine take wall time, not this.
 * No forced GC between windows: a full collection shrinks the young generation and makes the next
 * window's allocations dearer (tried: it inflated every figure 2–4×); each decoder's short-lived
 * garbage is collected by the scavenges inside its own window.
 */
function rate(fn: () => unknown, ms: number): number {
  const cpuMs = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  let calls = 0;
  const start = cpuMs();
  while (cpuMs() - start < ms) {
    fn();
    calls++;
  }
  return (calls * 1000) / (cpuMs() - start);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};
const range = (xs: number[]) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;

function main(): void {
  const rows: string[] = [];
  for (const c of cases) {
    const a = ours(c.body);
    if (a instanceof LegacyError) throw new Error(`${c.name}: the gateway's decoder refused it: ${a.message}`);
    const b = fxpDecode(c.body);
    if (!isDeepStrictEqual(a.params, b.params) || a.method !== b.method) throw new Error(`${c.name}: the two decoders disagree`);
    const r = { ours: [] as number[], fxp: [] as number[], tree: [] as number[] };
    for (let i = 0; i < 3; i++) {
      ours(c.body);
      fxpDecode(c.body);
      fxpTree(c.body);
    } // warm up
    const budget = c.body.length > 500_000 ? 400 : 150;
    for (let round = 0; round < rounds; round++) {
      // alternate the order too, so neither always runs first
      const order = round % 2 === 0 ? (['ours', 'fxp', 'tree'] as const) : (['tree', 'fxp', 'ours'] as const);
      for (const which of order)
        r[which].push(rate(() => (which === 'ours' ? ours(c.body) : which === 'fxp' ? fxpDecode(c.body) : fxpTree(c.body)), budget));
    }
    // per round: how many times faster ours is (ours' rate ÷ theirs)
    const vsFxp = r.ours.map((x, i) => x / (r.fxp[i] as number));
    const vsTree = r.ours.map((x, i) => x / (r.tree[i] as number));
    const us = (perSec: number) => (1e6 / perSec).toFixed(perSec > 1e4 ? 1 : 0);
    rows.push(
      `| ${c.name} | ${(c.body.length / 1024).toFixed(c.body.length < 10_240 ? 1 : 0)} KiB | ${us(median(r.ours))} µs | ${us(median(r.fxp))} µs | ${us(median(r.tree))} µs | ${median(vsFxp).toFixed(2)} (${range(vsFxp)}) | ${median(vsTree).toFixed(2)} (${range(vsTree)}) |`,
    );
    console.log(rows.at(-1));
  }
  const fxpVersion = (JSON.parse(readFileSync(new URL('node_modules/fast-xml-parser/package.json', root), 'utf8')) as { version: string })
    .version;
  const section = [
    '<!-- bench:xml-parsers:start -->',
    "## XML-RPC request decoding: the project's expat port vs fast-xml-parser",
    '',
    `What: decoding request bodies written as Python's xmlrpc.client writes them, in one process (no HTTP, no upstream): the gateway's \`decodeRequest\` (bytes → call with Odoo's values) against fast-xml-parser ${fxpVersion} (bytes → text → \`XMLParser.parse\` → the same call through the same int/float/base64/date converters; "tree" is \`parse\` alone, a floor that builds no values). Both results are checked equal first. ${rounds} alternating rounds per case; times are CPU time per decode (this process's user + system time, so other processes on the shared machine do not count), medians; "× faster" is our rate ÷ theirs per round, median (range).`,
    '',
    `- Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${osType()} ${release()}; load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')} at the end (shared machine)`,
    `- Node: ${process.version}; date: ${new Date().toISOString()}`,
    `- Command: \`npm run bench:xml${rounds !== 15 ? ` -- --rounds ${rounds}` : ''}\``,
    '',
    '| request | body | ours | fast-xml-parser + values | fast-xml-parser tree only | ours × faster than fxp + values | ours × faster than fxp tree |',
    '|---|---|---|---|---|---|---|',
    ...rows,
    '',
    "Malformed requests: what a client is told. Odoo answers fault 1 with expat's message and position (`xml.parsers.expat.ExpatError: …`); ours gives the same text (test/fixtures-xml/expat-table.json, generated with CPython, is the yardstick). fast-xml-parser's validator words its own, and its parser is lenient:",
    '',
    '| body | ours (= expat, = Odoo) | fast-xml-parser `XMLValidator.validate` | fast-xml-parser `XMLParser.parse` |',
    '|---|---|---|---|',
    ...malformedRows(),
    '<!-- bench:xml-parsers:end -->',
  ].join('\n');
  if (!values['no-write']) {
    const file = new URL('BENCHMARKS.md', root);
    const doc = readFileSync(file, 'utf8');
    const re = /<!-- bench:xml-parsers:start -->[\s\S]*?<!-- bench:xml-parsers:end -->/;
    writeFileSync(file, re.test(doc) ? doc.replace(re, () => section) : `${doc.trimEnd()}\n\n${section}\n`);
  }
  console.log(section);
}

main();
