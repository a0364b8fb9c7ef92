/**
 * `/doc-bearer/index.json` and `/doc-bearer/<model>.json` (addons/api_doc, Odoo: `addons/api_doc`):
 * database selection as JSON-2, `auth='bearer'` (401), the Technical Documentation group (403
 * AccessError; membership read from the user's groups, so the seeded admin is in and demo is out),
 * then an ETag over (route, registry version, lang, user groups) — unquoted, the same for every model
 * document, another for the index, as Odoo's HMAC — with a bare 304 on a matching `If-None-Match`
 * unless `Cache-Control: no-cache`. Only the recorded models (and the simulator's custom methods) are
 * documented: a model the database lacks answers Odoo's 404, one it has but the recording lacks the
 * simulator's own.
 */
import { createHash } from 'node:crypto';
import type { Struct, Value } from '../../src/value.ts';
import { authenticateBearer } from '../auth/auth.ts';
import type { Database } from '../orm/database.ts';
import { docsFor, type DocBearerStores, type DocStore } from './doc-bearer-docs.ts';
import { accessError, errorFrom, errorToBody, notFound } from '../errors.ts';
import { noDatabasePage, notFoundDescription, werkzeugPage } from './html-pages.ts';
import { htmlResponse, jsonResponse, type SimRequest, type SimResponse } from './http-types.ts';
import { selectDatabase, type Json2State } from './json2-route.ts';
import type { Row } from '../orm/model.ts';
import { reprString } from '../python-repr.ts';
import { loadSeed } from '../seed.ts';

/** What the routes need from the running simulator. */
export interface DocBearerState extends Json2State, DocBearerStores {}

/** `api_doc.group_allow_doc`, by its name in `res.groups.json`. */
const docGroupName = 'Technical Documentation';
const modelPath = /^\/doc-bearer\/([^/]+)\.json$/;

function groupsOf(user: Row | undefined): number[] {
  const groups = user?.v.all_group_ids;
  return Array.isArray(groups) ? groups.filter((g): g is number => typeof g === 'number') : [];
}

/** Non-members get the AccessError api_doc raises ("only accessible to %s users"). */
function checkDocGroup(db: Database, user: Row | undefined): void {
  const allowed = db.groupIdsNamed([docGroupName]);
  if (groupsOf(user).some((g) => allowed.has(g))) return;
  throw accessError(`This page is only accessible to ${docGroupName} users.`);
}

/**
 * An HMAC-like tag over what Odoo's covers: the route's scope (one for every model document, another
 * for the index), the registry version, the lang, the user's groups. Odoo sends it unquoted.
 */
function etagOf(scope: string, db: Database, store: DocStore, lang: string, groups: number[]): string {
  const input = JSON.stringify([scope, db.name, store.version, lang, [...groups].sort((a, b) => a - b)]);
  return createHash('sha256').update(input).digest('hex');
}

/**
 * werkzeug's `is_resource_modified` on `If-None-Match` (tags quoted or not, weak ones compare
 * equal, `*` matches), unless the client said no-cache.
 */
function isNotModified(req: SimRequest, etag: string): boolean {
  if (/(^|,)\s*no-cache\s*(,|$)/i.test(req.headers['cache-control'] ?? '')) return false;
  const header = req.headers['if-none-match'];
  if (header === undefined) return false;
  return header.split(',').some((tag) => {
    const t = tag
      .trim()
      .replace(/^W\//, '')
      .replace(/^"(.*)"$/, '$1');
    return t === etag || t === '*';
  });
}

function seedFields(model: string): Map<string, Struct> {
  return loadSeed().models.get(model)?.fields ?? new Map();
}

function modelDoc(model: string, methods: ReadonlyMap<string, Value>): Value {
  return new Map<string, Value>([
    ['model', model],
    ['name', loadSeed().models.get(model)?.description ?? model],
    ['doc', null],
    ['fields', new Map(seedFields(model))],
    ['methods', new Map(methods)],
  ]);
}

function indexDoc(db: Database, store: DocStore): Value {
  const models = store.models().filter((m) => db.model(m) !== undefined);
  const modules = new Set<string>();
  for (const m of models) {
    for (const doc of store.methods(m)?.values() ?? []) {
      const module = doc instanceof Map ? doc.get('module') : undefined;
      if (typeof module === 'string' && module !== 'core') modules.add(module);
    }
  }
  const entries = models.map((m) => {
    const fields = [...seedFields(m)].map(([name, attrs]): [string, Value] => [name, new Map([['string', attrs.get('string') ?? name]])]);
    return new Map<string, Value>([
      ['model', m],
      ['name', loadSeed().models.get(m)?.description ?? m],
      ['fields', new Map(fields)],
      ['methods', [...(store.methods(m)?.keys() ?? [])]],
    ]);
  });
  return new Map<string, Value>([
    ['modules', [...modules]],
    ['models', entries],
  ]);
}

/** Serves `/doc-bearer/...`. */
export function handleDocBearer(state: DocBearerState, req: SimRequest): SimResponse {
  const db = selectDatabase(state, req);
  if (db === undefined) return htmlResponse(404, noDatabasePage());
  const match = modelPath.exec(req.path);
  if (match === null) return htmlResponse(404, werkzeugPage(404, notFoundDescription));
  const name = match[1] as string;
  try {
    const uid = authenticateBearer(req.headers.authorization, state.keys, db);
    const user = db.model('res.users')?.get(uid);
    checkDocGroup(db, user);
    const store = docsFor(state, db.name);
    const methods = store.methods(name);
    if (name !== 'index' && db.model(name) === undefined) throw notFound(notFoundDescription); // `model_name not in self.env`
    if (name !== 'index' && methods === undefined) {
      // The simulator's own wording: it documents only the recorded models.
      throw notFound(`the Odoo simulator has no /doc-bearer documentation for the model ${reprString(name)}`);
    }
    const lang = typeof user?.v.lang === 'string' ? user.v.lang : 'en_US';
    const etag = etagOf(name === 'index' ? '/doc/index.json' : '/doc/<model_name>.json', db, store, lang, groupsOf(user));
    if (isNotModified(req, etag)) return { status: 304, headers: {}, body: '' }; // Odoo's bare 304
    const body = name === 'index' ? indexDoc(db, store) : modelDoc(name, methods as ReadonlyMap<string, Value>);
    return jsonResponse(200, body, { ETag: etag, 'Cache-Control': 'no-cache, private', 'Content-Language': lang.replace('_', '-') });
  } catch (err) {
    const error = errorFrom(err);
    return jsonResponse(error.status, errorToBody(error, 'doc-bearer'), error.headers);
  }
}
