/**
 * The hostile-input table: one generator per category, each producing 40+ cases across
 * `/xmlrpc/<service>`, `/xmlrpc/2/<service>` and `/jsonrpc` by varying sizes, positions, encodings
 * and framing. A case says what must come back: an Odoo exception (v2 fault code, v1 faultCode,
 * JSON-RPC `data.name`, and the traceback's last line), an HTTP 4xx before parsing, a result — or
 * `oracle`: what CPython's parsers and the model of Odoo's dispatchers in
 * `support/validate_answers.py` give for the same request (with `passes` when it reaches a real call).
 */
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';

export type Endpoint = 'xmlrpc1' | 'xmlrpc2' | 'jsonrpc';

export const categories = [
  'entities',
  'doctype',
  'deep nesting',
  'huge strings and bodies',
  'invalid utf-8 and encodings',
  'nul and control bytes',
  'content types',
  'truncated bodies',
  'slow bodies',
  'compressed bodies',
  'malformed json-rpc',
  'arity and types',
] as const;
export type Category = (typeof categories)[number];

/** What the gateway must answer. */
export type Expected = { exception: string; last: string | RegExp } | { http: number; text?: string } | { result: true };
export type Expect = Expected | { oracle: true; passes?: Expected };

export interface HostileCase {
  id: string;
  category: Category;
  endpoint: Endpoint;
  /** The XML-RPC service in the path (`common`, `db`, `object`); unused for `/jsonrpc`. */
  service: string;
  headers: Array<[string, string]>;
  chunks: Buffer[];
  chunkDelayMs?: number;
  /** Content-Length sent (default the chunks' total; `null` with `chunked`). */
  contentLength?: number | null;
  chunked?: boolean | 'unterminated';
  /** `chunks` hold the whole request, head included (slow headers). */
  raw?: boolean;
  after?: 'end' | 'keep';
  expect: Expect;
  /**
   * A known difference from Odoo, found by this table and not fixed yet: the gateway's current answer
   * is pinned here, and the test also checks it still differs from the oracle (remove the marker once fixed).
   */
  knownGap?: { why: string; answer: Expected };
}

/** Settings of the gateway the table is written for. */
export interface TableSettings {
  maxBody: number;
  maxDepth: number;
  /** (db, uid, password) accepted by the object service. */
  adminPassword: string;
  /** The gateway's --request-timeout: the slow cases trickle so that they outlast it. */
  requestTimeoutMs: number;
}

export const pathOf = (endpoint: Endpoint, service: string) =>
  endpoint === 'jsonrpc' ? '/jsonrpc' : endpoint === 'xmlrpc2' ? `/xmlrpc/2/${service}` : `/xmlrpc/${service}`;

const b = (s: string | Buffer) => (typeof s === 'string' ? Buffer.from(s, 'utf8') : s);
const xmlDecl = "<?xml version='1.0'?>\n";
/** A methodCall as Python's xmlrpc.client writes it, params given as `<value>` XML. */
export const xmlCall = (method: string, params: string[] = [], decl = xmlDecl) =>
  `${decl}<methodCall>\n<methodName>${method}</methodName>\n<params>\n${params.map((p) => `<param>\n${p}\n</param>\n`).join('')}</params>\n</methodCall>\n`;
const str = (s: string) => `<value><string>${s}</string></value>`;
/** A JSON-RPC call envelope with `args` as JSON text. */
export const jsonCall = (service: string, method: string, args = '[]', id = '1') =>
  `{"jsonrpc": "2.0", "method": "call", "params": {"service": ${JSON.stringify(service)}, "method": ${JSON.stringify(method)}, "args": ${args}}, "id": ${id}}`;

const xmlHeaders: Array<[string, string]> = [
  ['Content-Type', 'text/xml'],
  ['User-Agent', 'hostile/1'],
];
const jsonHeaders: Array<[string, string]> = [
  ['Content-Type', 'application/json'],
  ['User-Agent', 'hostile/1'],
];
const oracle: Expect = { oracle: true, passes: { result: true } };
const expat = (message: RegExp | string): Expected => ({
  exception: 'xml.parsers.expat.ExpatError',
  last:
    typeof message === 'string'
      ? `xml.parsers.expat.ExpatError: ${message}`
      : new RegExp(`^xml\\.parsers\\.expat\\.ExpatError: ${message.source}: line \\d+, column \\d+$`),
});
/** The gateway's intended deviation (COMPATIBILITY.md): any DOCTYPE or ENTITY declaration is refused. */
const refusedDoctype = expat(/DOCTYPE and ENTITY declarations are refused by the gateway/);
const invalidJson: Expected = { http: 400, text: 'Invalid JSON data' };

function xmlCase(
  category: Category,
  id: string,
  endpoint: 'xmlrpc1' | 'xmlrpc2',
  body: string | Buffer,
  expect: Expect,
  extra: Partial<HostileCase> = {},
): HostileCase {
  return {
    id: `${category}: ${endpoint} ${id}`,
    category,
    endpoint,
    service: 'common',
    headers: xmlHeaders,
    chunks: [b(body)],
    expect,
    ...extra,
  };
}
function jsonCase(category: Category, id: string, body: string | Buffer, expect: Expect, extra: Partial<HostileCase> = {}): HostileCase {
  return {
    id: `${category}: jsonrpc ${id}`,
    category,
    endpoint: 'jsonrpc',
    service: '',
    headers: jsonHeaders,
    chunks: [b(body)],
    expect,
    ...extra,
  };
}
const both = (f: (e: 'xmlrpc1' | 'xmlrpc2') => HostileCase[]) => [...f('xmlrpc2'), ...f('xmlrpc1')];

function entities(): HostileCase[] {
  const out: HostileCase[] = [];
  const laughs = (levels: number, fan: number) => {
    const decls = [`<!ENTITY lol0 "lol">`];
    for (let i = 1; i <= levels; i++) decls.push(`<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(fan)}">`);
    return `<?xml version="1.0"?>\n<!DOCTYPE methodCall [\n${decls.join('\n')}\n]>\n` + xmlCall('version', [str(`&lol${levels};`)], '');
  };
  for (const [levels, fan] of [
    [1, 2],
    [3, 10],
    [5, 10],
    [9, 10],
    [12, 10],
    [20, 2],
    [4, 1000],
  ] as const) {
    out.push(...both((e) => [xmlCase('entities', `billion laughs ${levels}x${fan}`, e, laughs(levels, fan), refusedDoctype)]));
  }
  const quadratic =
    `<?xml version="1.0"?>\n<!DOCTYPE m [<!ENTITY a "${'x'.repeat(50_000)}">]>\n` + xmlCall('version', [str('&a;'.repeat(5_000))], '');
  out.push(...both((e) => [xmlCase('entities', 'quadratic blowup', e, quadratic, refusedDoctype)]));
  const externals = [
    'file:///etc/passwd',
    'file:///proc/self/environ',
    'http://127.0.0.1:1/xxe',
    'https://example.com/evil.dtd',
    'php://filter/resource=/etc/passwd',
    'expect://id',
    'jar:file:///tmp/x!/y',
  ];
  for (const [i, url] of externals.entries()) {
    out.push(
      ...both((e) => [
        xmlCase(
          'entities',
          `external entity ${i} ${url}`,
          e,
          `<?xml version="1.0"?>\n<!DOCTYPE methodCall [<!ENTITY xxe SYSTEM "${url}">]>\n` + xmlCall('version', [str('&xxe;')], ''),
          refusedDoctype,
        ),
      ]),
    );
  }
  out.push(
    ...both((e) => [
      xmlCase(
        'entities',
        'parameter entity',
        e,
        `<?xml version="1.0"?>\n<!DOCTYPE m [<!ENTITY % pe SYSTEM "http://127.0.0.1:1/x.dtd"> %pe;]>\n<methodCall/>`,
        refusedDoctype,
      ),
    ]),
  );
  out.push(
    ...both((e) => [
      xmlCase(
        'entities',
        'public external dtd',
        e,
        `<?xml version="1.0"?>\n<!DOCTYPE methodCall PUBLIC "-//X//DTD X//EN" "http://127.0.0.1:1/x.dtd">\n${xmlCall('version', [], '')}`,
        refusedDoctype,
      ),
    ]),
  );
  // references without declarations, predefined entities and character references: as expat reads them
  const refs = [
    '&lol9;',
    '&xxe;',
    '&amp;&lt;&gt;&quot;&apos;',
    '&#65;&#x42;',
    '&#0;',
    '&#x110000;',
    '&#xD800;',
    '&#xFFFE;',
    '&amp',
    '&#;',
    '&#x;',
    '&unknown_entity_with_a_long_name;',
  ];
  for (const [i, ref] of refs.entries())
    out.push(...both((e) => [xmlCase('entities', `reference ${i} ${ref}`, e, xmlCall('version', [str(ref)]), oracle)]));
  // the same payloads at /jsonrpc: JSON, not XML
  out.push(jsonCase('entities', 'billion laughs body', laughs(9, 10), oracle));
  out.push(jsonCase('entities', 'external entity body', `<!DOCTYPE m [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><m>&xxe;</m>`, oracle));
  for (const [i, ref] of refs.slice(0, 6).entries())
    out.push(jsonCase('entities', `entity text in a string ${i}`, jsonCall('common', 'version', JSON.stringify([ref])), oracle));
  return out;
}

function doctype(): HostileCase[] {
  const out: HostileCase[] = [];
  const call = xmlCall('version', [], '');
  const variants: Array<[string, string]> = [
    ['bare', `<!DOCTYPE methodCall>\n${call}`],
    ['after declaration', `<?xml version="1.0"?>\n<!DOCTYPE methodCall>\n${call}`],
    ['internal subset', `<?xml version="1.0"?>\n<!DOCTYPE methodCall [<!ELEMENT methodCall ANY>]>\n${call}`],
    ['attlist defaults', `<!DOCTYPE methodCall [<!ATTLIST methodName x CDATA "y">]>\n${call}`],
    ['system id', `<!DOCTYPE methodCall SYSTEM "xmlrpc.dtd">\n${call}`],
    ['public id', `<!DOCTYPE methodCall PUBLIC "-//X//EN" "x.dtd">\n${call}`],
    ['after comment', `<!-- hi -->\n<!DOCTYPE methodCall>\n${call}`],
    ['after processing instruction', `<?pi data?>\n<!DOCTYPE methodCall>\n${call}`],
    ['after whitespace', `\n\n   <!DOCTYPE methodCall>\n${call}`],
    ['other root name', `<!DOCTYPE html>\n${call}`],
    ['notation', `<!DOCTYPE methodCall [<!NOTATION n SYSTEM "x">]>\n${call}`],
    ['conditional section', `<!DOCTYPE methodCall [<![INCLUDE[<!ELEMENT a ANY>]]>]>\n${call}`],
    ['unterminated', `<!DOCTYPE methodCall [`],
    ['huge internal subset', `<!DOCTYPE methodCall [${'<!ELEMENT a ANY>'.repeat(20_000)}]>\n${call}`],
    ['latin-1 declared', `<?xml version="1.0" encoding="iso-8859-1"?>\n<!DOCTYPE methodCall>\n${call}`],
  ];
  for (const [name, body] of variants) out.push(...both((e) => [xmlCase('doctype', name, e, body, refusedDoctype)]));
  const utf16 = Buffer.concat([
    Buffer.from([0xff, 0xfe]),
    Buffer.from(`<?xml version="1.0" encoding="utf-16"?>\n<!DOCTYPE methodCall>\n${call}`, 'utf16le'),
  ]);
  out.push(...both((e) => [xmlCase('doctype', 'utf-16', e, utf16, refusedDoctype)]));
  // not a prolog DOCTYPE: expat's own errors
  const elsewhere: Array<[string, string]> = [
    ['lowercase', `<!doctype methodCall>\n${call}`],
    ['after the root', `${call}<!DOCTYPE methodCall>\n`],
    ['inside an element', xmlCall('version', ['<!DOCTYPE x>'])],
    ['in a string value', xmlCall('version', [str('<!DOCTYPE methodCall>')])],
    ['escaped in a string value', xmlCall('version', [str('&lt;!DOCTYPE methodCall&gt;')])],
  ];
  for (const [name, body] of elsewhere) out.push(...both((e) => [xmlCase('doctype', name, e, body, oracle)]));
  for (const [name, body] of [...variants.slice(0, 6), ...elsewhere.slice(0, 2)]) out.push(jsonCase('doctype', name, body, oracle));
  out.push(
    jsonCase(
      'doctype',
      'doctype text in a string',
      jsonCall('common', 'version', JSON.stringify(['<!DOCTYPE methodCall [<!ENTITY a "b">]>'])),
      oracle,
    ),
  );
  return out;
}

function deepNesting(s: TableSettings): HostileCase[] {
  const out: HostileCase[] = [];
  // methodCall, params, param, value: 4 elements; each array adds array, data, value; the leaf <int> one more
  const arrays = (k: number, closed: boolean) =>
    `<?xml version='1.0'?>\n<methodCall><methodName>version</methodName><params><param><value>${'<array><data><value>'.repeat(k)}<int>1</int>${closed ? '</value></data></array>'.repeat(k) : ''}${closed ? '</value></param></params></methodCall>' : ''}`;
  const structs = (k: number, closed: boolean) =>
    `<methodCall><methodName>version</methodName><params><param><value>${'<struct><member><name>a</name><value>'.repeat(k)}<int>1</int>${closed ? '</value></member></struct>'.repeat(k) : ''}${closed ? '</value></param></params></methodCall>' : ''}`;
  const limitK = Math.floor((s.maxDepth - 5) / 3); // deepest k within maxDepth
  const tooDeep = expat(new RegExp(`xml nesting depth ${s.maxDepth + 1} exceeds maxDepth ${s.maxDepth}`));
  const depths = [1, 2, 5, 10, 20, 50, limitK - 1, limitK, limitK + 1, limitK + 2, 100, 200, 1_000, 10_000, 50_000, 100_000];
  for (const k of depths) {
    const within = 5 + 3 * k <= s.maxDepth;
    out.push(xmlCase('deep nesting', `arrays ${k} closed`, 'xmlrpc2', arrays(k, true), within ? oracle : tooDeep));
    out.push(xmlCase('deep nesting', `structs ${k} closed`, 'xmlrpc1', structs(k, true), within ? oracle : tooDeep));
    if (!within) out.push(xmlCase('deep nesting', `arrays ${k} never closed`, 'xmlrpc2', arrays(k, false), tooDeep));
  }
  // JSON: the envelope, params and args are 3 levels; k arrays inside args
  const jsonDepths = [1, 10, 50, 100, 200, 250, 300, 1_000, 10_000, 100_000];
  for (const k of jsonDepths) {
    const within = k + 3 <= s.maxDepth;
    out.push(
      jsonCase(
        'deep nesting',
        `arrays ${k}`,
        jsonCall('common', 'version', `[${'['.repeat(k)}1${']'.repeat(k)}]`),
        within ? oracle : invalidJson,
      ),
    );
    out.push(
      jsonCase(
        'deep nesting',
        `objects ${k}`,
        jsonCall('common', 'version', `[${'{"a": '.repeat(k)}1${'}'.repeat(k)}]`),
        within ? oracle : invalidJson,
      ),
    );
  }
  out.push(jsonCase('deep nesting', 'unclosed arrays 100000', `{"params": ${'['.repeat(100_000)}`, invalidJson));
  return out;
}

function hugeStrings(s: TableSettings): HostileCase[] {
  const out: HostileCase[] = [];
  const big = Buffer.alloc(4 * s.maxBody, 'a');
  const text = (n: number) => big.subarray(0, n).toString('latin1');
  for (const n of [1_000, 100_000, 1_000_000, s.maxBody - 1_000]) {
    out.push(xmlCase('huge strings and bodies', `string ${n}`, 'xmlrpc2', xmlCall('version', [str(text(n))]), oracle));
    out.push(
      xmlCase('huge strings and bodies', `untyped value ${n}`, 'xmlrpc1', xmlCall('version', [`<value>${text(n)}</value>`]), oracle),
    );
    out.push(jsonCase('huge strings and bodies', `string ${n}`, jsonCall('common', 'version', `["${text(n)}"]`), oracle));
  }
  for (const n of [10_000, 100_000, 1_000_000]) {
    out.push(xmlCase('huge strings and bodies', `method name ${n}`, 'xmlrpc2', xmlCall(text(n)), oracle));
    out.push(jsonCase('huge strings and bodies', `method name ${n}`, jsonCall('common', text(n)), oracle));
  }
  out.push(
    xmlCase(
      'huge strings and bodies',
      'many params',
      'xmlrpc2',
      xmlCall(
        'version',
        Array.from({ length: 50_000 }, () => '<value><int>1</int></value>'),
      ),
      oracle,
    ),
  );
  out.push(
    jsonCase('huge strings and bodies', 'many args', jsonCall('common', 'version', `[${Array(200_000).fill('1').join(',')}]`), oracle),
  );
  out.push(
    xmlCase(
      'huge strings and bodies',
      'many struct members',
      'xmlrpc2',
      xmlCall('version', [
        `<value><struct>${Array.from({ length: 30_000 }, (_v, i) => `<member><name>m${i}</name><value><int>${i}</int></value></member>`).join('')}</struct></value>`,
      ]),
      oracle,
    ),
  );
  const tooLarge = (last: string): Expected => ({ exception: 'werkzeug.exceptions.RequestEntityTooLarge', last });
  const message = `werkzeug.exceptions.RequestEntityTooLarge: 413 Request Entity Too Large: the request body exceeds ${s.maxBody} bytes (--max-body)`;
  for (const n of [s.maxBody + 1, s.maxBody + 1_000, 2 * s.maxBody, 4 * s.maxBody]) {
    for (const chunked of [false, true]) {
      const framing = chunked ? 'chunked' : 'content-length';
      const chunks = [Buffer.from(xmlCall('version', []).slice(0, 60)), big.subarray(0, n - 60)];
      for (const endpoint of ['xmlrpc2', 'xmlrpc1'] as const) {
        out.push({
          ...xmlCase('huge strings and bodies', `body ${n} ${framing}`, endpoint, '', tooLarge(message)),
          chunks,
          chunked,
          contentLength: chunked ? null : n,
        });
      }
      out.push({
        ...jsonCase('huge strings and bodies', `body ${n} ${framing}`, '', tooLarge(message)),
        chunks,
        chunked,
        contentLength: chunked ? null : n,
      });
    }
  }
  return out;
}

function invalidUtf8(): HostileCase[] {
  const out: HostileCase[] = [];
  const bad: Array<[string, number[]]> = [
    ['ff', [0xff]],
    ['fe', [0xfe]],
    ['overlong nul', [0xc0, 0x80]],
    ['overlong slash', [0xe0, 0x80, 0xaf]],
    ['surrogate', [0xed, 0xa0, 0x80]],
    ['five bytes', [0xf8, 0x88, 0x80, 0x80, 0x80]],
    ['beyond U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ['lone continuation', [0x80]],
    ['truncated two', [0xc3]],
    ['truncated three', [0xe2, 0x82]],
  ];
  const at = (before: string, bytes: number[], after: string) =>
    Buffer.concat([Buffer.from(before), Buffer.from(bytes), Buffer.from(after)]);
  const call = xmlCall('version', [str('XX')]);
  for (const [name, bytes] of bad) {
    const [pre, post] = call.split('XX') as [string, string];
    out.push(xmlCase('invalid utf-8 and encodings', `${name} in a string`, 'xmlrpc2', at(pre, bytes, post), oracle));
    const [mpre, mpost] = xmlCall('verYYsion').split('YY') as [string, string];
    out.push(xmlCase('invalid utf-8 and encodings', `${name} in the method name`, 'xmlrpc1', at(mpre, bytes, mpost), oracle));
    out.push(
      xmlCase(
        'invalid utf-8 and encodings',
        `${name} in a tag name`,
        'xmlrpc2',
        at("<?xml version='1.0'?>\n<method", bytes, 'Call/>'),
        oracle,
      ),
    );
    out.push(
      jsonCase(
        'invalid utf-8 and encodings',
        `${name} in a string`,
        at('{"jsonrpc": "2.0", "method": "call", "params": {"service": "common", "method": "version", "args": ["', bytes, '"]}, "id": 1}'),
        oracle,
      ),
    );
  }
  const declared: Array<[string, Buffer]> = [
    ['us-ascii with utf-8 bytes', Buffer.from(xmlCall('version', [str('é')], '<?xml version="1.0" encoding="us-ascii"?>\n'))],
    ['latin-1 with utf-8 bytes', Buffer.from(xmlCall('version', [str('é')], '<?xml version="1.0" encoding="iso-8859-1"?>\n'))],
    ['latin-1 with latin-1 bytes', Buffer.from(xmlCall('version', [str('é')], '<?xml version="1.0" encoding="iso-8859-1"?>\n'), 'latin1')],
    ['utf-8 with latin-1 bytes', Buffer.from(xmlCall('version', [str('é')], '<?xml version="1.0" encoding="utf-8"?>\n'), 'latin1')],
    ['utf-16 declared, utf-8 body', Buffer.from(xmlCall('version', [str('x')], '<?xml version="1.0" encoding="utf-16"?>\n'))],
    ['unknown encoding', Buffer.from(xmlCall('version', [str('x')], '<?xml version="1.0" encoding="x-bogus-42"?>\n'))],
    ['empty encoding', Buffer.from(xmlCall('version', [str('x')], '<?xml version="1.0" encoding=""?>\n'))],
    ['windows-1252', Buffer.from(xmlCall('version', [str('\x80')], '<?xml version="1.0" encoding="windows-1252"?>\n'), 'latin1')],
    [
      'utf-16le with bom',
      Buffer.concat([
        Buffer.from([0xff, 0xfe]),
        Buffer.from(xmlCall('version', [str('é')], '<?xml version="1.0" encoding="utf-16"?>\n'), 'utf16le'),
      ]),
    ],
    [
      'utf-16be with bom',
      Buffer.concat([
        Buffer.from([0xfe, 0xff]),
        Buffer.from(xmlCall('version', [str('é')], '<?xml version="1.0" encoding="utf-16"?>\n'), 'utf16le').swap16(),
      ]),
    ],
    ['utf-16le without bom', Buffer.from(xmlCall('version', [str('é')], '<?xml version="1.0" encoding="utf-16"?>\n'), 'utf16le')],
    ['utf-8 bom', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(xmlCall('version', [str('é')]))])],
    [
      'utf-8 bom then utf-16 declared',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(xmlCall('version', [], '<?xml version="1.0" encoding="utf-16"?>\n'))]),
    ],
    ['utf-32', Buffer.from(xmlCall('version', [], '<?xml version="1.0" encoding="utf-32"?>\n'))],
  ];
  for (const [name, body] of declared) out.push(...both((e) => [xmlCase('invalid utf-8 and encodings', name, e, body, oracle)]));
  const jsonEncodings: Array<[string, Buffer]> = [
    ['utf-16 body', Buffer.from(jsonCall('common', 'version'), 'utf16le')],
    ['latin-1 bytes', Buffer.from(jsonCall('common', 'version', '["é"]'), 'latin1')],
    ['utf-8 bom', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(jsonCall('common', 'version'))])],
    ['lone surrogate escape', Buffer.from(jsonCall('common', 'version', '["\\ud800"]'))],
  ];
  for (const [name, body] of jsonEncodings) out.push(jsonCase('invalid utf-8 and encodings', name, body, oracle));
  return out;
}

function controlBytes(): HostileCase[] {
  const out: HostileCase[] = [];
  const controls = [...Array.from({ length: 32 }, (_v, i) => i), 0x7f];
  const call = xmlCall('version', [str('XX')]);
  const [pre, post] = call.split('XX') as [string, string];
  for (const c of controls) {
    out.push(
      xmlCase(
        'nul and control bytes',
        `byte ${c} in a string`,
        'xmlrpc2',
        Buffer.concat([Buffer.from(pre), Buffer.from([c]), Buffer.from(post)]),
        oracle,
      ),
    );
    if (c % 4 === 0)
      out.push(xmlCase('nul and control bytes', `reference &#${c}; in a string`, 'xmlrpc1', xmlCall('version', [str(`&#${c};`)]), oracle));
    if (c % 4 === 1)
      out.push(
        jsonCase(
          'nul and control bytes',
          `raw byte ${c} in a string`,
          Buffer.concat([
            Buffer.from('{"jsonrpc": "2.0", "method": "call", "params": {"service": "common", "method": "version", "args": ["a'),
            Buffer.from([c]),
            Buffer.from('"]}, "id": 1}'),
          ]),
          oracle,
        ),
      );
  }
  out.push(
    xmlCase(
      'nul and control bytes',
      'nul before the declaration',
      'xmlrpc2',
      Buffer.concat([Buffer.from([0]), Buffer.from(xmlCall('version'))]),
      oracle,
    ),
  );
  out.push(xmlCase('nul and control bytes', 'nul in the method name', 'xmlrpc1', xmlCall('ver\0sion'), oracle));
  out.push(xmlCase('nul and control bytes', 'nul after the document', 'xmlrpc2', `${xmlCall('version')}\0`, oracle));
  out.push(xmlCase('nul and control bytes', 'nul-only body', 'xmlrpc2', Buffer.alloc(1000), oracle));
  for (const esc of ['\\u0000', '\\u0001', '\\u001f', '\\u007f']) {
    out.push(
      jsonCase(
        'nul and control bytes',
        `escaped ${esc} in the service`,
        jsonCall(JSON.parse(`"common${esc}"`) as string, 'version'),
        oracle,
      ),
    );
    out.push(jsonCase('nul and control bytes', `escaped ${esc} in an argument`, jsonCall('common', 'version', `["${esc}"]`), oracle));
  }
  out.push(jsonCase('nul and control bytes', 'nul-only body', Buffer.alloc(1000), oracle));
  out.push(jsonCase('nul and control bytes', 'nul after the document', `${jsonCall('common', 'version')}\0`, oracle));
  return out;
}

function contentTypes(): HostileCase[] {
  const out: HostileCase[] = [];
  const xmlTypes: Array<string | null> = [
    null,
    'text/xml',
    'application/xml',
    'text/xml; charset=utf-8',
    'text/xml; charset=latin-1',
    'text/plain',
    'application/json',
    'application/octet-stream',
    'text/html',
    'image/png',
    '@@@',
    '',
    'text/xml; boundary=x',
    'TEXT/XML',
    'application/soap+xml',
    'x'.repeat(4000),
    'text/xml;;;;',
    'application/json-rpc',
    'text/xml, text/html',
    'application/xml; charset=utf-16',
  ];
  for (const [i, type] of xmlTypes.entries()) {
    for (const endpoint of ['xmlrpc2', 'xmlrpc1'] as const) {
      out.push({
        ...xmlCase('content types', `${i} ${JSON.stringify(type)?.slice(0, 40)}`, endpoint, xmlCall('version'), { result: true }),
        headers: type === null ? [] : [['Content-Type', type]],
      });
    }
  }
  // a form body goes to werkzeug's request.form: Odoo's XML-RPC reads nothing (expat: no element found)
  const formTypes = [
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'Multipart/Form-Data',
    ' application/x-www-form-urlencoded; charset=utf-8',
  ];
  const nothingRead: Expected = {
    exception: 'xml.parsers.expat.ExpatError',
    last: 'xml.parsers.expat.ExpatError: no element found: line 1, column 0',
  };
  for (const [i, type] of formTypes.entries()) {
    for (const endpoint of ['xmlrpc2', 'xmlrpc1'] as const) {
      out.push({
        ...xmlCase('content types', `form ${i} ${JSON.stringify(type)}`, endpoint, xmlCall('version'), nothingRead),
        headers: [['Content-Type', type]],
      });
    }
  }
  const jsonTypes: Array<[string | null, boolean]> = [
    ['application/json', true],
    ['application/json-rpc', true],
    ['application/json; charset=utf-8', true],
    ['application/json; charset=latin-1', true],
    ['APPLICATION/JSON', true],
    [' application/json ', true],
    ['application/json;', true],
    [null, false],
    ['', false],
    ['text/json', false],
    ['text/plain', false],
    ['text/xml', false],
    ['application/jsonx', false],
    ['application/x-json', false],
    ['application/javascript', false],
    ['multipart/form-data; boundary=x', false],
    ['application/x-www-form-urlencoded', false],
    ['application', false],
    ['json', false],
    ['*/*', false],
  ];
  for (const [i, [type, ok]] of jsonTypes.entries()) {
    out.push({
      ...jsonCase('content types', `${i} ${JSON.stringify(type)}`, jsonCall('common', 'version'), ok ? { result: true } : { http: 415 }),
      headers: type === null ? [] : [['Content-Type', type]],
    });
  }
  out.push({ ...jsonCase('content types', 'no content type, no body', '', { http: 415 }), headers: [] });
  return out;
}

function truncated(): HostileCase[] {
  const out: HostileCase[] = [];
  const call = Buffer.from(xmlCall('version', ['<value><array><data><value><int>7</int></value></data></array></value>', str('héllo')]));
  const cuts = Array.from({ length: 24 }, (_v, i) => Math.floor(((i + 1) * (call.length - 1)) / 25));
  for (const cut of cuts)
    out.push(
      xmlCase('truncated bodies', `cut at ${cut}/${call.length}`, cut % 2 === 0 ? 'xmlrpc2' : 'xmlrpc1', call.subarray(0, cut), oracle),
    );
  out.push(xmlCase('truncated bodies', 'empty body', 'xmlrpc2', '', oracle));
  out.push(xmlCase('truncated bodies', 'empty body', 'xmlrpc1', '', oracle));
  const json = Buffer.from(jsonCall('common', 'version', '["héllo", {"a": [1, 2.5]}]'));
  for (let i = 1; i <= 16; i++) {
    const cut = Math.floor((i * (json.length - 1)) / 17);
    out.push(jsonCase('truncated bodies', `cut at ${cut}/${json.length}`, json.subarray(0, cut), oracle));
  }
  out.push(jsonCase('truncated bodies', 'empty body', '', oracle));
  // a Content-Length longer than the body, then the client half-closes: Node answers 400 before the gateway reads anything
  for (const cut of [0, 10, 100]) {
    for (const endpoint of ['xmlrpc2', 'xmlrpc1'] as const)
      out.push({
        ...xmlCase('truncated bodies', `declared ${call.length}, sent ${cut}, closed`, endpoint, call.subarray(0, cut), { http: 400 }),
        contentLength: call.length,
        after: 'end',
      });
    out.push({
      ...jsonCase('truncated bodies', `declared ${json.length}, sent ${cut}, closed`, json.subarray(0, cut), { http: 400 }),
      contentLength: json.length,
      after: 'end',
    });
  }
  return out;
}

function slowBodies(s: TableSettings): HostileCase[] {
  const out: HostileCase[] = [];
  const timeout: Expected = { http: 408 };
  const call = Buffer.from(xmlCall('version'));
  const json = Buffer.from(jsonCall('common', 'version'));
  for (const sent of [0, 1, 20, 100]) {
    for (const endpoint of ['xmlrpc2', 'xmlrpc1'] as const)
      out.push({
        ...xmlCase('slow bodies', `stalls after ${sent} bytes`, endpoint, call.subarray(0, sent), timeout),
        contentLength: call.length,
      });
    out.push({ ...jsonCase('slow bodies', `stalls after ${sent} bytes`, json.subarray(0, sent), timeout), contentLength: json.length });
  }
  // a byte at a time, slower than --request-timeout allows in total (the calls are 101 and 111 bytes:
  // 1.6 and 3.2 times the timeout, as 40 and 80 ms were against 2 s)
  const bytes = (buf: Buffer) => [...buf].map((x) => Buffer.from([x]));
  for (const delay of [Math.ceil((s.requestTimeoutMs * 1.6) / call.length), Math.ceil((s.requestTimeoutMs * 3.2) / call.length)]) {
    out.push({ ...xmlCase('slow bodies', `a byte every ${delay} ms`, 'xmlrpc2', '', timeout), chunks: bytes(call), chunkDelayMs: delay });
    out.push({ ...xmlCase('slow bodies', `a byte every ${delay} ms`, 'xmlrpc1', '', timeout), chunks: bytes(call), chunkDelayMs: delay });
    out.push({ ...jsonCase('slow bodies', `a byte every ${delay} ms`, '', timeout), chunks: bytes(json), chunkDelayMs: delay });
  }
  // chunked framing that never ends
  for (const endpoint of ['xmlrpc2', 'xmlrpc1'] as const)
    out.push({
      ...xmlCase('slow bodies', 'chunked, no last chunk', endpoint, '', timeout),
      chunks: [call],
      chunked: 'unterminated',
      contentLength: null,
      expect: timeout,
    });
  // slow headers: the request head trickles in and never ends
  for (const [i, head] of [
    'POST /xmlrpc/2/common HTTP/1.1\r\nHost: x\r\nX-Slow: ',
    'POST /xmlrpc/common HTTP/1.1\r\n',
    'POST /jsonrpc HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 10\r\n',
    'P',
  ].entries()) {
    const endpoint = head.includes('jsonrpc') ? 'jsonrpc' : head.includes('/2/') ? 'xmlrpc2' : 'xmlrpc1';
    // each head is at least 201 bytes: 1.2 and 4.8 times the timeout
    for (const delay of [Math.ceil((s.requestTimeoutMs * 1.2) / 201), Math.ceil((s.requestTimeoutMs * 4.8) / 201)]) {
      // "Paaa…" is no HTTP method: Node's parser refuses it with 400 at once
      const expect: Expected = head === 'P' ? { http: 400 } : timeout;
      out.push({
        id: `slow bodies: ${endpoint} slow headers ${i} every ${delay} ms`,
        category: 'slow bodies',
        endpoint,
        service: 'common',
        headers: [],
        raw: true,
        chunks: bytes(Buffer.from(`${head}${'a'.repeat(200)}`)),
        chunkDelayMs: delay,
        expect,
      });
    }
  }
  // fast enough: trickled in small chunks, finished well within the timeout
  for (const size of [1, 8, 32, 64]) {
    const split = (buf: Buffer) => Array.from({ length: Math.ceil(buf.length / size) }, (_v, i) => buf.subarray(i * size, (i + 1) * size));
    if (size > 1) {
      out.push({
        ...xmlCase('slow bodies', `chunks of ${size} bytes, 2 ms apart`, 'xmlrpc2', '', oracle),
        chunks: split(call),
        chunkDelayMs: 2,
      });
      out.push({
        ...xmlCase('slow bodies', `chunks of ${size} bytes, 2 ms apart`, 'xmlrpc1', '', oracle),
        chunks: split(call),
        chunkDelayMs: 2,
      });
      out.push({ ...jsonCase('slow bodies', `chunks of ${size} bytes, 2 ms apart`, '', oracle), chunks: split(json), chunkDelayMs: 2 });
    }
    out.push({
      ...xmlCase('slow bodies', `chunked framing, chunks of ${size} bytes`, 'xmlrpc2', '', oracle),
      chunks: split(call),
      chunked: true,
      contentLength: null,
    });
    out.push({
      ...jsonCase('slow bodies', `chunked framing, chunks of ${size} bytes`, '', oracle),
      chunks: split(json),
      chunked: true,
      contentLength: null,
    });
  }
  return out;
}

function compressed(): HostileCase[] {
  const out: HostileCase[] = [];
  const call = Buffer.from(xmlCall('version', [str('compressed')]));
  const json = Buffer.from(jsonCall('common', 'version', '["compressed"]'));
  const codecs: Array<[string, (x: Buffer) => Buffer, string]> = [
    ['gzip', (x) => gzipSync(x), 'gzip'],
    ['gzip level 1', (x) => gzipSync(x, { level: 1 }), 'gzip'],
    ['deflate', (x) => deflateSync(x), 'deflate'],
    ['raw deflate', (x) => deflateRawSync(x), 'deflate'],
    ['brotli', (x) => brotliCompressSync(x), 'br'],
    ['gzip twice', (x) => gzipSync(gzipSync(x)), 'gzip, gzip'],
  ];
  for (const [name, encode, header] of codecs) {
    for (const withHeader of [true, false]) {
      const headers = (base: Array<[string, string]>): Array<[string, string]> =>
        withHeader ? [...base, ['Content-Encoding', header]] : base;
      const tag = `${name}${withHeader ? '' : ' without Content-Encoding'}`;
      for (const endpoint of ['xmlrpc2', 'xmlrpc1'] as const)
        out.push({ ...xmlCase('compressed bodies', tag, endpoint, encode(call), oracle), headers: headers(xmlHeaders) });
      out.push({ ...jsonCase('compressed bodies', tag, encode(json), oracle), headers: headers(jsonHeaders) });
    }
  }
  // decompression bombs: small on the wire, huge if anything inflated them
  const zeros = gzipSync(Buffer.alloc(200 * 2 ** 20));
  const spaces = gzipSync(
    Buffer.concat([Buffer.from("<?xml version='1.0'?>\n<methodCall>"), Buffer.alloc(100 * 2 ** 20, ' '), Buffer.from('</methodCall>')]),
  );
  const jsonBomb = gzipSync(Buffer.concat([Buffer.from('{"params": {"args": ['), Buffer.alloc(100 * 2 ** 20, ' '), Buffer.from(']}}')]));
  const bombs: Array<[string, Buffer]> = [
    ['200 MiB of zeros', zeros],
    ['100 MiB of XML whitespace', spaces],
    ['nested gzip of zeros', gzipSync(zeros)],
    ['100 MiB of JSON whitespace', jsonBomb],
  ];
  for (const [name, bomb] of bombs) {
    for (const endpoint of ['xmlrpc2', 'xmlrpc1'] as const)
      out.push({
        ...xmlCase('compressed bodies', `bomb ${name}`, endpoint, bomb, oracle),
        headers: [...xmlHeaders, ['Content-Encoding', 'gzip']],
      });
    out.push({ ...jsonCase('compressed bodies', `bomb ${name}`, bomb, oracle), headers: [...jsonHeaders, ['Content-Encoding', 'gzip']] });
  }
  // a Content-Encoding header on a plain body is ignored, as werkzeug does
  for (const header of ['gzip', 'br', 'identity', 'x-unknown']) {
    out.push({
      ...xmlCase('compressed bodies', `plain body labelled ${header}`, 'xmlrpc2', call, oracle),
      headers: [...xmlHeaders, ['Content-Encoding', header]],
    });
    out.push({
      ...jsonCase('compressed bodies', `plain body labelled ${header}`, json, oracle),
      headers: [...jsonHeaders, ['Content-Encoding', header]],
    });
  }
  return out;
}

function malformedJson(): HostileCase[] {
  const bodies = [
    '',
    ' ',
    '{',
    '}',
    '[',
    '[]',
    'null',
    'true',
    '1',
    '"call"',
    '{}',
    '{"jsonrpc": "2.0"}',
    "{'jsonrpc': '2.0'}",
    '{"a": 1,}',
    '[1, 2,]',
    '{"a" 1}',
    '{"a": 01}',
    '{"a": .5}',
    '{"a": 1} // comment',
    '/* c */ {}',
    '{"a": "\\x41"}',
    '{"a": "\\u12"}',
    '{"a": tru}',
    '{"a": NaN}',
    '{"a": -Infinity}',
    '{"params": {"service": "common", "method": "version", "args": []}}{"x": 1}',
    '{"params": []}',
    '{"params": [["service", "common"]]}',
    '{"params": "sma"}',
    '{"params": 1}',
    '{"params": null}',
    '{"params": true}',
    '{"params": {}}',
    '{"params": {"service": "common"}}',
    '{"params": {"service": "common", "method": "version"}}',
    '{"params": {"method": "version", "args": []}}',
    '{"params": {"service": "common", "method": "version", "args": [], "extra": 1}}',
    '{"params": {"service": "nope", "method": "version", "args": []}}',
    '{"params": {"service": null, "method": "version", "args": []}}',
    '{"params": {"service": ["common"], "method": "version", "args": []}}',
    '{"params": {"service": "common", "method": 7, "args": []}}',
    '{"params": {"service": "common", "method": "version", "args": null}}',
    '{"params": {"service": "common", "method": "version", "args": "ab"}}',
    '{"params": {"service": "common", "method": "version", "args": {"a": 1}}}',
    '{"params": {"service": "common", "method": "version", "args": 5}}',
    '{"params": {"service": "common", "method": "nope", "args": []}}',
    '{"params": {"service": "common", "method": "__init__", "args": []}}',
    '{"params": {"service": "common", "method": "version", "args": []}, "params": {"service": "db", "method": "nope", "args": []}}',
    jsonCall('common', 'version', '[]', '"a string id"'),
    jsonCall('common', 'version', '[]', 'null'),
    jsonCall('common', 'version', '[]', '{"nested": [1]}'),
    jsonCall('common', 'version', '[]', '123456789012345678901234567890'),
    jsonCall('common', 'version', '[]', '1.5e300'),
    jsonCall('common', 'version', '[1e400]'),
    jsonCall('common', 'version', '[-0.0, 1E3]'),
    '\ufeff{"params": {}}',
  ];
  return bodies.map((body, i) => jsonCase('malformed json-rpc', `${i} ${body.slice(0, 60)}`, body, oracle));
}

function arityAndTypes(s: TableSettings): HostileCase[] {
  const out: HostileCase[] = [];
  const pw = s.adminPassword;
  const x = (v: unknown): string => {
    if (v === null) return '<value><nil/></value>';
    if (typeof v === 'boolean') return `<value><boolean>${v ? 1 : 0}</boolean></value>`;
    if (typeof v === 'number') return Number.isInteger(v) ? `<value><int>${v}</int></value>` : `<value><double>${v}</double></value>`;
    if (typeof v === 'string') return str(v);
    if (Array.isArray(v)) return `<value><array><data>\n${v.map(x).join('\n')}\n</data></array></value>`;
    return `<value><struct>${Object.entries(v as object)
      .map(([k, item]) => `<member><name>${k}</name>${x(item)}</member>`)
      .join('')}</struct></value>`;
  };
  const add = (service: string, method: string, params: unknown[], endpoints: Endpoint[]) => {
    for (const endpoint of endpoints) {
      const id = `${service}.${method}(${params.length}: ${JSON.stringify(params).slice(0, 50)})`;
      if (endpoint === 'jsonrpc') {
        out.push(jsonCase('arity and types', id, jsonCall(service, method, JSON.stringify(params)), { oracle: true }));
      } else out.push({ ...xmlCase('arity and types', id, endpoint, xmlCall(method, params.map(x)), { oracle: true }), service });
    }
  };
  const all: Endpoint[] = ['xmlrpc2', 'xmlrpc1', 'jsonrpc'];
  const filler = (n: number) => Array.from({ length: n }, (_v, i) => `p${i}`);
  // common: exp_<method>(*params)
  const common: Array<[string, number, number]> = [
    ['login', 3, 3],
    ['authenticate', 4, 4],
    ['version', 0, 0],
    ['about', 0, 1],
    ['set_loglevel', 1, 2],
  ];
  for (const [method, min, max] of common) {
    for (const n of [0, 1, 2, 3, 4, 5, 8]) if (n < min || n > max) add('common', method, filler(n), n === max + 1 ? all : ['xmlrpc2']);
  }
  // db: the master password first (popped and checked), then exp_<method>(*params)
  const master: Array<[string, number, number]> = [
    ['create_database', 3, 7],
    ['duplicate_database', 2, 3],
    ['drop', 1, 1],
    ['dump', 2, 2],
    ['restore', 2, 3],
    ['rename', 2, 2],
    ['change_admin_password', 1, 1],
    ['migrate_databases', 1, 1],
    ['list_countries', 0, 0],
  ];
  for (const [method, min, max] of master) {
    add('db', method, [], ['xmlrpc2', 'jsonrpc']); // no master password: params[0]
    add('db', method, ['not the master password', ...filler(min)], ['xmlrpc2']);
    add('db', method, ['admin', ...filler(max + 1)], all);
    if (min > 0) add('db', method, ['admin', ...filler(min - 1)], ['xmlrpc2']);
  }
  const open: Array<[string, number, number]> = [
    ['db_exist', 1, 1],
    ['list', 0, 1],
    ['list_lang', 0, 0],
    ['server_version', 0, 0],
  ];
  for (const [method, min, max] of open) {
    add('db', method, filler(max + 1), all);
    add('db', method, filler(max + 3), ['xmlrpc2']);
    if (min > 0) add('db', method, [], ['xmlrpc2']);
  }
  // object: (db, uid, passwd) = params[0], int(params[1]), params[2]; check; execute[_kw](db, uid, *params[3:])
  for (const n of [0, 1, 2]) add('object', 'execute_kw', ['demo', 2, pw].slice(0, n), n === 2 ? all : ['xmlrpc2']);
  for (const n of [3, 4, 5]) add('object', 'execute_kw', ['demo', 2, pw, 'res.partner', 'search_count'].slice(0, n), all);
  add('object', 'execute_kw', ['demo', 2, pw, 'res.partner', 'search_count', [[]], {}, 'extra'], all);
  for (const n of [3, 4]) add('object', 'execute', ['demo', 2, pw, 'res.partner'].slice(0, n), all);
  for (const uid of ['abc', '', [], {}, null, '2x', 1e30])
    add('object', 'execute_kw', ['demo', uid, pw, 'res.partner', 'search_count', [[]]], ['xmlrpc2']);
  add('object', 'execute_kw', ['demo', '2', 'not the password', 'res.partner', 'search_count', [[]]], ['xmlrpc2']);
  add('object', 'execute_kw', ['demo', 2, 'not the password', 'res.partner', 'search_count', [[]]], all);
  // `*args` of a non-iterable: Python 3.11/3.12's wording (Odoo 19), which the oracle does not model
  for (const endpoint of all) {
    const params = ['demo', 2, pw, 'res.partner', 'search_count', 5];
    const expect: Expected = { exception: 'TypeError', last: 'TypeError: Value after * must be an iterable, not int' };
    if (endpoint === 'jsonrpc')
      out.push(jsonCase('arity and types', 'object.execute_kw args 5', jsonCall('object', 'execute_kw', JSON.stringify(params)), expect));
    else
      out.push({
        ...xmlCase('arity and types', 'object.execute_kw args 5', endpoint, xmlCall('execute_kw', params.map(x)), expect),
        service: 'object',
      });
  }
  add('object', 'execute_kw', ['demo', 2, pw, 'res.partner', 'search_count', [[]], [1]], all);
  add('object', 'execute_kw', ['demo', 2, pw, 'res.partner', 'search_count', [[]], 'kw'], ['xmlrpc2']);
  add('object', 'nope', ['demo', 2, pw], ['xmlrpc2', 'jsonrpc']);
  return out;
}

/** Every case of every category. */
export function hostileCases(s: TableSettings): HostileCase[] {
  return [
    ...entities(),
    ...doctype(),
    ...deepNesting(s),
    ...hugeStrings(s),
    ...invalidUtf8(),
    ...controlBytes(),
    ...contentTypes(),
    ...truncated(),
    ...slowBodies(s),
    ...compressed(),
    ...malformedJson(),
    ...arityAndTypes(s),
  ];
}
