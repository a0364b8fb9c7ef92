/**
 * What the simulator knows about a model beyond its seed file: Odoo's `_rec_name(s_search)`,
 * `_parent_name`, display names, defaults, constraints, computed fields and access groups. Each entry
 * comes from the model's Odoo source; `rules/index.ts` maps model names to entries.
 */
import type { Struct, Value } from '../../src/value.ts';
import type { Database } from '../orm/database.ts';
import type { Env } from '../orm/env.ts';
import type { OdooError } from '../errors.ts';
import type { Stored } from '../orm/fields.ts';
import type { ModelStore, Row } from '../orm/model.ts';

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

/** One `ir.rule`: global rules are AND-ed, the rules of the caller's groups OR-ed (`ir.rule._compute_domain`). */
export interface RecordRule {
  /** The rule's `name` (listed by `ir.rule._make_access_error` to `base.group_no_one`). */
  name: string;
  /** Full names of the rule's groups; absent: a global rule. */
  groups?: string[];
  operations: ReadonlyArray<'read' | 'write' | 'create' | 'unlink'>;
  /** True when `domain_force` mentions `company_id` (`_make_access_error`'s `company_related`). */
  companyRelated?: boolean;
  /** `domain_force` on one existing row. */
  test: (env: Env, row: Row) => boolean;
}

/**
 * The ORM's `create()` (`createRecords`, `orm/orm-write.ts`), handed to the rules that create records
 * of another model: the ORM reads the rules, so the rules do not import it.
 */
export type CreateRecords = (env: Env, model: ModelStore, valsList: Value[]) => number[];

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
  prepareCreate?: (env: Env, vals: Struct, create: CreateRecords) => void;
  /** Fields `copy()` leaves out (`copy=False`), so defaults apply again. */
  copyExclude?: string[];
  /** `ir.rule` records of the model (Odoo: each module's `security/*.xml`). */
  recordRules?: RecordRule[];
  /** Fields declared with `groups=`: the full names of the groups that may read and write them. */
  fieldGroups?: Record<string, string[]>;
  /** Values `copy()` forces (`name (copy)`). */
  copyDefaults?: (env: Env, row: Row) => Record<string, Value>;
}
