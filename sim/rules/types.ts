/**
 * What the simulator knows about a model beyond its seed file: Odoo's `_rec_name(s_search)`,
 * `_parent_name`, display names, defaults, constraints, computed fields and access groups. Each entry
 * comes from the model's Odoo source; `rules/index.ts` maps model names to entries.
 */
import type { Struct, Value } from '../../src/value.ts';
import type { Database } from '../database.ts';
import type { Env } from '../env.ts';
import type { OdooError } from '../errors.ts';
import type { Stored } from '../fields.ts';
import type { Row } from '../model.ts';

/** A SQL unique constraint and its message (an IntegrityError turned into a ValidationError). */
export interface UniqueRule {
  fields: string[];
  message: string;
}

/**
 * A SQL CHECK constraint (`models.Constraint("CHECK(…)", message)`): an IntegrityError at INSERT or
 * flush, which Odoo turns into the ValidationError "The operation cannot be completed: <message>".
 */
export interface CheckRule {
  /** The columns the CHECK reads: checked on create, and on write when one of them is written. */
  fields: string[];
  /**
   * True when the row breaks the CHECK. As in SQL, an expression that is NULL passes: a `false`
   * stored in a non-boolean field is NULL.
   */
  violated: (row: Row) => boolean;
  message: string;
}

/**
 * An `@api.constrains(*fields)` method: run after create (for the fields given or defaulted) and
 * after a write of one of `fields`, with every row written.
 */
export interface ConstrainsRule {
  fields: string[];
  /** The exception the method raises for these rows, if any. */
  check: (env: Env, rows: Row[]) => OdooError | undefined;
}

export interface ModelRules {
  /** `_rec_name` (default `name` when the field exists). */
  recName?: string;
  /** `_rec_names_search`: the fields a display-name search looks at (default: the rec name). */
  recNamesSearch?: string[];
  /** `_parent_name` for child_of/parent_of and the recursion check (default `parent_id` to itself). */
  parentField?: string;
  /** `_compute_display_name` (default: the rec name's value). */
  displayName?: (db: Database, row: Row) => string;
  /** The recursion ValidationError text (default built from the model description). */
  recursionMessage?: string;
  /** Field defaults, as values a client could have written. */
  defaults?: Record<string, (env: Env) => Value>;
  /** SQL unique constraints. */
  uniques?: UniqueRule[];
  /**
   * Selection fields whose selection is a model method (`fields.Selection(_lang_get)`): Odoo checks
   * no written value against them (`Selection._selection` is None), only a static list is enforced.
   */
  methodSelections?: string[];
  /** SQL CHECK constraints. */
  checks?: CheckRule[];
  /** Python constraints (`@api.constrains`). */
  constrains?: ConstrainsRule[];
  /** The UserError text an overridden `write()` raises before writing `vals` to `rows`, if any. */
  writeGuard?: (env: Env, rows: Row[], vals: Struct) => string | undefined;
  /** Group full names allowed to create/write/unlink; absent = every internal user. */
  managerGroups?: string[];
  /** `ir.sequence`-like numbering of a char field on create (`S00001`). */
  sequence?: { field: string; prefix: string; padding: number };
  /** A UserError text when the record may not be deleted. */
  unlinkGuard?: (row: Row) => string | undefined;
  /** Called once per seed record: derives hidden values from what the seed shows. */
  fromSeed?: (db: Database, row: Row, seed: Struct) => void;
  /** Recomputes stored computed fields after create/write of `rows` (`changed`: written fields). */
  recompute?: (env: Env, rows: Row[], changed: Set<string>) => void;
  /** Non-stored computed fields, evaluated on read. */
  computed?: Record<string, (db: Database, row: Row) => Stored>;
  /** Inverse methods: writing the key field becomes writing the returned fields. */
  inverses?: Record<string, (value: Value) => Record<string, Value>>;
  /** Fills create values that depend on others (a user's partner, an order's addresses). */
  prepareCreate?: (env: Env, vals: Struct) => void;
  /** Fields `copy()` leaves out (`copy=False`), so defaults apply again. */
  copyExclude?: string[];
  /** Values `copy()` forces (`name (copy)`). */
  copyDefaults?: (env: Env, row: Row) => Record<string, Value>;
}
