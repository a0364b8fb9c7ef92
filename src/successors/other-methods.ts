/**
 * The deprecated 19.0 methods whose successors answer them exactly: `toggle_active` (19.0's own
 * body: `action_archive` on the active records, `action_unarchive` on the others), `ir.http`'s
 * `get_currencies` (its body is `res.currency.get_all_currencies()`), `check_access_rights`
 * (`has_access` on no records; with `raise_exception`, an allowed operation answers None),
 * `check_access_rule` (`has_access` on the records; a refused read raises through `read`) and
 * `check_field_access_rights` (`fields_get`'s field names; named fields checked by `read` on no
 * records, which runs the same field check).
 */
import { LegacyError, pythonError } from '../errors.ts';
import { reprValue } from '../python/py-repr.ts';
import { isStruct, isTruthy, markNonStringNames, type Struct, type Value } from '../value.ts';
import type { FieldInfo } from './read-group.ts';
import { cannotTranslate } from './untranslatable.ts';

export interface MethodDeps {
  ask(model: string, method: string, body: Struct): Promise<Value>;
  /** The same with the database's `--service-key` (undefined without one). */
  askAsService?: (model: string, method: string, body: Struct) => Promise<Value>;
  fields(model: string): Promise<Map<string, FieldInfo>>;
}

function contextOf(args: Struct): Struct {
  const context = args.get('context');
  return context !== undefined && isStruct(context) ? new Map<string, Value>([['context', context]]) : new Map();
}

export async function toggleActiveThroughSuccessor(model: string, args: Struct, deps: MethodDeps): Promise<Value> {
  const fields = await deps.fields(model);
  // BaseModel._active_name
  const activeName = fields.has('active') ? 'active' : fields.has('x_active') ? 'x_active' : undefined;
  if (activeName === undefined) throw pythonError('AssertionError', `No 'active' field on model ${model}`);
  const ids = args.get('ids') ?? [];
  if (!Array.isArray(ids)) throw cannotTranslate(model, 'toggle_active', 'action_archive', 'ids that are not a list');
  const context = contextOf(args);
  const rows =
    ids.length === 0 ? [] : await deps.ask(model, 'read', new Map<string, Value>([...context, ['ids', ids], ['fields', [activeName]]]));
  if (!Array.isArray(rows)) throw cannotTranslate(model, 'toggle_active', 'action_archive', 'a read answer that is not a list');
  const active = new Set<Value>();
  const found = new Set<Value>();
  for (const row of rows) {
    if (!isStruct(row)) continue;
    found.add(row.get('id') ?? null);
    if (isTruthy(row.get(activeName) ?? false)) active.add(row.get('id') ?? null);
  }
  // `filtered` reads each record in turn and stops at the first missing one with Odoo's
  // MissingError; action_archive reads it the same way (and so changes nothing)
  const missing = ids.find((id) => !found.has(id));
  if (missing !== undefined) {
    await deps.ask(model, 'action_archive', new Map<string, Value>([...context, ['ids', [missing]]]));
    throw cannotTranslate(model, 'toggle_active', 'action_archive', `record ${reprValue(missing)} was not read, yet exists`);
  }
  const activeIds = ids.filter((id) => active.has(id));
  const inactiveIds = ids.filter((id) => !active.has(id));
  await deps.ask(model, 'action_archive', new Map<string, Value>([...context, ['ids', activeIds]]));
  await deps.ask(model, 'action_unarchive', new Map<string, Value>([...context, ['ids', inactiveIds]]));
  return null;
}

export async function getCurrenciesThroughSuccessor(_model: string, args: Struct, deps: MethodDeps): Promise<Value> {
  const currencies = await deps.ask('res.currency', 'get_all_currencies', contextOf(args));
  // keyed by currency id (int) in Odoo: XML-RPC cannot write it, JSON writes the ids as text
  if (isStruct(currencies)) markNonStringNames(currencies);
  return currencies;
}

export async function checkAccessRightsThroughSuccessor(model: string, args: Struct, deps: MethodDeps): Promise<Value> {
  const operation = args.get('operation') ?? null;
  const raise = isTruthy(args.has('raise_exception') ? (args.get('raise_exception') as Value) : true);
  const allowed = await deps.ask(model, 'has_access', new Map<string, Value>([...contextOf(args), ['operation', operation]]));
  if (!raise) return allowed;
  if (allowed === true) return null;
  // a search checks the same model-level access first, and raises Odoo's own AccessError
  if (operation === 'read') {
    await deps.ask(model, 'search', new Map<string, Value>([...contextOf(args), ['domain', [[0, '=', 1]]]]));
  }
  throw cannotTranslate(
    model,
    'check_access_rights',
    'has_access',
    'an operation the user may not do, with raise_exception (only Odoo composes the AccessError text)',
  );
}

/**
 * `check_access_rule(operation)` is `self.check_access(operation)` (19.0 odoo/orm/models.py), and
 * `has_access(operation)` is `not self._check_access(operation)`: the same check, a boolean instead
 * of the exception. Allowed: None. Refused: the exception only Odoo composes. For `read`, `read` of
 * `id` on the records raises it (its `fetch` calls `check_access('read')` on them first), and
 * `search` on no records the model-level one; other operations have no call that raises it without
 * writing. A record rule's error reads the records, and for one that does not exist raises a
 * MissingError where `read` would retry without it: that case needs proof that every record exists.
 */
export async function checkAccessRuleThroughSuccessor(model: string, args: Struct, deps: MethodDeps): Promise<Value> {
  const refuse = (what: string) => cannotTranslate(model, 'check_access_rule', 'has_access', what);
  const operation = args.get('operation') ?? null;
  const ids = args.get('ids') ?? [];
  if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'number' && Number.isInteger(id)))
    throw refuse('ids that are not a list of integers');
  const context = contextOf(args);
  const hasAccess = (on: Value[]) =>
    deps.ask(model, 'has_access', new Map<string, Value>([...context, ['ids', on], ['operation', operation]]));
  const allowed = await hasAccess(ids);
  if (allowed === true) return null;
  if (allowed !== false) throw refuse('a has_access answer that is not a boolean');
  if (operation !== 'read')
    throw refuse(
      `records the user may not ${String(operation)} (only Odoo composes that AccessError, and no call raises it without writing)`,
    );
  if (ids.length === 0) {
    await deps.ask(model, 'search', new Map<string, Value>([...context, ['domain', [[0, '=', 1]]]]));
    throw refuse('a refused read that search did not refuse');
  }
  if ((await hasAccess([])) === true) {
    // refused by a record rule: read() gives Odoo's own error only when every record exists
    const distinct = [...new Set(ids)];
    const found =
      deps.askAsService === undefined
        ? undefined
        : await deps.askAsService(
            model,
            'search_count',
            new Map<string, Value>([
              ['domain', [['id', 'in', distinct]]],
              ['context', new Map<string, Value>([['active_test', false]])],
            ]),
          );
    if (found !== distinct.length)
      throw refuse(
        'records a record rule refuses, not all shown to exist (Odoo raises a MissingError for a missing one; a --service-key that sees them all proves they exist)',
      );
  }
  await deps.ask(model, 'read', new Map<string, Value>([...context, ['ids', ids], ['fields', ['id']]]));
  throw refuse('a read that has_access refused and read allowed');
}

/** 19.0 models whose `fields_get` adds fields `_has_field_access` refuses (res.users: the ones a user may read on their own record). */
const fieldsGetAddsFields = new Set(['res.users']);
/** 19.0 `_has_field_access` overrides that depend on the operation (project.task, for portal users). */
const fieldAccessByOperation = new Set(['project.task']);
/** 19.0 `check_field_access_rights` overrides that drop these names from the list when no names are given. */
const droppedFromFieldList: Record<string, readonly string[]> = {
  'account.move': ['needed_terms', 'quick_encoding_vals', 'payment_term_details'],
  'account.move.line': ['term_key', 'epd_key', 'epd_needed', 'discount_allocation_key', 'discount_allocation_needed'],
};

/**
 * `check_field_access_rights(operation, field_names)` (19.0 odoo/orm/models.py): without names, the
 * fields `_has_field_access` allows, in `_fields` order: `fields_get`'s keys (it filters with the
 * same check, for `read`; base `_has_field_access` ignores the operation). With names, each known
 * one through `_check_field_access(field, operation)`, unknown ones skipped, and the names returned
 * as given: `read(fields)` on no records runs `_check_field_access(field, 'read')` on each name in
 * turn (`_determine_fields_to_fetch`), raising a ValueError for an unknown one, which is dropped
 * and the rest checked again.
 */
export async function checkFieldAccessRightsThroughSuccessor(model: string, args: Struct, deps: MethodDeps): Promise<Value> {
  const operation = args.get('operation') ?? null;
  const names = args.get('field_names') ?? null;
  const context = contextOf(args);
  const refuse = (successor: string, what: string) => cannotTranslate(model, 'check_field_access_rights', successor, what);
  const byOperation = operation !== 'read' && fieldAccessByOperation.has(model);
  if (!isTruthy(names)) {
    if (fieldsGetAddsFields.has(model)) throw refuse('fields_get', `no field names on ${model}, whose fields_get adds fields`);
    if (byOperation) throw refuse('fields_get', `operation ${reprValue(operation)} on ${model}, whose field access depends on it`);
    const described = await deps.ask(model, 'fields_get', new Map<string, Value>([...context, ['attributes', ['type']]]));
    if (!isStruct(described)) throw refuse('fields_get', 'a fields_get answer that is not a dict');
    const dropped = droppedFromFieldList[model] ?? [];
    return [...described.keys()].filter((name) => !dropped.includes(name));
  }
  if (!Array.isArray(names) || !names.every((n) => typeof n === 'string'))
    throw refuse('read', 'field names that are not a list of strings');
  if (byOperation) throw refuse('read', `operation ${reprValue(operation)} on ${model}, whose field access depends on it`);
  let rest = names;
  while (rest.length > 0) {
    try {
      await deps.ask(model, 'read', new Map<string, Value>([...context, ['ids', []], ['fields', rest]]));
      break;
    } catch (err) {
      if (!(err instanceof LegacyError)) throw err;
      const unknown =
        err.name === 'builtins.ValueError'
          ? rest.findIndex((n) => err.message === `Invalid field ${reprValue(n)} on ${reprValue(model)}`)
          : -1;
      if (unknown !== -1) {
        const name = rest[unknown];
        rest = rest.slice(unknown + 1).filter((n) => n !== name);
        continue;
      }
      if (err.name === 'odoo.exceptions.AccessError' && operation !== 'read')
        throw refuse(
          'read',
          `a field the user may not access, for operation ${reprValue(operation)} (only Odoo composes that AccessError)`,
        );
      throw err;
    }
  }
  return names;
}
