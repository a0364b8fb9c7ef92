/**
 * The OCA module `rpc_helper`'s refusals, learned through JSON-2 (docs/security.md "RPC policy
 * modules"). The module (OCA/server-tools) patches `odoo.service.model.execute_cr`, the legacy
 * `object` service alone: between the model look-up and `call_kw`, a model whose
 * `ir.model.rpc_config_edit` disables the method (or `"all"`) raises
 * `UserError("RPC call on <model> is not allowed")`. JSON-2 never runs `execute_cr`, so without this
 * check a call the module refuses natively would run through the gateway.
 *
 * What the gateway reads, per database, with the service key (ir.module.module and ir.model are
 * readable by administrators only): whether `rpc_helper` is installed, then the models whose
 * `rpc_config_edit` is set. Kept `policyTtlMs`, so a change in Odoo applies within seconds; one read
 * at a time per database. Without a service key for the database the policy cannot be known and is
 * not applied; with one that may not read those models neither (logged once per database).
 */
import { callDatabase, type CallOrigin } from '../call.ts';
import { LegacyError, pythonError, userError } from '../errors.ts';
import { parseJson } from '../json/index.ts';
import type { Logger } from '../log.ts';
import type { Upstream } from '../upstream/index.ts';
import { isInt, isStruct, PyFloat, type Value } from '../value.ts';

/** How long a database's policy is reused, in ms: a change made in Odoo applies within this. */
export const policyTtlMs = 5_000;
/** Databases remembered at most (the service key may be a bare key valid for any database name). */
const maxDatabases = 1_000;
/** Module states in which its Python code is loaded, so its post_load patch runs. */
const loadedStates = ['installed', 'to upgrade', 'to remove'];

export interface RpcPolicy {
  /**
   * The fault the upstream's legacy `object` service raises for this call (its model and method, in
   * its database: {@link callDatabase}) before running it, or undefined.
   */
  refusal(model: string, method: Value, origin: CallOrigin): Promise<LegacyError | undefined>;
}

export interface RpcPolicyOptions {
  upstream: Upstream;
  serviceKeyFor: (db: string) => string | undefined;
  log: Pick<Logger, 'warn'>;
  now?: () => number;
}

/** A database's policy: each model's `disable` value (as rpc_helper's `.get("disable")` reads it). */
interface Learned {
  at: number;
  disabled: Map<string, Value>;
}

export function createRpcPolicy(options: RpcPolicyOptions): RpcPolicy {
  const { upstream, serviceKeyFor, log } = options;
  const now = options.now ?? Date.now;
  const learned = new Map<string, Learned>();
  const reading = new Map<string, Promise<Learned | undefined>>();
  const warned = new Set<string>();

  const cannotKnow = (db: string, why: string) => {
    if (warned.size < maxDatabases && !warned.has(db)) {
      warned.add(db);
      log.warn({ db }, `RPC policy modules (rpc_helper) are not applied in this database: ${why}`);
    }
  };

  /** Learns the policy of the call's database with its service key. */
  async function read(key: string, origin: CallOrigin): Promise<Learned | undefined> {
    const db = callDatabase(origin);
    const searchRead = (model: string, domain: Value[], fields: string[]) =>
      upstream.json2(
        {
          db,
          key,
          model,
          method: 'search_read',
          body: new Map<string, Value>([
            ['domain', domain],
            ['fields', fields],
          ]),
        },
        origin,
      );
    let disabled = new Map<string, Value>();
    try {
      const modules = await searchRead(
        'ir.module.module',
        [
          ['name', '=', 'rpc_helper'],
          ['state', 'in', loadedStates],
        ],
        ['state'],
      );
      if (Array.isArray(modules) && modules.length > 0)
        disabled = configsOf(await searchRead('ir.model', [['rpc_config_edit', '!=', false]], ['model', 'rpc_config_edit']));
    } catch (err) {
      if (!(err instanceof LegacyError)) throw err;
      // an Odoo without the model lists no module; a key that may not read them cannot learn anything
      if (err.name === 'werkzeug.exceptions.NotFound' && /^the model '.*' does not exist$/s.test(err.message)) disabled = new Map();
      else if (err.name === 'odoo.exceptions.AccessError') {
        cannotKnow(db, 'the service key may not read ir.module.module and ir.model (use a key of an administrator)');
        disabled = new Map();
      } else throw err;
    }
    const entry = { at: now(), disabled };
    if (learned.size >= maxDatabases) learned.clear();
    learned.set(db, entry);
    return entry;
  }

  async function policyOf(origin: CallOrigin): Promise<Learned | undefined> {
    const db = callDatabase(origin);
    const hit = learned.get(db);
    if (hit !== undefined && now() - hit.at < policyTtlMs) return hit;
    const key = serviceKeyFor(db);
    // not logged: most databases have no such module, and a gateway without service keys would warn for each
    if (key === undefined) return undefined;
    let pending = reading.get(db);
    if (pending === undefined) {
      pending = read(key, origin).finally(() => reading.delete(db));
      reading.set(db, pending);
    }
    return pending;
  }

  return {
    async refusal(model, method, origin) {
      const policy = await policyOf(origin);
      const disable = policy?.disabled.get(model);
      if (disable === undefined || disable === null) return undefined;
      return contains(disable, 'all') || contains(disable, method) ? userError(`RPC call on ${model} is not allowed`) : undefined;
    },
  };
}

/** `{model: config.get("disable")}` from `ir.model` rows, for the models whose JSON names one. */
function configsOf(rows: Value): Map<string, Value> {
  const out = new Map<string, Value>();
  if (!Array.isArray(rows)) return out;
  for (const row of rows) {
    if (!isStruct(row)) continue;
    const model = row.get('model');
    const text = row.get('rpc_config_edit');
    if (typeof model !== 'string' || typeof text !== 'string' || text === '') continue;
    let config: Value;
    try {
      config = parseJson(text);
    } catch {
      continue; // the module's inverse stores only what json.loads read
    }
    const disable = isStruct(config) ? config.get('disable') : undefined;
    if (disable !== undefined && disable !== null) out.set(model, disable);
  }
  return out;
}

/** Python's `item in container` for what JSON gives: a list's items, a str's substrings, a dict's keys. */
function contains(container: Value, item: Value): boolean {
  if (Array.isArray(container)) return typeof item === 'string' && container.includes(item);
  if (typeof container === 'string') return typeof item === 'string' && container.includes(item);
  if (isStruct(container)) return typeof item === 'string' && container.has(item);
  const type = typeof container === 'boolean' ? 'bool' : isInt(container) ? 'int' : container instanceof PyFloat ? 'float' : 'object';
  throw pythonError('TypeError', `argument of type '${type}' is not iterable`);
}
