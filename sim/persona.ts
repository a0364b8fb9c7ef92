/**
 * What each Odoo series the simulator can play serves, in one place: the legacy services
 * `dispatch_rpc` still knows, which database manager runs `/web/database/*`, and whether
 * `res.users.apikeys.generate` / `revoke` are public. `19.0` is the recorded release; `saas-19.1`
 * stands for saas-19.1 and later (20.0): no legacy `db` service, the database manager rewritten on
 * `odoo/modules/db.py`, programmatic API keys (see `docs/odoo-versions.md`).
 */

/** The series the simulator can play. */
export type Series = '19.0' | 'saas-19.1';

export const seriesNames: readonly Series[] = ['19.0', 'saas-19.1'];

/** One series' surface. */
export interface Persona {
  series: Series;
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
   * Public methods the series no longer has (the simulator's `removedMethods` form: a bare name
   * for every model, or `model.method`): saas-19.1 removed the old `read_group` API (odoo/odoo#226523).
   */
  removedMethods: readonly string[];
}

export const personas: Readonly<Record<Series, Persona>> = {
  '19.0': {
    series: '19.0',
    legacyServices: ['common', 'db', 'object'],
    unknownService: 'KeyError',
    databaseManager: 'service-db',
    programmaticApiKeys: false,
    removedMethods: [],
  },
  'saas-19.1': {
    series: 'saas-19.1',
    legacyServices: ['common', 'object'],
    unknownService: 'ValueError',
    databaseManager: 'modules-db',
    programmaticApiKeys: true,
    removedMethods: ['read_group'],
  },
};

/** The persona of a series name, or an error naming the ones there are. */
export function personaOf(series: string): Persona {
  if (!(seriesNames as readonly string[]).includes(series))
    throw new Error(`series must be one of ${seriesNames.join(', ')}, got ${JSON.stringify(series)}`);
  return personas[series as Series];
}
