/**
 * Python's xmlrpc.client (v1 and v2) and a raw /jsonrpc client run a fixed session through the
 * gateway in front of the simulator; every value and fault is asserted exactly. Expected records
 * come from the seed data (fixtures/odoo-data), not from the gateway.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';

const run = promisify(execFile);
let stack: Stack;
let out: Record<string, Record<string, unknown>>;

interface Partner {
  id: number;
  name: string;
  is_company: boolean;
  active: boolean;
  credit_limit: number;
  country_id: [number, string] | false;
}
const partners = (JSON.parse(readFileSync(new URL('../../fixtures/odoo-data/res.partner.json', import.meta.url), 'utf8')) as { records: Partner[] }).records;
const companies = partners.filter((p) => p.is_company && p.active).sort((a, b) => a.id - b.id);

beforeAll(async () => {
  stack = await startStack({ databases: ['demo'] });
  const key = stack.sim.keyFor('demo', 'admin');
  const script = new URL('./python_session.py', import.meta.url).pathname;
  const { stdout } = await run('python3', [script, stack.gateway.url, 'demo', key], { timeout: 60_000 });
  out = JSON.parse(stdout);
}, 90_000);
afterAll(() => stack.close());

describe.each(['v2', 'v1'])('Python xmlrpc.client on %s', (tag) => {
  const r = () => out[tag] as Record<string, unknown>;

  it('reads version and authenticates with the API key', () => {
    expect(r().version).toEqual({ server_version: '19.0', server_version_info: [19, 0, 0, 'final', 0, ''], server_serie: '19.0', protocol_version: 1 });
    expect(r().uid).toBe(2);
  });

  it('search_reads with floats that stay floats', () => {
    expect(r().search_read).toEqual(companies.slice(0, 3).map((p) => ({ id: p.id, name: p.name, credit_limit: p.credit_limit })));
    // credit_limit is 0.0 in the seed: the client must have received a <double>, not an <int>.
    expect(r().float_type).toBe('float');
  });

  it('reads many2one as [id, name] and datetimes as strings', () => {
    const p = companies[0] as Partner;
    const [row] = r().read as Record<string, unknown>[];
    expect(row).toMatchObject({ id: p.id, name: p.name, country_id: p.country_id });
    expect(row?.create_date).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  it('creates, writes, reads back unicode and markup exactly, unlinks', () => {
    expect(r().create).toBeTypeOf('number');
    expect(r().write).toBe(true);
    expect(r().read_back).toEqual([{ id: r().create, name: `E2E & <tag> ]]> 😀 ${tag} v2` }]);
    expect(r().unlink).toBe(true);
    expect(r().read_gone).toEqual([]);
  });

  it('raises the faults Odoo raises, with the dialect\'s faultCode type', () => {
    if (tag === 'v2') {
      expect(r().fault_unknown_model).toMatchObject({ type: 'int', code: 2 });
      expect(r().fault_private).toMatchObject({ type: 'int', code: 4, last: "Private methods (such as 'res.partner._read') cannot be called remotely." });
      expect(r().fault_typeerror).toEqual({ type: 'int', code: 1, last: 'TypeError: BaseModel.search_count() takes from 2 to 3 positional arguments but 5 were given' });
      expect(r().fault_bad_key).toEqual({ type: 'int', code: 3, last: 'Access Denied' });
      expect(r().fault_missing).toMatchObject({ type: 'int', code: 2 });
    } else {
      expect(r().fault_unknown_model).toMatchObject({ type: 'str', code: "warning -- UserError\n\nObject no.such.model doesn't exist", last: '' });
      expect(r().fault_private).toMatchObject({ type: 'str', code: "warning -- AccessError\n\nPrivate methods (such as 'res.partner._read') cannot be called remotely." });
      expect(r().fault_typeerror).toMatchObject({ type: 'str', code: 'BaseModel.search_count() takes from 2 to 3 positional arguments but 5 were given' });
      expect(r().fault_bad_key).toEqual({ type: 'str', code: 'AccessDenied', last: 'Access Denied' });
      expect((r().fault_missing as { code: string }).code).toMatch(/^warning -- MissingError\n\nRecord does not exist or has been deleted\./);
    }
  });
});

describe('raw /jsonrpc client', () => {
  const j = () => out.jsonrpc as Record<string, { id: number; result?: unknown; error?: { code: number; data: { name: string; message: string } } }>;

  it('runs search_read, create, write, read, unlink', () => {
    expect(j().search_read?.result).toEqual(companies.slice(0, 2).map((p) => ({ id: p.id, name: p.name })));
    expect(j().create?.result).toBeTypeOf('number');
    expect(j().write?.result).toBe(true);
    expect(j().read?.result).toEqual([{ id: j().create?.result, name: 'E2E json 2' }]);
    expect(j().unlink?.result).toBe(true);
    expect(j().unlink?.id).toBe(42);
  });

  it('answers errors in the envelope Odoo 19 uses (code 0)', () => {
    expect(j().fault_unknown_model?.error).toMatchObject({ code: 0, message: 'Odoo Server Error', data: { name: 'odoo.exceptions.UserError' } });
    expect(j().fault_bad_key?.error?.data).toMatchObject({ name: 'odoo.exceptions.AccessDenied', message: 'Access Denied' });
    expect(j().fault_typeerror?.error?.data.name).toBe('builtins.TypeError');
  });
});
