// The core session of core-session.ts for the Node clients (npm xmlrpc, odoo-await, odoo-xmlrpc),
// written once against a small adapter each client script provides. Only the faults of the fixed list
// are caught (an Error carrying a faultCode, precisely); anything else rejects and crashes the script.

/** The category name every client creates: markup characters, a CDATA end, non-ASCII and an emoji. */
export const unicodeName = (tag) => `E2E Zoë & <tag> ]]> \u{1F600} ${tag}`;

/** The order's date_order as a JS Date: 2026-10-15 10:30:00 UTC (node-xmlrpc sends it in local time). */
export const orderDate = new Date(Date.UTC(2026, 9, 15, 10, 30, 0));

/** Awaits a call that must fault with an XML-RPC fault; returns the error's class and fault members. */
export async function fault(promise) {
  let result;
  try {
    result = await promise;
  } catch (err) {
    if (!(err instanceof Error) || !('faultCode' in err)) throw err;
    return { class: err.constructor.name, faultCode: err.faultCode, faultString: err.faultString, message: err.message };
  }
  throw new Error(`expected a fault, got ${JSON.stringify(result)}`);
}

/**
 * Runs the core session. `client` provides `version()` (or null when the library has none),
 * `authenticate(secret)` → uid, `authWrong()` → what the library gives for a wrong password, and
 * `call(secret, model, method, args, kwargs)` → execute_kw's result.
 */
export async function coreSession(client, tag, { password, key }) {
  const r = {};
  if (client.version) r.version = await client.version();
  r.uid = await client.authenticate(password);
  r.uid_key = await client.authenticate(key);
  r.auth_wrong = await client.authWrong();
  const call = (model, method, args, kwargs = {}) => client.call(password, model, method, args, kwargs);

  const companies = [['is_company', '=', true]];
  r.search = await call('res.partner', 'search', [companies], { order: 'id' });
  r.count_key = await client.call(key, 'res.partner', 'search_count', [companies], {});
  r.search_read = await call('res.partner', 'search_read', [companies], { fields: ['name', 'credit_limit'], limit: 3, order: 'id' });
  r.float_type = typeof r.search_read[0].credit_limit; // JavaScript has one number type
  r.read = await call('sale.order', 'read', [[1], ['name', 'partner_id', 'date_order', 'validity_date', 'amount_total']]);
  r.binary = await call('res.partner', 'read', [[13], ['image_128']]);
  r.fields_get = await call('res.partner', 'fields_get', [['name', 'country_id', 'type', 'child_ids']], {
    attributes: ['string', 'type', 'relation', 'relation_field', 'required', 'readonly', 'selection'],
  });
  r.name_search = await call('res.partner', 'name_search', ['a', companies], { limit: 3 });

  const name = unicodeName(tag);
  const id = (r.create = await call('res.partner.category', 'create', [{ name }]));
  r.write = await call('res.partner.category', 'write', [[id], { name: `${name} v2` }]);
  r.read_back = await call('res.partner.category', 'read', [[id], ['name']]);
  r.copy = await call('res.partner', 'copy', [[13]]);
  r.copy_read = await call('res.partner', 'read', [r.copy, ['name', 'is_company']]);
  r.copy_unlink = await call('res.partner', 'unlink', [r.copy]);
  r.unlink = await call('res.partner.category', 'unlink', [[id]]);
  r.read_gone = await call('res.partner.category', 'read', [[id], ['name']]);

  const order = (r.order_create = await call('sale.order', 'create', [
    { partner_id: 9, date_order: orderDate, validity_date: '2026-12-31' },
  ]));
  r.order_read = await call('sale.order', 'read', [[order], ['partner_id', 'date_order', 'validity_date']]);
  r.order_unlink = await call('sale.order', 'unlink', [[order]]);

  r.faults = {
    1: await fault(call('res.partner', 'search_count', [[], 1, 2, 3])),
    2: await fault(call('no.such.model', 'search', [[]])),
    3: await fault(client.call('wrong-password', 'res.partner', 'search', [[]], {})),
    4: await fault(call('res.partner', '_read', [[1]])),
  };
  return r;
}

/** Where the script runs: the time zone and the UTC offset (minutes, as getTimezoneOffset) of the order date. */
export function timeZone() {
  return { zone: Intl.DateTimeFormat().resolvedOptions().timeZone, offset: orderDate.getTimezoneOffset() };
}
