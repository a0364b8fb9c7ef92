/**
 * The environment of one call, as Odoo's `env`: database, user, context (JSON-2 replaces it; it starts
 * empty, Odoo: `addons/rpc/controllers/json2.py`), the call's clock and its transaction.
 */
import { isTruthy, type Struct, type Value } from '../../src/value.ts';
import { formatDatetime } from '../clock.ts';
import type { Database } from './database.ts';
import type { Row } from './model.ts';
import type { SimRequestState } from '../auth/request-state.ts';
import type { Transaction } from './transaction.ts';

/** Odoo's superuser (`__system__`), which bypasses access rights. */
export const superuserId = 1;

export class Env {
  constructor(
    readonly db: Database,
    readonly uid: number,
    readonly context: Struct,
    readonly now: Date,
    readonly tx: Transaction,
    /** Odoo's `request`: absent outside HTTP (then `@check_identity` refuses). */
    readonly request?: SimRequestState,
  ) {}

  /** `context.get('active_test', True)`, by Python truthiness. */
  get activeTest(): boolean {
    const v = this.context.get('active_test');
    return v === undefined ? true : isTruthy(v);
  }

  /** `fields.Datetime.now()` as Odoo stores it. */
  get nowText(): string {
    return formatDatetime(this.now);
  }

  /** The same call with another context (`with_context`, which replaces it). */
  withContext(context: Struct): Env {
    return new Env(this.db, this.uid, context, this.now, this.tx, this.request);
  }

  /** The same call with one context key changed or removed (`undefined`). */
  withContextKey(key: string, value: Value | undefined): Env {
    const ctx = new Map(this.context);
    if (value === undefined) ctx.delete(key);
    else ctx.set(key, value);
    return this.withContext(ctx);
  }

  /** The `res.users` row of the caller. */
  user(): Row | undefined {
    return this.db.model('res.users')?.get(this.uid);
  }

  /** The `res.users` row of the caller; throws when it has vanished (never during a bearer call). */
  userRow(): Row {
    const row = this.user();
    if (row === undefined) throw new Error(`user ${this.uid} does not exist`);
    return row;
  }
}
