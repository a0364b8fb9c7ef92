/**
 * The deprecated 19.0 methods whose successors answer them exactly: `toggle_active` (19.0's own
 * body: `action_archive` on the active records, `action_unarchive` on the others), `ir.http`'s
 * `get_currencies` (its body is `res.currency.get_all_currencies()`), and `check_access_rights`
 * (`has_access` on no records; with `raise_exception`, an allowed operation answers None).
 */
import { pythonError } from '../errors.ts';
import { reprValue } from '../python/py-repr.ts';
import { isStruct, isTruthy, markNonStringNames, type Struct, type Value } from '../value.ts';
import type { FieldInfo } from './read-group.ts';
import { cannotTranslate } from './untranslatable.ts';

export interface MethodDeps {
  ask(model: string, method: string, body: Struct): Promise<Value>;
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
