/**
 * `db.list_lang()` and `db.list_countries()` (Odoo: `odoo/service/db.py`): the `<select>` options of the manager
 * page, which Odoo renders from the very functions legacy RPC called; when the manager is disabled,
 * the same lists read over JSON-2 with the service key (docs/architecture.md §3 db) — every language and country,
 * archived ones included, codes as legacy gives them (countries lowercase), sorted by name in
 * Python's code-point order.
 */
import type { CallOrigin } from '../call.ts';
import { pythonError } from '../errors.ts';
import type { Json2Call, ManagerPage, WebDatabaseClient } from '../upstream/index.ts';
import { isStruct, struct, type Value } from '../value.ts';

/** What the lists need. */
export interface DbOptionsDeps {
  web: WebDatabaseClient;
  json2: (call: Json2Call, origin: CallOrigin) => Promise<Value>;
  /** `--service-key` and `--service-db`: the fallback's credentials. */
  serviceKey: string | undefined;
  serviceDb: string | undefined;
}

/** The two lists. */
export interface DbOptions {
  /** `[[code, name], …]` of every language. */
  langs(origin: CallOrigin, page?: ManagerPage | null): Promise<Value>;
  /** `[[code, name], …]` of every country. `page`: the manager page if already fetched (`null`: not served). */
  countries(origin: CallOrigin, page?: ManagerPage | null): Promise<Value>;
}

/** Python's `sorted(key=itemgetter(1))`: stable, by code points. */
function byName(rows: [string, string][]): [string, string][] {
  const codePoints = (s: string) => Array.from(s, (c) => c.codePointAt(0) as number);
  return [...rows].sort((a, b) => {
    const x = codePoints(a[1]);
    const y = codePoints(b[1]);
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
    return x.length - y.length;
  });
}

/** Creates the lists. */
export function createDbOptions({ web, json2, serviceKey, serviceDb }: DbOptionsDeps): DbOptions {
  async function fromModel(model: string, origin: CallOrigin, code: (c: string) => string): Promise<Value> {
    if (serviceKey === undefined || serviceDb === undefined) {
      throw pythonError(
        'legacy_rpc_gateway.NotSupported',
        `the upstream's database manager page is disabled and no --service-key / --service-db is set to read ${model} instead`,
      );
    }
    const body = struct({ domain: [], fields: ['code', 'name'], context: struct({ active_test: false }) });
    const rows = await json2({ db: serviceDb, key: serviceKey, model, method: 'search_read', body }, origin);
    const pairs: [string, string][] = (Array.isArray(rows) ? rows : [])
      .filter(isStruct)
      .map((r) => [code(String(r.get('code'))), String(r.get('name'))]);
    return byName(pairs);
  }

  async function page(origin: CallOrigin, given: ManagerPage | null | undefined): Promise<ManagerPage | undefined> {
    return given === undefined ? await web.manager(origin) : (given ?? undefined);
  }

  return {
    async langs(origin, given) {
      const options = (await page(origin, given))?.langs;
      return options ?? fromModel('res.lang', origin, (c) => c);
    },
    async countries(origin, given) {
      const options = (await page(origin, given))?.countries;
      return options ?? fromModel('res.country', origin, (c) => c.toLowerCase());
    },
  };
}
