/**
 * The core session every XML-RPC client script runs through the gateway, what it must
 * see — derived from the seed data in fixtures/odoo-data, never from the gateway — and the runner
 * that starts a client script and parses the JSON it prints.
 *
 * Each script runs, per endpoint (`/xmlrpc/2` as "v2", `/xmlrpc` as "v1"), this fixed list of calls
 * as admin (password and API key from the simulator) and prints one JSON object per endpoint:
 *
 * | key | call |
 * |---|---|
 * | version | `common.version()` |
 * | uid | `common.authenticate(db, login, password, {})` — the gateway mints a key |
 * | uid_key | `common.authenticate(db, login, key, {})` — the API key passes through |
 * | auth_wrong | `common.authenticate(db, login, 'wrong-password', {})` |
 * | search | `res.partner.search([[is_company = True]], order='id')` with the password |
 * | count_key | `res.partner.search_count([[is_company = True]])` with the API key |
 * | search_read | `res.partner.search_read([[is_company = True]], fields=[name, credit_limit], limit=3, order='id')` |
 * | float_type | the client's native type of `search_read[0].credit_limit` (0.0: a `<double>`) |
 * | read | `sale.order.read([1], [name, partner_id, date_order, validity_date, amount_total])` |
 * | binary | `res.partner.read([13], [image_128])` |
 * | fields_get | `res.partner.fields_get(allfields, attributes=…)` as search example 37 |
 * | name_search | `res.partner.name_search('a', [[is_company = True]], limit=3)` as search example 32 |
 * | create, write, read_back | a `res.partner.category` named {@link unicodeName}, renamed `+ ' v2'`, read back |
 * | copy, copy_read, copy_unlink | `res.partner.copy([13])`, read `[name, is_company]`, unlink |
 * | unlink, read_gone | the category unlinked, then read again |
 * | order_create, order_read, order_unlink | a `sale.order` of partner 9 (`date_order` a datetime: {@link orderDatetime}) |
 * | faults | one fault per code: 1 `search_count` with 5 positional arguments, 2 an unknown model, 3 a wrong password, 4 a private method |
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';

function fixture<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(`../../fixtures/odoo-data/${name}`, import.meta.url), 'utf8')) as T;
}

interface Partner {
  id: number;
  name: string;
  is_company: boolean;
  active: boolean;
  credit_limit: number;
  image_128: string | false;
}
interface SaleOrder {
  id: number;
  name: string;
  partner_id: [number, string];
  date_order: string;
  validity_date: string | false;
  amount_total: number;
}
interface SearchExample {
  n: number;
  request: Record<string, unknown>;
  response: unknown;
}

const partners = fixture<{ records: Partner[] }>('res.partner.json').records;
const orders = fixture<{ records: SaleOrder[] }>('sale.order.json').records;
const examples = fixture<{ examples: SearchExample[] }>('_search-examples.json').examples;
const example = (n: number) => examples.find((e) => e.n === n) as SearchExample;
const partner = (id: number) => partners.find((p) => p.id === id) as Partner;
const companies = partners.filter((p) => p.is_company && p.active).sort((a, b) => a.id - b.id);
const order1 = orders.find((o) => o.id === 1) as SaleOrder;

/** The category name each script creates: XML markup characters, a CDATA end, non-ASCII and an emoji. */
export const unicodeName = (tag: string) => `E2E Zoë & <tag> ]]> 😀 ${tag}`;

/** The `date_order` every script sends as its language's datetime object: 2026-10-15 10:30:00 (UTC where the client asks). */
export const orderDatetime = '2026-10-15 10:30:00';

/** The simulated Odoo 19.0 release, as `common.version()` answers it (sim/http/version-routes.ts). */
export const expectedVersion = {
  server_version: '19.0',
  server_version_info: [19, 0, 0, 'final', 0, ''],
  server_serie: '19.0',
  protocol_version: 1,
};

/** What the core session's deterministic calls return, from the seed data and the recorded search examples. */
export const expectedCore = {
  version: expectedVersion,
  uid: 2,
  uid_key: 2,
  search: companies.map((p) => p.id),
  count_key: companies.length,
  search_read: companies.slice(0, 3).map((p) => ({ id: p.id, name: p.name, credit_limit: p.credit_limit })),
  read: [
    {
      id: order1.id,
      name: order1.name,
      partner_id: order1.partner_id,
      date_order: order1.date_order,
      validity_date: order1.validity_date,
      amount_total: order1.amount_total,
    },
  ],
  binary: [{ id: 13, image_128: partner(13).image_128 }],
  fields_get: example(37).response,
  name_search: example(32).response,
};

/** The arguments the scripts send for fields_get and name_search: those of search examples 37 and 32. */
export const coreRequests = {
  fields_get: {
    allfields: ['name', 'country_id', 'type', 'child_ids'],
    attributes: ['string', 'type', 'relation', 'relation_field', 'required', 'readonly', 'selection'],
  },
  name_search: { name: 'a', domain: [['is_company', '=', true]], limit: 3 },
};

/**
 * The faults of the core session as Odoo 19 answers them (Odoo: `addons/rpc/controllers/xmlrpc.py`; corpus
 * err-unknown-model-*, err-private-method-*): v2 int codes with the message as faultString, v1
 * string codes. Code 1's faultString is a traceback: only its first and last lines are Odoo's.
 */
export const expectedFaults = {
  v2: {
    '1': { faultCode: 1, lastLine: 'TypeError: BaseModel.search_count() takes from 2 to 3 positional arguments but 5 were given' },
    '2': { faultCode: 2, faultString: "Object no.such.model doesn't exist" },
    '3': { faultCode: 3, faultString: 'Access Denied' },
    '4': { faultCode: 4, faultString: "Private methods (such as 'res.partner._read') cannot be called remotely." },
  },
  v1: {
    '1': {
      faultCode: 'BaseModel.search_count() takes from 2 to 3 positional arguments but 5 were given',
      lastLine: 'TypeError: BaseModel.search_count() takes from 2 to 3 positional arguments but 5 were given',
    },
    '2': { faultCode: "warning -- UserError\n\nObject no.such.model doesn't exist", faultString: '' },
    '3': { faultCode: 'AccessDenied', faultString: 'Access Denied' },
    '4': {
      faultCode: "warning -- AccessError\n\nPrivate methods (such as 'res.partner._read') cannot be called remotely.",
      faultString: '',
    },
  },
} as const;

/** A traceback faultString (fault 1): Python's header line first, the exception line last. */
export function expectTraceback(faultString: unknown, lastLine: string): void {
  expect(faultString).toBeTypeOf('string');
  const lines = (faultString as string).replace(/\n$/, '').split('\n');
  expect(lines[0]).toBe('Traceback (most recent call last):');
  expect(lines.at(-1)).toBe(lastLine);
}

/** The order the scripts create: partner 9 as the seed names it. */
export const orderPartner = [9, partner(9).name] as const;

/** Per-client differences in the core session. */
export interface CoreOptions {
  /** The client's native type name for a `<double>` (Python `float`, Ruby `Float`, ...). */
  floatType: string;
  /** What `date_order` reads back as (default {@link orderDatetime}). */
  datetimeRead?: string;
  /** What the library gives for `authenticate` with a wrong password (default `false`). */
  authWrong?: unknown;
  /** Set when the library has no `version()` call. */
  noVersion?: boolean;
}

/** Asserts every value of one endpoint's core session. */
export function expectCoreSession(r: Record<string, unknown>, tag: string, opts: CoreOptions): void {
  expect(example(37).request).toEqual(coreRequests.fields_get);
  expect(example(32).request).toEqual(coreRequests.name_search);
  const keys = ['uid', 'uid_key', 'search', 'count_key', 'search_read', 'read', 'binary', 'fields_get', 'name_search'] as const;
  for (const key of opts.noVersion ? keys : (['version', ...keys] as const)) expect(r[key], key).toEqual(expectedCore[key]);
  if (opts.noVersion) expect(r).not.toHaveProperty('version');
  expect(r.auth_wrong, 'auth_wrong').toEqual(opts.authWrong ?? false);
  expect(r.float_type, 'credit_limit 0.0 must arrive as a double').toBe(opts.floatType);

  const created = r.create as number;
  expect(created).toBeTypeOf('number');
  expect(created).toBeGreaterThan(7); // beyond the 7 seeded tags
  expect(r.write).toBe(true);
  expect(r.read_back).toEqual([{ id: created, name: `${unicodeName(tag)} v2` }]);
  expect(r.unlink).toBe(true);
  expect(r.read_gone).toEqual([]);

  const [copied] = r.copy as number[];
  expect(r.copy).toEqual([expect.any(Number)]);
  expect(copied).toBeGreaterThan(Math.max(...partners.map((p) => p.id)));
  expect(r.copy_read).toEqual([{ id: copied, name: `${partner(13).name} (copy)`, is_company: partner(13).is_company }]);
  expect(r.copy_unlink).toBe(true);

  const orderId = r.order_create as number;
  expect(orderId).toBeGreaterThan(Math.max(...orders.map((o) => o.id)));
  expect(r.order_read).toEqual([
    { id: orderId, partner_id: [...orderPartner], date_order: opts.datetimeRead ?? orderDatetime, validity_date: '2026-12-31' },
  ]);
  expect(r.order_unlink).toBe(true);
}

/**
 * What `date_order` reads back as when a Node client (node-xmlrpc) sends {@link orderDatetime} as a
 * UTC `Date` from a process in `timeZone`: node-xmlrpc writes the local wall-clock time with no
 * offset, and Odoo takes a naive datetime as UTC.
 */
export function localWallClock(timeZone: string): string {
  const utc = new Date(`${orderDatetime.replace(' ', 'T')}Z`);
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(utc);
}

/** The environment for the Node client scripts: America/New_York, so a UTC assumption would show. */
export const nodeClientEnv = { ...process.env, TZ: 'America/New_York' };

/** Runs a client script; resolves with its stdout parsed as JSON. A non-zero exit rejects with its stderr. */
export function runClientScript(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<Record<string, Record<string, unknown>>> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: 60_000, env, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`${command} ${args[0] ?? ''} failed: ${err.message}\n${stderr}`));
      try {
        resolve(JSON.parse(stdout) as Record<string, Record<string, unknown>>);
      } catch (parseErr) {
        reject(new Error(`${command} printed no JSON: ${String(parseErr)}\n${stdout}\n${stderr}`));
      }
    });
  });
}

/** One recorded fault: the exception (or fault object) class the library gave, and the fault's two members. */
export interface RecordedFault {
  class: string;
  faultCode: unknown;
  faultString: unknown;
  [more: string]: unknown;
}

/** Asserts the four faults of the core session: the library's class name and Odoo's faultCode and faultString. */
export function expectFaults(faults: unknown, tag: 'v1' | 'v2', className: string): void {
  const got = faults as Record<string, RecordedFault>;
  expect(Object.keys(got).sort()).toEqual(['1', '2', '3', '4']);
  for (const [code, want] of Object.entries(expectedFaults[tag])) {
    const fault = got[code] as RecordedFault;
    expect(fault.class, `fault ${code}`).toBe(className);
    expect(fault.faultCode, `fault ${code}`).toEqual(want.faultCode);
    if ('lastLine' in want) expectTraceback(fault.faultString, want.lastLine);
    else expect(fault.faultString, `fault ${code}`).toBe(want.faultString);
  }
}
