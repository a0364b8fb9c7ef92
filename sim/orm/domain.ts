/**
 * Domain evaluation with Odoo 19 semantics: each condition is compiled once per search into a row
 * predicate. Negative operators are the exact complement of their positive one (so `!=` and
 * `not in` match empty values); `= False` matches NULL (and `''` on text fields); dotted paths and
 * `any` go through many2one/x2many; a many2one compared with text uses the comodel's name search.
 */
import type { Value } from '../../src/value.ts';
import { displayNameOf, parentFieldOf, recNameOf } from './database.ts';
import { conditionRepr, type DomainNode, parseDomain, positiveOf } from './domain-parse.ts';
import type { Env } from './env.ts';
import { notImplemented, valueError } from '../errors.ts';
import { scalarTest } from './domain-scalar.ts';
import { type FieldDef, isX2many, numberOf } from './fields.ts';
import type { ModelStore, Row } from './model.ts';
import { x2manyIds } from './relations.ts';
import { rulesFor } from '../rules/index.ts';

export type Predicate = (row: Row) => boolean;

const always: Predicate = () => true;
const never: Predicate = () => false;

/** Compiles a parsed domain against a model; unknown fields raise Odoo's ValueError. */
export function compileDomain(env: Env, model: ModelStore, node: DomainNode): Predicate {
  switch (node.kind) {
    case 'true':
      return always;
    case 'false':
      return never;
    case 'not': {
      const p = compileDomain(env, model, node.child);
      return (r) => !p(r);
    }
    case 'and': {
      const ps = node.children.map((c) => compileDomain(env, model, c));
      return (r) => ps.every((p) => p(r));
    }
    case 'or': {
      const ps = node.children.map((c) => compileDomain(env, model, c));
      return (r) => ps.some((p) => p(r));
    }
    case 'cond':
      return compileCondition(env, model, node.path, node.op, node.value);
  }
}

function compileCondition(env: Env, model: ModelStore, path: string, op: string, value: Value): Predicate {
  if (op === '=?') {
    if (value === null || value === false) return always;
    op = '=';
  }
  const positive = positiveOf[op];
  if (positive !== undefined) {
    const p = compileCondition(env, model, path, positive, value);
    return (r) => !p(r);
  }
  const dot = path.indexOf('.');
  const name = dot === -1 ? path : path.slice(0, dot);
  const field = model.field(name);
  if (field === undefined) {
    throw valueError(`Invalid field ${model.name}.${name} in condition ${conditionRepr(path, op, value)}`);
  }
  if (dot !== -1) return compilePath(env, model, field, path.slice(dot + 1), op, value);
  if (!field.searchable) throw valueError(`Non-stored field ${model.name}.${name} cannot be searched.`);
  if (name === 'display_name') return compileDisplayName(env, model, op, value);
  if (op === 'any' || op === 'any!') return compileAny(env, model, field, value);
  if (op === 'child_of' || op === 'parent_of') return compileHierarchy(env, model, field, op, value);
  if (field.type === 'many2one') return compileMany2one(env, model, field, op, value);
  if (isX2many(field)) return compileX2many(env, model, field, op, value);
  return compileScalar(env, model, field, op, value);
}

/** `comodel` of a relational field, when the simulator holds its records. */
function comodelOf(env: Env, model: ModelStore, field: FieldDef): ModelStore {
  const comodel = field.relation === undefined ? undefined : env.db.model(field.relation);
  if (comodel === undefined || !comodel.seeded) {
    throw notImplemented(`the Odoo simulator holds no records of ${field.relation} (${model.name}.${field.name})`);
  }
  return comodel;
}

/** Rows related through a relational field (x2many under the context's `active_test`). */
function related(env: Env, field: FieldDef, comodel: ModelStore, row: Row): Row[] {
  if (field.type === 'many2one') {
    const id = row.v[field.name];
    const co = typeof id === 'number' ? comodel.get(id) : undefined;
    return co === undefined ? [] : [co];
  }
  const out: Row[] = [];
  for (const id of x2manyIds(env.db, row, field, env.activeTest)) {
    const co = comodel.get(id);
    if (co !== undefined) out.push(co);
  }
  return out;
}

function compilePath(env: Env, model: ModelStore, field: FieldDef, rest: string, op: string, value: Value): Predicate {
  if (field.relation === undefined) {
    throw valueError(`Invalid field ${model.name}.${field.name}.${rest} in condition ${conditionRepr(`${field.name}.${rest}`, op, value)}`);
  }
  if (rest === 'id' && field.type === 'many2one') return compileMany2one(env, model, field, op, value);
  const comodel = comodelOf(env, model, field);
  const sub = compileCondition(env, comodel, rest, op, value);
  return (r) => related(env, field, comodel, r).some(sub);
}

function compileAny(env: Env, model: ModelStore, field: FieldDef, value: Value): Predicate {
  const comodel = comodelOf(env, model, field);
  const sub = compileDomain(env, comodel, parseDomain(value));
  return (r) => related(env, field, comodel, r).some(sub);
}

/** `_search_display_name`: the condition on each `_rec_names_search` field, OR-ed. */
function compileDisplayName(env: Env, model: ModelStore, op: string, value: Value): Predicate {
  const rules = rulesFor(model.name);
  const recName = recNameOf(env.db, model);
  const names = (rules.recNamesSearch ?? (recName === undefined ? [] : [recName])).filter((n) =>
    model.fields.has(n.split('.')[0] as string),
  );
  if (names.length === 0) {
    const test = scalarTest('char', op, value);
    return (r) => test(displayNameOf(env.db, model, r));
  }
  const ps = names.map((n) => compileCondition(env, model, n, op, value));
  return (r) => ps.some((p) => p(r));
}

/** Ids of `comodel` records whose display name matches (a name search, archived records included). */
function nameSearchIds(env: Env, comodel: ModelStore, op: string, value: Value): Set<number> {
  const p = compileDisplayName(env, comodel, op, value);
  const ids = new Set<number>();
  for (const row of comodel.rows.values()) if (p(row)) ids.add(row.id);
  return ids;
}

const isIdLike = (v: Value): boolean => v === false || v === null || numberOf(v) !== undefined;

function idSet(values: Value[]): { ids: Set<number>; withEmpty: boolean } {
  const ids = new Set<number>();
  let withEmpty = false;
  for (const v of values) {
    const n = numberOf(v);
    if (n !== undefined) ids.add(n);
    else if (v === false || v === null) withEmpty = true;
  }
  return { ids, withEmpty };
}

const asList = (v: Value): Value[] => (Array.isArray(v) ? v : [v]);

function compileMany2one(env: Env, model: ModelStore, field: FieldDef, op: string, value: Value): Predicate {
  const get = (r: Row): number | null => {
    const id = r.v[field.name];
    return typeof id === 'number' ? id : null;
  };
  const values = op === 'in' ? asList(value) : [value];
  if (!values.every(isIdLike)) {
    // A many2one compared with text matches on the comodel's display name.
    const comodel = comodelOf(env, model, field);
    const ids = new Set<number>();
    for (const v of values) for (const id of nameSearchIds(env, comodel, op === 'in' ? '=' : op, v)) ids.add(id);
    return (r) => {
      const id = get(r);
      return id !== null && ids.has(id);
    };
  }
  if (op === '=' || op === 'in') {
    const { ids, withEmpty } = idSet(values);
    return (r) => {
      const id = get(r);
      return id === null ? withEmpty : ids.has(id);
    };
  }
  const test = scalarTest('integer', op, value);
  return (r) => {
    const id = get(r);
    return id !== null && test(id);
  };
}

function compileX2many(env: Env, model: ModelStore, field: FieldDef, op: string, value: Value): Predicate {
  const comodel = comodelOf(env, model, field);
  const ids = (r: Row) => related(env, field, comodel, r).map((c) => c.id);
  const values = op === 'in' ? asList(value) : [value];
  if ((op === '=' || op === 'in') && values.every(isIdLike)) {
    const set = idSet(values);
    return (r) => {
      const linked = ids(r);
      return linked.length === 0 ? set.withEmpty : linked.some((id) => set.ids.has(id));
    };
  }
  if (values.every(isIdLike)) {
    const test = scalarTest('integer', op, value);
    return (r) => ids(r).some(test);
  }
  const matching = new Set<number>();
  for (const v of values) for (const id of nameSearchIds(env, comodel, op === 'in' ? '=' : op, v)) matching.add(id);
  return (r) => ids(r).some((id) => matching.has(id));
}

function hierarchyIds(env: Env, target: ModelStore, op: string, value: Value): Set<number> {
  const start = new Set<number>();
  for (const v of asList(value)) {
    const n = numberOf(v);
    if (n !== undefined) start.add(n);
    else if (typeof v === 'string') for (const id of nameSearchIds(env, target, 'ilike', v)) start.add(id);
  }
  const parent = parentFieldOf(env.db, target);
  if (parent === undefined) return start;
  const out = new Set<number>();
  const queue = [...start];
  while (queue.length > 0) {
    const id = queue.pop() as number;
    if (out.has(id) || !target.rows.has(id)) continue;
    out.add(id);
    if (op === 'child_of') queue.push(...env.db.childrenOf(target, parent.name, id));
    else {
      const up = target.get(id)?.v[parent.name];
      if (typeof up === 'number') queue.push(up);
    }
  }
  return out;
}

function compileHierarchy(env: Env, model: ModelStore, field: FieldDef, op: string, value: Value): Predicate {
  if (field.name === 'id') {
    const ids = hierarchyIds(env, model, op, value);
    return (r) => ids.has(r.id);
  }
  const comodel = comodelOf(env, model, field);
  const ids = hierarchyIds(env, comodel, op, value);
  return (r) => related(env, field, comodel, r).some((c) => ids.has(c.id));
}

function compileScalar(env: Env, model: ModelStore, field: FieldDef, op: string, value: Value): Predicate {
  const computed = rulesFor(model.name).computed?.[field.name];
  const test = scalarTest(field.type, op, value);
  if (field.name === 'id') return (r) => test(r.id);
  if (computed !== undefined) return (r) => test(computed(env.db, r));
  return (r) => test(r.v[field.name]);
}
