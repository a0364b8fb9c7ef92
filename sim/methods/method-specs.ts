/**
 * The method table a simulator serves: `_method-table.json` plus what every 19.0 build has but the
 * recorded table does not list (`ir.config_parameter.get_param`), and on the later build the public
 * `res.users.apikeys.generate` / `revoke` (Odoo: `res_users.py` `res.users.apikeys.generate` (later builds)). The earlier build answers 404
 * for them.
 */
import type { Persona } from '../persona.ts';
import { type MethodParam, type MethodSpec, sharedMethodSpecs } from '../seed.ts';

const required = (name: string): MethodParam => ({ name, kind: 'POSITIONAL_OR_KEYWORD', default: null });
const optional = (name: string, dflt: string): MethodParam => ({ name, kind: 'POSITIONAL_OR_KEYWORD', default: dflt });

/** Specs added on every build. */
const everyBuild: Record<string, Record<string, MethodSpec>> = {
  'ir.config_parameter': {
    get_param: {
      apiModel: true,
      qualname: 'IrConfigParameter.get_param',
      params: [required('key'), { name: 'default', kind: 'POSITIONAL_OR_KEYWORD', default: 'False' }],
    },
  },
};

/** Specs of the later 19.0 build (`@api.model`, four and one required parameters). */
const laterBuildOnly: Record<string, Record<string, MethodSpec>> = {
  'res.users.apikeys': {
    generate: { apiModel: true, qualname: 'ResUsersApikeys.generate', params: ['key', 'scope', 'name', 'expiration_date'].map(required) },
    revoke: { apiModel: true, qualname: 'ResUsersApikeys.revoke', params: [required('key')] },
  },
};

/** A copy of `seedMethods` with the additions of the chosen build (the seed's own maps are not mutated). */
export function methodTableFor(
  seedMethods: ReadonlyMap<string, ReadonlyMap<string, MethodSpec>>,
  laterBuild: boolean,
): Map<string, Map<string, MethodSpec>> {
  const table = new Map([...seedMethods].map(([model, specs]) => [model, new Map(specs)]));
  for (const additions of laterBuild ? [everyBuild, laterBuildOnly] : [everyBuild]) {
    for (const [model, specs] of Object.entries(additions)) {
      const target = table.get(model) ?? new Map<string, MethodSpec>();
      for (const [name, spec] of Object.entries(specs)) target.set(name, spec);
      table.set(model, target);
    }
  }
  return table;
}

/**
 * The table of a later Odoo that removed some public methods: each name is a method (`read_group`,
 * gone from every model) or `model.method`. A removed method is unknown to `get_public_method`, so
 * JSON-2 answers it 404 "The method 'model.method' does not exist", as for any unknown name.
 */
export function withoutMethods(
  table: Map<string, Map<string, MethodSpec>>,
  removed: readonly string[],
): Map<string, Map<string, MethodSpec>> {
  for (const name of removed) {
    const dot = name.lastIndexOf('.');
    if (dot === -1) for (const specs of table.values()) specs.delete(name);
    else table.get(name.slice(0, dot))?.delete(name.slice(dot + 1));
  }
  return table;
}

/**
 * 20.0's `read_group` (odoo/orm/models.py @00649da42372cf197edfbb2fa8ab437862e39be4): `@typing.final
 * @api.model def read_group(self, domain, groupby=(), aggregates=(), having=(), offset=0, limit=None,
 * order=None) -> list[tuple]`, `_read_group`'s parameters.
 */
export const tupleReadGroupSpec: MethodSpec = {
  apiModel: true,
  qualname: 'BaseModel.read_group',
  params: [
    required('domain'),
    optional('groupby', '()'),
    optional('aggregates', '()'),
    optional('having', '()'),
    optional('offset', '0'),
    optional('limit', 'None'),
    optional('order', 'None'),
  ],
};

/**
 * The table of a series (`sim/persona.ts`) before its removed methods are taken out: on 20.0 the
 * name `read_group` is the new method on every model that has it, `ir.access` exists with the
 * BaseModel methods, and the removed models are gone.
 */
export function personaMethodTable(table: Map<string, Map<string, MethodSpec>>, persona: Persona): Map<string, Map<string, MethodSpec>> {
  if (persona.irAccess) table.set('ir.access', sharedMethodSpecs());
  for (const model of persona.removedModels) table.delete(model);
  if (persona.readGroup === 'tuples')
    for (const specs of table.values()) if (specs.has('read_group')) specs.set('read_group', tupleReadGroupSpec);
  return table;
}
