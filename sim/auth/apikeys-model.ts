/**
 * `res.users.apikeys` as a view of the simulator's key store: its fields (as Odoo 19 declares them)
 * and rows refreshed from the store before a call reads them. The secret itself is never a field.
 */
import type { Value } from '../../src/value.ts';
import type { Database } from '../orm/database.ts';
import { fieldAttrs, type FieldDef, fieldFromAttrs } from '../orm/fields.ts';
import type { KeyStore } from './key-store.ts';

/** Every field of the model is read-only (the key store writes them). */
const attrs = (type: string, string: string, extra: Record<string, Value> = {}) => fieldAttrs(type, string, { readonly: true, ...extra });

/** The fields of `res.users.apikeys` (odoo/addons/base/models/res_users.py `APIKeys`). */
export function apiKeyFields(): Map<string, FieldDef> {
  const defs: [string, Map<string, Value>][] = [
    ['id', attrs('integer', 'ID')],
    ['name', attrs('char', 'Description', { required: true })],
    ['user_id', attrs('many2one', 'User', { relation: 'res.users', required: true })],
    ['scope', attrs('char', 'Scope')],
    ['expiration_date', attrs('datetime', 'Expiration Date')],
    ['create_date', attrs('datetime', 'Creation Date')],
  ];
  return new Map(defs.map(([name, a]) => [name, fieldFromAttrs(name, a)]));
}

/** Replaces the rows of `res.users.apikeys` with the key store's records. */
export function syncApiKeys(db: Database, keys: KeyStore): void {
  const model = db.model('res.users.apikeys');
  if (model === undefined) return;
  model.rows.clear();
  for (const k of keys.list(db.name)) {
    model.insert({
      id: k.id,
      v: {
        name: k.name,
        user_id: k.uid,
        scope: k.scope ?? false,
        expiration_date: k.expiration ?? false,
        create_date: k.createDate,
      },
      extra: {},
    });
  }
  db.bump();
}
