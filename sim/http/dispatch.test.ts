/**
 * JSON-2 dispatch and the error table of Odoo: `odoo/http.py` `Json2Dispatcher.handle_error`: each error's status, `name`, `message`,
 * `arguments`, empty `context` and a `debug` traceback ending with Python's last line.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseJson } from '../../src/json/index.ts';
import type { Struct, Value } from '../../src/value.ts';
import { type Simulator, startSimulator } from '../index.ts';
import { type Json2CallOptions, json2 } from '../test-support.ts';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
beforeEach(() => sim.reset());
afterAll(() => sim.close());

/** A body from JSON text, so tests read like the requests they model. */
const body = (text: string): Value => parseJson(text);

function call(model: string, method: string, json: string, as = 'admin', opts: Json2CallOptions = {}) {
  return json2(sim, model, method, body(json), { key: sim.keyFor('demo', as), ...opts });
}

/** Odoo's fixed texts (sale_order.py, res_partner.py, res_users.py), kept in parts like the rules. */
const saleUnlinkRefusal = ['You can not delete a sent quotation or a confirmed sales order.', 'You must first cancel it.'].join(' ');
const partnerRecursion = ['You cannot create recursive', 'Partner', 'hierarchies.'].join(' ');
const loginUnique = ['You can not have two users', 'with the same login!'].join(' ');

interface ErrorRow {
  what: string;
  model: string;
  method: string;
  body: string;
  as?: string;
  status: number;
  name: string;
  message: string;
  /** `arguments` when not `[message]`. */
  args?: Value[];
}

const rows: ErrorRow[] = [
  {
    what: 'unknown model',
    model: 'no.such.model',
    method: 'search',
    body: '{"domain": []}',
    status: 404,
    name: 'werkzeug.exceptions.NotFound',
    message: "the model 'no.such.model' does not exist",
    args: ["the model 'no.such.model' does not exist", 404],
  },
  {
    what: 'unknown method',
    model: 'res.partner',
    method: 'name_get',
    body: '{}',
    status: 404,
    name: 'werkzeug.exceptions.NotFound',
    message: "The method 'res.partner.name_get' does not exist",
    args: ["The method 'res.partner.name_get' does not exist", 404],
  },
  {
    what: 'underscore method',
    model: 'res.partner',
    method: '_write',
    body: '{"ids": [9]}',
    status: 403,
    name: 'odoo.exceptions.AccessError',
    message: "Private methods (such as 'res.partner._write') cannot be called remotely.",
  },
  {
    what: '@api.private method',
    model: 'res.country',
    method: 'sudo',
    body: '{}',
    status: 403,
    name: 'odoo.exceptions.AccessError',
    message: "Private methods (such as 'res.country.sudo') cannot be called remotely.",
  },
  {
    what: 'ids on a model method',
    model: 'res.partner',
    method: 'search',
    body: '{"ids": [1], "domain": []}',
    status: 422,
    name: 'werkzeug.exceptions.UnprocessableEntity',
    message: 'cannot call res.partner.search with ids',
    args: ['cannot call res.partner.search with ids', 422],
  },
  {
    what: 'missing argument',
    model: 'res.partner',
    method: 'has_access',
    body: '{}',
    status: 422,
    name: 'werkzeug.exceptions.UnprocessableEntity',
    message: "missing a required argument: 'operation'",
    args: ["missing a required argument: 'operation'", 422],
  },
  {
    what: 'unexpected argument',
    model: 'res.partner',
    method: 'search_count',
    body: '{"domain": [], "bogus": 1}',
    status: 422,
    name: 'werkzeug.exceptions.UnprocessableEntity',
    message: "got an unexpected keyword argument 'bogus'",
    args: ["got an unexpected keyword argument 'bogus'", 422],
  },
  {
    what: 'missing before unexpected',
    model: 'res.partner',
    method: 'search',
    body: '{"bogus": 1}',
    status: 422,
    name: 'werkzeug.exceptions.UnprocessableEntity',
    message: "missing a required argument: 'domain'",
    args: ["missing a required argument: 'domain'", 422],
  },
  {
    what: 'read_kwargs reaching _read_format',
    model: 'res.partner',
    method: 'search_read',
    body: '{"limitt": 2}',
    status: 500,
    name: 'builtins.TypeError',
    message: "BaseModel._read_format() got an unexpected keyword argument 'limitt'",
  },
  {
    what: 'context that is not a mapping',
    model: 'res.partner',
    method: 'search_count',
    body: '{"domain": [], "context": [["a", 1, 2]]}',
    status: 500,
    name: 'builtins.ValueError',
    message: 'dictionary update sequence element #0 has length 3; 2 is required',
  },
  {
    what: 'context that is a number',
    model: 'res.partner',
    method: 'search_count',
    body: '{"domain": [], "context": 5}',
    status: 500,
    name: 'builtins.TypeError',
    message: "'int' object is not iterable",
  },
  {
    what: 'inactive context lang',
    model: 'res.partner',
    method: 'search_count',
    body: '{"domain": [], "context": {"lang": "es_ES"}}',
    status: 422,
    name: 'odoo.exceptions.UserError',
    message: 'Invalid language code: es_ES',
  },
  {
    what: 'unknown field in a domain',
    model: 'res.partner',
    method: 'search',
    body: '{"domain": [["no_field", "=", 2]]}',
    status: 500,
    name: 'builtins.ValueError',
    message: "Invalid field res.partner.no_field in condition ('no_field', '=', 2)",
  },
  {
    what: 'unknown field at the end of a path',
    model: 'res.partner',
    method: 'search',
    body: '{"domain": [["country_id.nocode", "=", "US"]]}',
    status: 500,
    name: 'builtins.ValueError',
    message: "Invalid field res.country.nocode in condition ('nocode', '=', 'US')",
  },
  {
    what: 'bad operator',
    model: 'res.partner',
    method: 'search',
    body: '{"domain": [["email", "LIKE3", "b"]]}',
    status: 500,
    name: 'builtins.ValueError',
    message: "Invalid operator in condition ('email', 'like3', 'b')",
  },
  {
    what: 'unknown field in read',
    model: 'sale.order',
    method: 'read',
    body: '{"ids": [1], "fields": ["no_field"]}',
    status: 500,
    name: 'builtins.ValueError',
    message: "Invalid field 'no_field' on 'sale.order'",
  },
  {
    what: 'bad order',
    model: 'res.partner',
    method: 'search',
    body: '{"domain": [], "order": "name; drop"}',
    status: 500,
    name: 'builtins.ValueError',
    message:
      'Invalid "order" specified (name; drop). A valid "order" specification is a comma-separated list of valid field names (optionally followed by asc/desc for the direction)',
  },
  {
    what: 'invalid selection value',
    model: 'res.partner',
    method: 'create',
    body: '{"vals_list": [{"name": "X", "type": "nope"}]}',
    status: 500,
    name: 'builtins.ValueError',
    message: "Wrong value for res.partner.type: 'nope'",
  },
  {
    what: 'bad datetime',
    model: 'sale.order',
    method: 'write',
    body: '{"ids": [1], "vals": {"commitment_date": "2030-01-01T10:00:00"}}',
    status: 500,
    name: 'builtins.ValueError',
    message: "time data '2030-01-01T10:00:00' does not match format '%Y-%m-%d %H:%M:%S'",
  },
  {
    what: 'write on a missing id',
    model: 'res.partner',
    method: 'write',
    body: '{"ids": [999999], "vals": {"ref": "x"}}',
    status: 404,
    name: 'odoo.exceptions.MissingError',
    message: 'Record does not exist or has been deleted.\n(Record: res.partner(999999,), User: 2)',
  },
  {
    what: 'unlink of missing ids',
    model: 'res.partner',
    method: 'unlink',
    body: '{"ids": [9, 999998, 999999]}',
    status: 404,
    name: 'odoo.exceptions.MissingError',
    message: 'Record does not exist or has been deleted.\n(Record: res.partner(999998, 999999), User: 2)',
  },
  {
    what: 'unlink of a confirmed order',
    model: 'sale.order',
    method: 'unlink',
    body: '{"ids": [1, 9]}',
    status: 422,
    name: 'odoo.exceptions.UserError',
    message: saleUnlinkRefusal,
  },
  {
    what: 'recursive parent',
    model: 'res.partner',
    method: 'write',
    body: '{"ids": [10], "vals": {"parent_id": 10}}',
    status: 422,
    name: 'odoo.exceptions.ValidationError',
    message: partnerRecursion,
  },
  {
    what: 'recursion through a child',
    model: 'product.category',
    method: 'write',
    body: '{"ids": [4], "vals": {"parent_id": 5}}',
    status: 422,
    name: 'odoo.exceptions.ValidationError',
    message: 'You cannot create recursive categories.',
  },
  {
    what: 'duplicate login',
    model: 'res.users',
    method: 'create',
    body: '{"vals_list": [{"name": "Twin", "login": "admin"}]}',
    status: 422,
    name: 'odoo.exceptions.ValidationError',
    message: `The operation cannot be completed: ${loginUnique}`,
  },
  {
    what: 'missing required field',
    model: 'res.partner.category',
    method: 'create',
    body: '{"vals_list": [{"color": 1}]}',
    status: 422,
    name: 'odoo.exceptions.ValidationError',
    message:
      "The operation cannot be completed: Missing required value for the field 'Name' (name).\nModel: 'Partner Tags' (res.partner.category)\n- create/update: a mandatory field is not set\n- delete: another model requires the record being deleted, you can archive it instead\n",
  },
  {
    what: 'ACL create',
    as: 'demo',
    model: 'res.users',
    method: 'create',
    body: '{"vals_list": [{"name": "x", "login": "x"}]}',
    status: 403,
    name: 'odoo.exceptions.AccessError',
    message:
      "You are not allowed to create 'User' (res.users) records.\n\nThis operation is allowed for the following groups:\n\t- Access Rights\n\nContact your administrator to request access if necessary.",
  },
  {
    what: 'ACL write',
    as: 'demo',
    model: 'res.company',
    method: 'write',
    body: '{"ids": [1], "vals": {"name": "Hacked"}}',
    status: 403,
    name: 'odoo.exceptions.AccessError',
    message:
      "You are not allowed to modify 'Companies' (res.company) records.\n\nThis operation is allowed for the following groups:\n\t- Access Rights\n\nContact your administrator to request access if necessary.",
  },
  {
    what: 'ACL read for portal users',
    as: 'portal',
    model: 'sale.order',
    method: 'search',
    body: '{"domain": []}',
    status: 403,
    name: 'odoo.exceptions.AccessError',
    message:
      "You are not allowed to access 'Sales Order' (sale.order) records.\n\nThis operation is allowed for the following groups:\n\t- Role / User\n\nContact your administrator to request access if necessary.",
  },
  {
    what: 'a method the simulator does not model',
    model: 'res.partner',
    method: 'message_post',
    body: '{"ids": [9]}',
    status: 500,
    name: 'builtins.NotImplementedError',
    message: 'the Odoo simulator does not model res.partner.message_post (MailThread.message_post)',
  },
];

const reasons: Record<number, string> = { 404: 'Not Found', 422: 'Unprocessable Entity' };

/** Python's last traceback line: `ValueError: …`, `werkzeug.exceptions.NotFound: 404 Not Found: …`. */
function lastLine(row: ErrorRow): string {
  if (row.name.startsWith('builtins.')) return `${row.name.slice(9)}: ${row.message}`;
  if (row.name.startsWith('werkzeug.')) return `${row.name}: ${row.status} ${reasons[row.status]}: ${row.message}`;
  return `${row.name}: ${row.message}`;
}

describe('error table', () => {
  it.each(rows.map((r) => [r.what, r] as const))('%s', async (_what, row) => {
    const a = await call(row.model, row.method, row.body, row.as ?? 'admin');
    expect(a.status).toBe(row.status);
    const err = a.value as Struct;
    expect([...err.keys()]).toEqual(['name', 'message', 'arguments', 'context', 'debug']);
    expect(err.get('name')).toBe(row.name);
    expect(err.get('message')).toBe(row.message);
    expect(err.get('arguments')).toEqual(row.args ?? [row.message]);
    expect(err.get('context')).toEqual(new Map());
    const debug = String(err.get('debug'));
    expect(debug.startsWith('Traceback (most recent call last):\n')).toBe(true);
    expect(debug.endsWith(`${lastLine(row)}\n`)).toBe(true);
  });

  it('rolls back a call that fails half-way', async () => {
    const a = await call('res.partner', 'create', '{"vals_list": [{"name": "First"}, {"name": "Second", "type": "nope"}]}');
    expect(a.status).toBe(500);
    const count = await call('res.partner', 'search_count', '{"domain": [["name", "=", "First"]]}');
    expect(count.text).toBe('0');
  });
});

describe('calls', () => {
  it('accepts ids as a bare int', async () => {
    const a = await call('res.partner', 'read', '{"ids": 9, "fields": ["name"]}');
    expect(a.text).toBe('[{"id": 9, "name": "Acme Corporation"}]');
  });

  it('matches nothing for ids given as a string', async () => {
    expect((await call('res.partner', 'read', '{"ids": "9", "fields": ["name"]}')).text).toBe('[]');
  });

  it('runs a record method on no records when ids are absent', async () => {
    expect((await call('res.partner', 'write', '{"vals": {"ref": "x"}}')).text).toBe('true');
    expect((await call('res.partner', 'read', '{"fields": ["name"]}')).text).toBe('[]');
  });

  it('returns null for methods that return None', async () => {
    expect((await call('res.partner', 'action_archive', '{"ids": []}')).text).toBe('null');
    expect((await call('res.partner', 'check_access_rights', '{"operation": "read"}')).text).toBe('null');
    expect((await call('res.partner', 'check_access_rights', '{"operation": "write", "raise_exception": false}')).text).toBe('true');
    expect((await call('res.users', 'check_access_rights', '{"operation": "write", "raise_exception": false}', 'demo')).text).toBe('false');
  });

  it('answers has_access per operation', async () => {
    expect((await call('res.company', 'has_access', '{"ids": [1], "operation": "write"}', 'demo')).text).toBe('false');
    expect((await call('res.company', 'has_access', '{"ids": [1], "operation": "read"}', 'demo')).text).toBe('true');
  });

  it('answers context_get from the user record', async () => {
    expect((await call('res.users', 'context_get', '{}', 'demo')).text).toBe('{"lang": "en_US", "tz": "Europe/Brussels", "uid": 5}');
    expect((await call('res.users', 'context_get', '{}', 'portal')).text).toBe('{"lang": "en_US", "tz": false, "uid": 6}');
  });

  it('accepts an active context lang and en_US', async () => {
    for (const lang of ['fr_FR', 'en_US']) {
      expect((await call('res.partner', 'search_count', `{"domain": [], "context": {"lang": "${lang}"}}`)).status).toBe(200);
    }
  });

  it('accepts a context given as a list of pairs', async () => {
    expect((await call('res.partner', 'search_count', '{"domain": [], "context": [["active_test", false]]}')).text).toBe('42');
  });

  it('passes **kwargs extras on to read (load)', async () => {
    const a = await call('res.partner', 'search_read', '{"domain": [["id", "=", 36]], "fields": ["parent_id"], "load": ""}');
    expect(a.text).toBe('[{"id": 36, "parent_id": 9}]');
  });
});
