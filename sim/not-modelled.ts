/**
 * What the simulator knowingly does not do like Odoo 19, with the reason. The conformance runner
 * prints this list next to the cases it cannot check.
 */
import { loadSeed } from './seed.ts';
import { genericMethodNames, specificMethodNames } from './methods/index.ts';

export interface NotModelled {
  /** Short name of the behaviour. */
  topic: string;
  /** What the simulator does instead, and why. */
  reason: string;
}

const fixed: NotModelled[] = [
  {
    topic: 'translations',
    reason:
      'context `lang` is checked against active res.lang records but never translates names, selection labels or group labels (only the en_US seed exists)',
  },
  {
    topic: 'html sanitising',
    reason:
      'only script/style elements, on* attributes and javascript: URLs are removed on write; the rest of tools.html_sanitize (tag whitelist, wrapping text in <p>, comment removal) is not applied',
  },
  {
    topic: 'bin_size',
    reason:
      'the human size is computed from the decoded length of the stored base64 value; attachment-backed sizes and other binary context flags are not modelled',
  },
  {
    topic: 'fields outside the seed export',
    reason:
      'only the exported fields exist: reading others raises Invalid field, creating/writing them is ignored (Odoo knows e.g. image_1920, barcode, parent_path, create_uid)',
  },
  {
    topic: 'fields_get attributes',
    reason:
      'only the attributes captured in the seed are returned (no change_default, depends, exportable, manual, name, trim); fields come in export order, not declaration order',
  },
  { topic: 'read() of all fields', reason: 'read(fields=[]) returns the exported fields in export order' },
  {
    topic: 'record rules',
    reason:
      'res.users.apikeys (own keys), sale.order ("Personal Orders", "All Orders", multi-company) and res.partner (multi-company, portal commercial partner) rules only, applied by search, read, has_access and check_access_rule; writes, creates and unlinks do not check rules; a rule on a missing record refuses it (Odoo may raise MissingError from the predicate instead); field groups only on res.partner.credit_limit and product.product.standard_price',
  },
  {
    topic: 'access rights',
    reason:
      'generic: system users may do everything; other internal users may read everything and change models without manager groups; portal/public users may only read base data; res.users self-service writes (preferences) are refused',
  },
  { topic: 'allowed_company_ids', reason: 'the context key is accepted without checking it against the user companies' },
  {
    topic: 'business rules',
    reason:
      'only: sale.order sequence, defaults, addresses, line subtotals and order totals (without taxes), unlink of confirmed orders, partner/category name computations, recursion checks, unique logins/codes, users and companies creating their partner. No taxes, pricelists, invoices, mail, tracking or onchange logic',
  },
  {
    topic: 'ondelete',
    reason:
      "unlink cascades to one2many children whose inverse is required, refuses other required references and clears optional ones; Odoo follows each field's ondelete",
  },
  {
    topic: 'foreign key errors',
    reason:
      'a many2one written with an unknown id raises a ValidationError with the delete-side foreign key wording; exact Odoo text not captured',
  },
  {
    topic: 'domain structure errors',
    reason:
      "malformed domains (missing operands, bad terms) raise ValueError with approximate wording; field and operator errors use Odoo's exact templates",
  },
  {
    topic: 'domain paths on negative operators',
    reason: 'a dotted path with a negative operator is the complement of the positive one (records with an empty many2one match)',
  },
  {
    topic: 'order',
    reason: 'ties are broken by ascending id (Odoo leaves them to PostgreSQL); text sorts in code-point order (LC_COLLATE C)',
  },
  {
    topic: 'read_group / formatted_read_group',
    reason:
      'date groups in UTC (no context tz), en_US labels only, no `having`, no fill_temporal, no *_number granularities; many2many groupby supported, property fields not',
  },
  {
    topic: 'sessions and cookies',
    reason:
      'sessions live in memory and never expire or rotate after login (Odoo rotates every 3 h); /web/session/* other than authenticate and destroy, /web/dataset/call_button and /web/login are absent',
  },
  {
    topic: 'session_info',
    reason:
      '/web/session/authenticate answers uid, is_system, is_admin, is_public, is_internal_user, user_context, db, server versions, name, username and partner_id only (no registry_hash, user_settings, currencies, view_info, storeData, …)',
  },
  {
    topic: 'login cooldown',
    reason: 'failed web logins are not counted per address (base.login_cooldown_after/_duration)',
  },
  {
    topic: 'key minting',
    reason:
      'the description wizard, make_key, identitycheck.run_check and remove are modelled for the fields the flows use; portal users never get keys (ICP portal.allow_api_keys), TOTP users pass the identity check with their password alone, and removing a key of another user is refused without the record-rule wording',
  },
  {
    topic: 'res.users.apikeys writes',
    reason: 'the model is a read-only view of the key store; create/write/unlink answer NotImplementedError',
  },
  {
    topic: 'models without seed data',
    reason:
      "ir.attachment exists (method table) but holds no records: every method answers NotImplementedError; ir.model is a read-only list of the models (id, name, model, state, transient; ids are the simulator's own, writes answer NotImplementedError); res.users.apikeys.description and res.users.identitycheck answer only their key-flow methods; ir.config_parameter answers only get_param",
  },
  {
    topic: 'OPTIONS/HEAD details',
    reason:
      'OPTIONS on /json/2/<model>/<method> runs the method like POST; HEAD answers 404 with an empty body; werkzeug Allow headers are not sent',
  },
  { topic: 'POST /web/version', reason: 'answered like GET; Odoo refuses it with its CSRF check' },
  {
    topic: 'response headers',
    reason: 'no Server/Date imitation, no session cookie on /web/version, keep-alive instead of Connection: close',
  },
  {
    topic: '/doc-bearer',
    reason:
      'documents only the 8 models recorded in _method-signatures.json plus the custom res.partner.action_gateway_demo; other models answer 404; fields carry no "module"; the ETag is a hash, not Odoo\'s HMAC; the 403 for users outside the Technical Documentation group is in English whatever their lang (Odoo translates it); /doc (session) routes are absent',
  },
  {
    topic: 'database manager',
    reason:
      "a created database is a copy of the seed (demo data included) whose admin (uid 2) gets the form's login and password (lang, country, phone and demo are ignored); backups hold the rows as JSON (dump.sql) and a generated filestore, restore reads only such backups; neutralize, copy (database UUID) and dbfilter on /web/database/list are not applied; the manager page is the recorded one with its database list and warnings re-rendered (its language and country options are as recorded); /web/database/rename exists only behind a switch, with invented fields (name, new_name)",
  },
];

/** Everything not modelled, including every method of the table without an implementation. */
export function notModelled(): NotModelled[] {
  const implemented = new Set(genericMethodNames);
  const specific = new Set(specificMethodNames);
  const missing = new Map<string, string[]>();
  for (const [model, methods] of loadSeed().methods) {
    for (const method of methods.keys()) {
      if (implemented.has(method) || specific.has(`${model}.${method}`)) continue;
      missing.set(method, [...(missing.get(method) ?? []), model]);
    }
  }
  const methodEntries = [...missing.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([method, models]) => ({
      topic: `method ${method}`,
      reason: `answers NotImplementedError on ${models.length === loadSeed().methods.size ? 'every model' : models.join(', ')}`,
    }));
  return [...fixed, ...methodEntries];
}
