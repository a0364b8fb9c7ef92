/**
 * The only list of corpus cases the runner does not hold against the gateway, each with its reason.
 *
 * - `cause: 'simulator'`: the answer needs behaviour the simulator does not model; `topic` must name
 *   an entry of `sim/not-modelled.ts` (the runner cross-checks it and prints mismatches).
 * - `cause: 'corpus'`: the recorded answer depends on server state made by exchanges the corpus does
 *   not contain (the recorder's setup and clean-up steps); such a case still has to agree with the
 *   simulator's own JSON-2 answer to the same request, or it fails.
 *
 * Never list a case here to hide a gateway bug: every entry is still replayed, its differences are
 * printed, and an entry whose case starts matching is reported as stale.
 */

/** One listed case. */
export interface NotModelledEntry {
  id: string;
  cause: 'simulator' | 'corpus';
  /** For `simulator`: the matching topic of `sim/not-modelled.ts`. */
  topic?: string;
  reason: string;
}

/** The list, by case id. */
export const notModelledCases: readonly NotModelledEntry[] = [
  // The JSON-2 key flow: checked against the simulator only (json2 protocol).
  { id: 'auth-json2-keyflow-1-wizard-create', cause: 'simulator', topic: 'key minting', reason: 'the JSON-2 key flow (res.users.apikeys.description / make_key / identitycheck.run_check / remove) is not modelled' },
  { id: 'auth-json2-keyflow-2-make_key', cause: 'simulator', topic: 'key minting', reason: 'the JSON-2 key flow (res.users.apikeys.description / make_key / identitycheck.run_check / remove) is not modelled' },
  { id: 'auth-json2-keyflow-3-run_check', cause: 'simulator', topic: 'key minting', reason: 'the JSON-2 key flow (res.users.apikeys.description / make_key / identitycheck.run_check / remove) is not modelled' },
  { id: 'auth-json2-keyflow-5-list-keys', cause: 'simulator', topic: 'key minting', reason: 'lists the key the key flow made (record id 6, name "corpus-key", 7-day expiry); the simulator cannot run that flow' },
  { id: 'auth-json2-keyflow-6-remove', cause: 'simulator', topic: 'key minting', reason: 'the JSON-2 key flow (res.users.apikeys.description / make_key / identitycheck.run_check / remove) is not modelled' },
  { id: 'auth-json2-keyflow-7-remove-run_check', cause: 'simulator', topic: 'key minting', reason: 'the JSON-2 key flow (res.users.apikeys.description / make_key / identitycheck.run_check / remove) is not modelled' },
  { id: 'auth-json2-demo-expiration-beyond-max', cause: 'simulator', topic: 'key minting', reason: 'the JSON-2 key flow (res.users.apikeys.description / make_key / identitycheck.run_check / remove) is not modelled (here: the group maximum of 90 days)' },
  { id: 'auth-json2-demo-persistent-refused', cause: 'simulator', topic: 'key minting', reason: 'the JSON-2 key flow (res.users.apikeys.description / make_key / identitycheck.run_check / remove) is not modelled (here: a non-system user asking for a persistent key)' },
  { id: 'auth-json2-demo-keyflow-1-wizard', cause: 'simulator', topic: 'key minting', reason: 'the JSON-2 key flow (res.users.apikeys.description / make_key / identitycheck.run_check / remove) is not modelled' },
  { id: 'auth-json2-demo-keyflow-2-make_key', cause: 'simulator', topic: 'key minting', reason: 'the JSON-2 key flow (res.users.apikeys.description / make_key / identitycheck.run_check / remove) is not modelled' },
  { id: 'auth-json2-demo-keyflow-3-run_check', cause: 'simulator', topic: 'key minting', reason: 'the JSON-2 key flow (res.users.apikeys.description / make_key / identitycheck.run_check / remove) is not modelled' },
  { id: 'auth-json2-demo-remove-admin-key-1', cause: 'simulator', topic: 'key minting', reason: 'the JSON-2 key flow (res.users.apikeys.description / make_key / identitycheck.run_check / remove) is not modelled' },
  // Legacy cases whose answer needs what the simulator does not model.
  { id: 'obj-fields_get-full-xmlrpc2', cause: 'simulator', topic: 'fields_get attributes', reason: 'fields_get() of every field with every attribute: the simulator knows only the exported fields and the attributes captured in the seed' },
  { id: 'obj-fields_get-attributes-jsonrpc', cause: 'simulator', topic: 'fields_get attributes', reason: 'Odoo answers fields_get in field declaration order; the simulator in export order' },
  { id: 'obj-context-lang-fr-xmlrpc2', cause: 'simulator', topic: 'translations', reason: 'country names in fr_FR' },
  { id: 'obj-context-lang-fr-selection-jsonrpc', cause: 'simulator', topic: 'translations', reason: 'selection labels and field string in fr_FR' },
  { id: 'obj-read-empty-fields-false-xmlrpc2', cause: 'simulator', topic: 'fields outside the seed export', reason: 'reads res.partner.barcode, which the seed does not export' },
  { id: 'obj-read-html-xmlrpc2', cause: 'simulator', topic: 'html sanitising', reason: 'Odoo removed the <script> element on write' },
  { id: 'types-read-empty-fields', cause: 'simulator', topic: 'read() of all fields', reason: 'read(fields=[]) of every field: the simulator returns the exported fields only (no parent_path, create_uid, write_uid, …)' },
  // Corpus state: records made by exchanges the corpus does not contain.
  { id: 'types-datetime-read-back', cause: 'corpus', reason: 'reads the commitment_date an unrecorded types case wrote as <dateTime.iso8601> (2030-12-31 12:34:56)' },
  { id: 'types-uid-as-string', cause: 'corpus', reason: 'counts all partners, including those made by unrecorded types cases and setup steps (50 on the recorded server)' },
  { id: 'err-demo-apikeys-search-xmlrpc2', cause: 'corpus', reason: "lists the demo key the recorder made at setup (id 3, name 'gw-demo', scope 'rpc'); the simulator generates its own keys" },
  { id: 'multidb-search_count-gw2-jsonrpc', cause: 'corpus', reason: "counts a 'Corpus GW2…' partner the recorder created in gw2 at setup; no case shows its creation" },
  { id: 'json2-unicode-escape', cause: 'corpus', reason: 'counts a partner named with escapes and emoji that the recorder created beforehand; no case shows its creation' },
];

/** The list as a map by case id. */
export function notModelledById(entries: readonly NotModelledEntry[] = notModelledCases): Map<string, NotModelledEntry> {
  return new Map(entries.map((e) => [e.id, e]));
}
