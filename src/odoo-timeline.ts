/**
 * What Odoo removed or changed after 19.0 that a legacy client meets, dated by the series that did
 * it, with the source of each fact (docs/odoo-versions.md). Plain data and the series order: the
 * signatures layer reads it to know which methods no longer mean on an upstream what they meant on
 * 19.0, the migration report to date its verdicts.
 *
 * Odoo ships twice: on-premise majors (`20.0`, fall 2026) and Odoo Online's `saas-X.Y` series in
 * between; a change lands in an Online series first and in the next major. Each entry gives both.
 */

/** A series as Odoo names it: `19.0`, `20.0`, `saas-19.1`, `saas~19.1`. */
export type SeriesName = string;

/** When a change reaches each kind of Odoo. */
export interface Removal {
  /** The on-premise major that no longer has it. */
  onPremise: string;
  /** The first Odoo Online series without it; undefined when no source dates it. */
  online?: string;
  /** Where the fact comes from (a pull request, Odoo's documentation). */
  source: string;
}

/** A legacy service a later Odoo no longer serves over `/xmlrpc`, `/xmlrpc/2` and `/jsonrpc`. */
export const removedServices: Readonly<Record<string, Removal>> = {
  db: {
    onPremise: '20.0',
    online: 'saas-19.1',
    source: 'odoo/odoo#238399; Odoo docs external_rpc_api.rst: "removed in Odoo 20 (fall 2026) and Online 19.1"',
  },
  common: {
    onPremise: '22.0',
    online: 'saas-21.1',
    source: 'odoo/odoo#252721; Odoo docs: "scheduled for removal in Odoo 22 (fall 2028) and Online 21.1"',
  },
  object: {
    onPremise: '22.0',
    online: 'saas-21.1',
    source: 'odoo/odoo#252721; Odoo docs: "scheduled for removal in Odoo 22 (fall 2028) and Online 21.1"',
  },
};

/** A public method 19.0 has that a later series removed, or kept under its name with another meaning. */
export interface MethodChange extends Removal {
  /** Only this model has it (undefined: every model, a BaseModel method). */
  model?: string;
  /** `removed`: the name is gone; `redefined`: the name is back with other parameters and answers. */
  kind: 'removed' | 'redefined';
  /** What a client calls instead over JSON-2. */
  replacement: string;
  /** From which series the name means something else (for `redefined`), when that differs from its removal. */
  redefinedIn?: string;
}

/** The BaseModel methods of 19.0 that saas-19.1 / 20.0 removed or redefined (docs/successors.md). */
export const changedMethods: Readonly<Record<string, MethodChange>> = {
  read_group: {
    kind: 'redefined',
    onPremise: '20.0',
    online: 'saas-19.1',
    redefinedIn: '20.0',
    replacement: 'formatted_read_group',
    source:
      'odoo/odoo#226523 "[REM] core: remove old read_group API" (saas-19.1); 20.0 defines read_group(domain, groupby, aggregates, having, offset, limit, order) answering tuples',
  },
  toggle_active: {
    kind: 'removed',
    onPremise: '20.0',
    online: 'saas-19.1',
    replacement: 'action_archive / action_unarchive',
    source: 'odoo/odoo#226559 (19.1)',
  },
  check_access_rights: {
    kind: 'removed',
    onPremise: '20.0',
    online: 'saas-19.1',
    replacement: 'has_access',
    source: 'odoo/odoo#226551 "[REM] orm: old check access methods" (19.1)',
  },
  check_access_rule: {
    kind: 'removed',
    onPremise: '20.0',
    online: 'saas-19.1',
    replacement: 'has_access',
    source: 'odoo/odoo#226551 "[REM] orm: old check access methods" (19.1)',
  },
  check_field_access_rights: {
    kind: 'removed',
    onPremise: '20.0',
    online: 'saas-19.1',
    replacement: 'fields_get / has_field_access',
    source: 'odoo/odoo#226551 "[REM] orm: old check access methods" (19.1)',
  },
  copy_translations: {
    kind: 'removed',
    onPremise: '20.0',
    online: 'saas-19.1',
    replacement: 'copy',
    source: 'odoo/odoo#226551 (19.1); a 19→20 delta note against a 20.0 checkout',
  },
};

/** A model 19.0 has that a later series removed. */
export interface ModelChange extends Removal {
  /** The model that holds its records from then on. */
  replacement: string;
}

/** Models legacy clients read or write that 20.0 no longer has. */
export const removedModels: Readonly<Record<string, ModelChange>> = {
  'ir.model.access': {
    onPremise: '20.0',
    replacement: 'ir.access',
    source: 'a 19→20 delta note written against a 20.0 checkout: ir.model.access and ir.rule became one model, ir.access',
  },
  'ir.rule': {
    onPremise: '20.0',
    replacement: 'ir.access',
    source: 'a 19→20 delta note written against a 20.0 checkout: ir.model.access and ir.rule became one model, ir.access',
  },
};

/** The change a later series made to `model.method`, or undefined. */
export function methodChangeOf(model: string, method: string): MethodChange | undefined {
  const change = Object.hasOwn(changedMethods, method) ? changedMethods[method] : undefined;
  return change !== undefined && (change.model === undefined || change.model === model) ? change : undefined;
}

/** `[major, minor, online]` of a series name; undefined when it is not one. */
export function parseSeries(name: SeriesName): [number, number, boolean] | undefined {
  const m = /^(saas[~-])?(\d+)\.(\d+)$/.exec(name.trim());
  if (m === null) return undefined;
  return [Number(m[2]), Number(m[3]), m[1] !== undefined];
}

/**
 * Odoo's release order: `19.0 < saas-19.1 < … < saas-19.4 < 20.0`. Negative, zero or positive as
 * `a` comes before, with or after `b`; undefined when either is not a series.
 */
export function compareSeries(a: SeriesName, b: SeriesName): number | undefined {
  const x = parseSeries(a);
  const y = parseSeries(b);
  if (x === undefined || y === undefined) return undefined;
  return x[0] - y[0] || x[1] - y[1];
}

/** True when `series` already has the change: it comes at or after the first series that made it. */
export function seriesHas(series: SeriesName, removal: Removal): boolean {
  const order = compareSeries(series, removal.online ?? removal.onPremise);
  return order !== undefined && order >= 0;
}

/** "Odoo 20.0 and Online saas-19.1", as a fault or the report names the series that removed something. */
export function removalText(removal: Removal): string {
  return removal.online === undefined ? `Odoo ${removal.onPremise}` : `Odoo ${removal.onPremise} and Online ${removal.online}`;
}
