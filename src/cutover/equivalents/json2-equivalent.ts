/**
 * The JSON-2 way off legacy: for a method a client was seen calling, the request that
 * replaces it — path, headers, the named body with placeholders (`placeholders.ts`), and one
 * copy-paste example in curl and one in Python `requests`. An `object` call's body is the one the
 * gateway's own binding sent upstream; a deprecated method is replaced where Odoo names a
 * replacement; `common` and `db` calls map to the routes that replace them. Nothing secret: the URL,
 * key and database come from environment variables the integrator sets.
 */
import { parseJson, stringifyJson } from '../../json/index.ts';
import { isStruct, type Struct, type Value } from '../../value.ts';
import { deprecationOf } from './deprecations.ts';
import { replacementOf } from './replacements.ts';

/** The request that replaces a legacy call. */
export interface Json2Equivalent {
  /** `POST /json/2/<model>/<method>`, or the route that replaces a `common`/`db` call; undefined when there is none. */
  request?: string;
  /** Request headers, secrets as placeholders. */
  headers?: Record<string, string>;
  /** The JSON body, argument values as placeholders of their type. */
  body?: string;
  curl?: string;
  python?: string;
  /** What to know (a replaced deprecated method, a call with no replacement). */
  note?: string;
  /** The deprecated method this request replaces. */
  replaces?: string;
  /** Where JSON-2 answers differently from the legacy call, so the client's code must change too. */
  warning?: string;
}

/** The method entry of the report, as far as the equivalent needs it. */
export interface CalledMethod {
  service: string;
  method: string;
  model?: string | undefined;
  modelMethod?: string | undefined;
  /** For `object` calls: the placeholder body of the JSON-2 request the gateway sent. */
  json2Body?: string | undefined;
}

const json2Headers = { Authorization: 'bearer <api-key>', 'X-Odoo-Database': '<database>', 'Content-Type': 'application/json' };
/** Names safe to put in a shell command and a Python string as they are. */
const safeName = /^[A-Za-z0-9_.]+$/;

/** `'text'` for a POSIX shell. */
const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** A placeholder body as a Python literal (`null` → `None`, booleans as Python's). */
function pythonLiteral(v: Value, indent: string): string {
  if (v === null) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (Array.isArray(v)) return `[${v.map((item) => pythonLiteral(item, indent)).join(', ')}]`;
  if (isStruct(v)) {
    if (v.size === 0) return '{}';
    const inner = `${indent}    `;
    return `{\n${[...v].map(([k, item]) => `${inner}${JSON.stringify(k)}: ${pythonLiteral(item, inner)},`).join('\n')}\n${indent}}`;
  }
  return JSON.stringify(String(v));
}

/** The two copy-paste examples for a JSON-2 `POST` (or a plain `GET` without key). */
function examples(verb: 'GET' | 'POST', path: string, body: Struct | undefined, auth: boolean): { curl: string; python: string } {
  const bodyText = body === undefined ? undefined : stringifyJson(body, { python: true, ensureAscii: false });
  const curl = [
    `curl -sS${verb === 'POST' ? ' -X POST' : ''} "$ODOO_URL${path}"`,
    ...(auth ? ['  -H "Authorization: bearer $ODOO_API_KEY"', '  -H "X-Odoo-Database: $ODOO_DB"'] : []),
    ...(bodyText === undefined ? [] : ['  -H "Content-Type: application/json"', `  --data ${shellQuote(bodyText)}`]),
  ].join(' \\\n');
  const python = [
    'import os',
    '',
    'import requests',
    '',
    `response = requests.${verb === 'POST' ? 'post' : 'get'}(`,
    `    f"{os.environ['ODOO_URL']}${path}",`,
    ...(auth
      ? [
          '    headers={',
          `        "Authorization": f"bearer {os.environ['ODOO_API_KEY']}",`,
          '        "X-Odoo-Database": os.environ["ODOO_DB"],',
          '    },',
        ]
      : []),
    ...(body === undefined ? [] : [`    json=${pythonLiteral(body, '    ')},`]),
    ')',
    'response.raise_for_status()',
    'print(response.json())',
  ].join('\n');
  return { curl, python };
}

function json2Call(model: string, method: string, body: Struct, withExamples: boolean): Json2Equivalent {
  const path = `/json/2/${model}/${method}`;
  return {
    request: `POST ${path}`,
    headers: json2Headers,
    body: stringifyJson(body, { python: true, ensureAscii: false }),
    ...(withExamples ? examples('POST', path, body, true) : {}),
  };
}

function parseBody(text: string | undefined): Struct | undefined {
  if (text === undefined) return undefined;
  try {
    const v = parseJson(text);
    return isStruct(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Legacy `create` with one dict answers the new id; JSON-2 answers the ids of the created records,
 * `[id]`, whatever it was given (Odoo 19.0's `call_kw` unwraps a one-dict create, JSON-2 does not).
 */
export const createOneDictWarning =
  'JSON-2 answers a list of ids, [id], where the legacy create with one dict answered the id itself: read the first item of the answer.';

function answerWarning(modelMethod: string, body: Struct): { warning?: string } {
  return modelMethod === 'create' && body.get('vals_list') instanceof Map ? { warning: createOneDictWarning } : {};
}

/** An `object` call's equivalent. */
function objectEquivalent(m: CalledMethod, withExamples: boolean): Json2Equivalent | undefined {
  const { model, modelMethod } = m;
  if (model === undefined || modelMethod === undefined) return undefined;
  if (!safeName.test(model) || !safeName.test(modelMethod))
    return { note: 'No example: the model or method name is not a valid Odoo name.' };
  const body = parseBody(m.json2Body);
  const replacement = deprecationOf(model, modelMethod) === undefined ? undefined : replacementOf(modelMethod);
  if (body === undefined) {
    const method = replacement?.method ?? modelMethod;
    return {
      request: `POST /json/2/${replacement?.model ?? model}/${method}`,
      headers: json2Headers,
      note: 'The gateway never sent this call to JSON-2 (it failed before, e.g. on its arguments): pass its arguments by name in the body.',
      ...(replacement === undefined ? {} : { replaces: modelMethod }),
    };
  }
  if (replacement === undefined) return { ...json2Call(model, modelMethod, body, withExamples), ...answerWarning(modelMethod, body) };
  return {
    ...json2Call(replacement.model ?? model, replacement.method, replacement.body(body), withExamples),
    replaces: modelMethod,
    note: replacement.note,
  };
}

const databaseList: Json2Equivalent = {
  request: 'POST /web/database/list',
  headers: { 'Content-Type': 'application/json' },
  body: '{"jsonrpc": "2.0", "method": "call", "params": {}}',
  curl: `curl -sS -X POST "$ODOO_URL/web/database/list" \\\n  -H "Content-Type: application/json" \\\n  --data '{"jsonrpc": "2.0", "method": "call", "params": {}}'`,
  python: [
    'import os',
    '',
    'import requests',
    '',
    'response = requests.post(',
    `    f"{os.environ['ODOO_URL']}/web/database/list",`,
    '    json={"jsonrpc": "2.0", "method": "call", "params": {}},',
    ')',
    'response.raise_for_status()',
    'print(response.json()["result"])',
  ].join('\n'),
};

const webVersion: Json2Equivalent = { request: 'GET /web/version', ...examples('GET', '/web/version', undefined, false) };

const searchRead = (model: string, fields: string[], note: string): Json2Equivalent => ({
  ...json2Call(
    model,
    'search_read',
    new Map<string, Value>([
      ['domain', []],
      ['fields', fields],
    ]),
    true,
  ),
  note,
});

/** `common` and `db` calls: the routes that replace them (none are JSON-2 model calls). */
const serviceEquivalents: Readonly<Record<string, Json2Equivalent>> = {
  'common.version': {
    ...webVersion,
    note: 'Answers {"version_info", "version"}; the same dict as common.version is the JSON-RPC route /web/webclient/version_info.',
  },
  'common.login': {
    note: 'JSON-2 has no login: every request carries an API key (Authorization: bearer <api-key>), made in Preferences → Account Security → New API Key. The key stands for the user.',
  },
  'common.authenticate': {
    note: 'JSON-2 has no login: every request carries an API key (Authorization: bearer <api-key>), made in Preferences → Account Security → New API Key. The key stands for the user.',
  },
  'common.about': { note: 'No replacement; /web/version names the server version.' },
  'db.list': { ...databaseList, note: "Applies the server's dbfilter, which legacy db.list ignored." },
  'db.db_exist': { ...databaseList, note: "Look for the name in the list (it applies the server's dbfilter)." },
  'db.server_version': { ...webVersion, note: 'The "version" member is db.server_version\'s answer.' },
  'db.list_lang': searchRead(
    'res.lang',
    ['code', 'name'],
    'Lists the languages of one database (installed ones; add ["active", "in", [true, false]] to the domain for all); legacy listed every language Odoo ships.',
  ),
  'db.list_countries': searchRead('res.country', ['code', 'name'], 'Country codes come upper-case (legacy gave them lower-case).'),
  'db.create_database': {
    request: 'POST /web/database/create',
    note: 'A form post (master_pwd, name, login, password, lang, country_code, phone, demo); answers 303 on success.',
  },
  'db.duplicate_database': {
    request: 'POST /web/database/duplicate',
    note: 'A form post (master_pwd, name, new_name, neutralize_database).',
  },
  'db.drop': { request: 'POST /web/database/drop', note: 'A form post (master_pwd, name).' },
  'db.dump': {
    request: 'POST /web/database/backup',
    note: 'A form post (master_pwd, name, backup_format); answers the backup file itself, not base64.',
  },
  'db.restore': {
    request: 'POST /web/database/restore',
    note: 'A multipart form post (master_pwd, name, backup_file, copy, neutralize_database).',
  },
  'db.change_admin_password': { request: 'POST /web/database/change_password', note: 'A form post (master_pwd, master_pwd_new).' },
  'db.rename': { note: 'Odoo 19 has no replacement over HTTP (later versions: POST /web/database/rename).' },
  'db.migrate_databases': { note: 'No replacement: update modules on the server (odoo-bin -u).' },
};

/**
 * The equivalent of one method the report lists, or undefined (an unknown service or method).
 * `examples: false` leaves out the curl and Python examples (a client's own rows; the fleet table has them).
 */
export function json2EquivalentOf(m: CalledMethod, { examples = true }: { examples?: boolean } = {}): Json2Equivalent | undefined {
  if (m.service === 'object') return objectEquivalent(m, examples);
  const key = `${m.service}.${m.method}`;
  if (!Object.hasOwn(serviceEquivalents, key)) return undefined;
  const e = serviceEquivalents[key] as Json2Equivalent;
  if (examples) return e;
  const { curl: _curl, python: _python, ...rest } = e;
  return rest;
}
