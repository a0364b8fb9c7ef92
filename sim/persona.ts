/**
 * What each Odoo series the simulator can play serves, in one place: the release it names itself,
 * the legacy services `dispatch_rpc` still knows, which database manager runs `/web/database/*`,
 * whether `res.users.apikeys.generate` / `revoke` are public, which public methods and models it no
 * longer has, and which `read_group` it has (see `docs/odoo-versions.md`). Every fact comes from Odoo's code or changelog, never from an
 * answer the gateway is checked against.
 *
 * - `19.0`: the recorded release.
 * - `saas-19.1`: Odoo Online's first series after 19.0 (and the ones up to saas-19.3, which the
 *   simulator does not tell apart): no legacy `db` service (odoo/odoo#238399), the database manager
 *   rewritten on `odoo/modules/db.py`, programmatic API keys (#246118), the old `read_group` gone
 *   (#226523) and, with it, the other BaseModel methods removed in the same series: the old check
 *   access methods (#226551 "[REM] orm: old check access methods", labelled 19.1), `toggle_active`
 *   and `copy_translations` (#226559, labelled 19.1) — the series `src/odoo-timeline.ts` dates them
 *   to. It keeps `ir.model.access` / `ir.rule` (their merge into `ir.access` is a saas-19.4 commit).
 * - `20.0`: the next on-premise major (fall 2026, #287786): saas-19.1's changes, a NEW `read_group`
 *   (`_read_group` with records as ids, tuples for rows; `odoo/orm/models.py` @00649da4), and
 *   `ir.model.access` + `ir.rule` merged into one model `ir.access` (`odoo/addons/base/models/ir_access.py`).
 */
import type { Value } from '../src/value.ts';

/** The series the simulator can play. */
export type Series = '19.0' | 'saas-19.1' | '20.0';

export const seriesNames: readonly Series[] = ['19.0', 'saas-19.1', '20.0'];

/**
 * What `odoo/release.py` says: `version_info`, `version` and `serie`. A saas release spells its
 * major `'saas~19'` (`version_info = ('saas~19', 1, 0, FINAL, 0, '')`), so its version and serie are
 * `saas~19.1` (`'.'.join(str(s) for s in version_info[:2])`, the release level `final` adds nothing).
 */
export interface Release {
  versionInfo: Value[];
  version: string;
  serie: string;
  /** `common.version()`'s `protocol_version` (`RPC_VERSION_1`). */
  protocolVersion: number;
}

/** One series' surface. */
export interface Persona {
  series: Series;
  /** `odoo/release.py` of the series: `/web/version`, `version_info`, `common.version`, session info, backups. */
  release: Release;
  /**
   * The services `dispatch_rpc` serves over `/xmlrpc*` and `/jsonrpc`; any other is 19.0's
   * `KeyError: 'name'` or, from saas-19.1 on, `ValueError: Invalid service name: name`.
   */
  legacyServices: readonly string[];
  /** How `dispatch_rpc` refuses a service it does not serve. */
  unknownService: 'KeyError' | 'ValueError';
  /**
   * `service-db`: 19.0's controllers over `odoo/service/db.py` (errors on an HTTP 200 page, no
   * rename). `modules-db`: the rewrite over `odoo/modules/db.py` (4xx pages "Could not <verb>
   * database.", rename, zip-only restore, backups written whole before they are sent).
   */
  databaseManager: 'service-db' | 'modules-db';
  /** `res.users.apikeys.generate` / `revoke` over JSON-2 (odoo/odoo#246118). */
  programmaticApiKeys: boolean;
  /**
   * Which method the name `read_group` is, where the series has it: `dicts` is 19.0's
   * `read_group(domain, fields, groupby, offset, limit, orderby, lazy)` answering dicts; `tuples`
   * is 20.0's `read_group(domain, groupby, aggregates, having, offset, limit, order)` answering
   * `_read_group`'s tuples with records as ids (odoo/orm/models.py @00649da42372cf197edfbb2fa8ab437862e39be4).
   */
  readGroup: 'dicts' | 'tuples';
  /**
   * Public methods the series no longer has (the simulator's `removedMethods` form: a bare name
   * for every model, or `model.method`): JSON-2 answers them 404 "The method '…' does not exist" and
   * `/doc-bearer` does not list them.
   */
  removedMethods: readonly string[];
  /**
   * Models the series no longer has (JSON-2: 404 "the model '…' does not exist") and fields it
   * dropped (`model.field`); the simulator's seed has none of them today, so these only keep them out.
   */
  removedModels: readonly string[];
  removedFields: readonly string[];
  /** `ir.access` (one model for ACLs and record rules, saas-19.4 → 20.0), filled from the simulator's access rules. */
  irAccess: boolean;
}

/** The BaseModel methods #226551 and #226559 removed (both labelled 19.1; absent from 20.0). */
const checkAccessAndToggle = [
  'check_access_rights',
  'check_access_rule',
  'check_field_access_rights',
  'toggle_active',
  'copy_translations',
] as const;

export const personas: Readonly<Record<Series, Persona>> = {
  '19.0': {
    series: '19.0',
    release: { versionInfo: [19, 0, 0, 'final', 0, ''], version: '19.0', serie: '19.0', protocolVersion: 1 },
    legacyServices: ['common', 'db', 'object'],
    unknownService: 'KeyError',
    databaseManager: 'service-db',
    programmaticApiKeys: false,
    readGroup: 'dicts',
    removedMethods: [],
    removedModels: [],
    removedFields: [],
    irAccess: false,
  },
  'saas-19.1': {
    series: 'saas-19.1',
    // odoo/release.py of a saas series: ('saas~12', 5, 0, FINAL, 0, '') → 'saas~12.5'
    release: { versionInfo: ['saas~19', 1, 0, 'final', 0, ''], version: 'saas~19.1', serie: 'saas~19.1', protocolVersion: 1 },
    legacyServices: ['common', 'object'],
    unknownService: 'ValueError',
    databaseManager: 'modules-db',
    programmaticApiKeys: true,
    readGroup: 'dicts',
    // #226523 "[REM] core: remove old read_group API"; #226551, #226559
    removedMethods: ['read_group', ...checkAccessAndToggle],
    removedModels: [],
    removedFields: [],
    irAccess: false,
  },
  '20.0': {
    series: '20.0',
    release: { versionInfo: [20, 0, 0, 'final', 0, ''], version: '20.0', serie: '20.0', protocolVersion: 1 },
    // #238399: dispatch_rpc keeps `common` and `object` ("active but deprecated" until 22, #252721)
    legacyServices: ['common', 'object'],
    unknownService: 'ValueError',
    databaseManager: 'modules-db',
    programmaticApiKeys: true,
    // the name is back (#226523 removed 19.0's): `@typing.final @api.model read_group(...) -> list[tuple]`
    readGroup: 'tuples',
    removedMethods: [...checkAccessAndToggle],
    // ir.model.access + ir.rule → ir.access; res.groups model_access/rule_groups → access_ids; uom.uom rounding
    removedModels: ['ir.model.access', 'ir.rule'],
    removedFields: ['res.groups.model_access', 'res.groups.rule_groups', 'uom.uom.rounding'],
    irAccess: true,
  },
};

/** The persona of a series name, or an error naming the ones there are. */
export function personaOf(series: string): Persona {
  if (!(seriesNames as readonly string[]).includes(series))
    throw new Error(`series must be one of ${seriesNames.join(', ')}, got ${JSON.stringify(series)}`);
  return personas[series as Series];
}
