/**
 * Bounded metric labels. Services, service methods and model methods are whatever a client sends,
 * so each label takes its value from a fixed set, anything else becoming `other`: a client looping
 * over random method names cannot grow the number of series.
 */
import { legacySurface } from '../legacy/surface.ts';

/** The value every unknown service, method or route becomes. */
export const otherLabel = 'other';

/** Odoo 19's legacy methods by service (`legacy/surface.ts`): `common`, `db`, and `object`'s two. */
const serviceMethods: Readonly<Record<string, ReadonlySet<string>>> = Object.fromEntries(
  (['common', 'db', 'object'] as const).map((service) => [
    service,
    new Set(legacySurface.filter((f) => f.service === service).map((f) => f.method)),
  ]),
);

/** The ORM methods legacy integrations call most (`odoo/orm/models.py`, `odoo/addons/web/models/models.py`). */
const modelMethods: ReadonlySet<string> = new Set([
  'search',
  'search_read',
  'search_count',
  'read',
  'create',
  'write',
  'unlink',
  'copy',
  'fields_get',
  'default_get',
  'name_search',
  'name_create',
  'name_get',
  'display_name',
  'read_group',
  'formatted_read_group',
  'web_search_read',
  'web_read',
  'web_read_group',
  'web_save',
  'search_fetch',
  'fetch',
  'exists',
  'ensure_one',
  'browse',
  'onchange',
  'check_access_rights',
  'check_access_rule',
  'check_access',
  'has_access',
  'action_archive',
  'action_unarchive',
  'toggle_active',
  'load',
  'export_data',
  'get_metadata',
  'message_post',
  'get_views',
  'context_get',
]);

/** `common`, `db` or `object`; any other service name is `other`. */
export function serviceLabel(service: string): string {
  return Object.hasOwn(serviceMethods, service) ? service : otherLabel;
}

/**
 * The method label: for `object` calls the model method (`search_read`) when it is a known ORM
 * method, for `common` and `db` the service method when Odoo has it; `other` otherwise.
 */
export function methodLabel(service: string, method: string, modelMethod: string | undefined): string {
  if (service === 'object') return modelMethod !== undefined && modelMethods.has(modelMethod) ? modelMethod : otherLabel;
  const known = Object.hasOwn(serviceMethods, service) ? serviceMethods[service] : undefined;
  return known?.has(method) ? method : otherLabel;
}

/** The upstream routes the gateway calls, by path prefix. */
const upstreamRoutes: ReadonlyArray<readonly [prefix: string, label: string]> = [
  ['/json/2/', 'json2'],
  ['/web/session/', 'web_session'],
  ['/web/dataset/call_kw', 'call_kw'],
  ['/web/database/', 'web_database'],
  ['/web/webclient/version_info', 'version'],
  ['/web/version', 'version'],
  ['/web/health', 'health'],
  ['/doc-bearer/', 'doc_bearer'],
];

/** The route label of an upstream request path (`/json/2/res.partner/read` → `json2`). */
export function upstreamRouteLabel(path: string): string {
  for (const [prefix, label] of upstreamRoutes) if (path.startsWith(prefix)) return label;
  return otherLabel;
}

/** `2xx`…`5xx` for an HTTP status, `error` when no answer arrived. */
export function statusClassLabel(status: number | undefined): string {
  return status === undefined ? 'error' : `${Math.floor(status / 100)}xx`;
}
