/**
 * OdooRPC 0.9.0 (Debian python3-odoorpc) runs a fixed session through the gateway in front of the
 * simulator: `/web/webclient/version_info` and `/web/session/authenticate` pass through to Odoo,
 * model calls go to `/jsonrpc` `object.execute`/`execute_kw` with the password, which the gateway
 * mints into an API key. Its login never reaches the gateway's `common` service: the gateway learns
 * the uid's login from the web login it passes through (no `--service-key` needed), and maps
 * positional arguments with its built-in table or signatures discovered with the call's own key.
 * Expected values come from the seed data.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';
import { runClientScript } from './core-session.ts';

let stack: Stack;
let out: Record<string, unknown>;

function fixture<T>(name: string): T {
  return (JSON.parse(readFileSync(new URL(`../../fixtures/odoo-data/${name}`, import.meta.url), 'utf8')) as { records: T }).records;
}
interface Partner {
  id: number;
  name: string;
  is_company: boolean;
  active: boolean;
  credit_limit: number;
  country_id: [number, string] | false;
}
interface User {
  id: number;
  login: string;
  name: string;
  lang: string;
  tz: string | false;
  company_id: [number, string];
}
const partners = fixture<Partner[]>('res.partner.json');
const companies = partners.filter((p) => p.is_company && p.active).sort((a, b) => a.id - b.id);
const admin = fixture<User[]>('res.users.json').find((u) => u.login === 'admin') as User;

beforeAll(async () => {
  // No --service-key: the gateway learns the uid's login from the web login passing through it.
  stack = await startStack({ databases: ['demo'] });
  const password = stack.sim.users('demo').find((u) => u.login === 'admin')?.password ?? '';
  const script = new URL('./odoorpc_session.py', import.meta.url).pathname;
  // python3-odoorpc installs into Debian's own Python
  out = await runClientScript('/usr/bin/python3', [
    script,
    stack.gateway.url,
    'demo',
    'admin',
    password,
    stack.sim.keyFor('demo', 'admin'),
  ]);
}, 90_000);
afterAll(() => stack.close());

describe('OdooRPC 0.9.0', () => {
  it('detects the version and logs in over the passed-through web routes', () => {
    expect(out.odoorpc).toBe('0.9.0');
    expect(out.version).toBe('19.0');
    expect(out.uid).toBe(admin.id);
    expect(out.context).toEqual({ lang: admin.lang, tz: admin.tz, uid: admin.id });
    const paths = stack.sim.log.map((r) => r.path);
    expect(paths.slice(0, 3)).toEqual(['/web/webclient/version_info', '/web/session/authenticate', '/web/session/authenticate']);
    expect(paths).not.toContain('/jsonrpc');
  });

  it("cannot log in with an API key: Odoo's web login refuses keys", () => {
    expect(out.key_login).toEqual({ class: 'odoorpc.error.RPCError', message: 'Access Denied', name: 'odoo.exceptions.AccessDenied' });
  });

  it("reads ir.model for 'model' in odoo.env, and fields_get for env['res.partner']", () => {
    expect(out.in_env).toEqual({ 'res.partner': true, 'no.such.model': false });
    expect(out.has_fields).toEqual(['child_ids', 'country_id', 'credit_limit', 'name']);
  });

  it('searches, reads and browses res.partner, floats as float', () => {
    expect(out.search).toEqual(companies.map((p) => p.id));
    expect(out.read).toEqual(companies.slice(0, 3).map((p) => ({ id: p.id, name: p.name, country_id: p.country_id })));
    expect(out.browse).toEqual(
      companies
        .slice(0, 3)
        .map((p) => ({ id: p.id, name: p.name, country: p.country_id === false ? false : p.country_id[1], credit_limit: p.credit_limit })),
    );
    expect(out.float_type).toBe('float');
  });

  it('writes with write() and by assignment', () => {
    expect(out.write_read).toEqual([{ id: 13, name: 'LightsUp & <odoorpc> 😀' }]);
    expect(out.assign_read).toEqual([{ id: 13, name: partners.find((p) => p.id === 13)?.name }]);
  });

  it('reads env.user', () => {
    expect(out.user).toEqual({ id: admin.id, name: admin.name, login: admin.login, company: admin.company_id[1] });
  });

  it("resolves env.ref('base.user_admin') and calls a model method with positional arguments, without a service key", () => {
    expect(out.ref).toEqual({ model: 'res.users', ids: [admin.id], login: admin.login });
    const sent = (method: string) =>
      stack.sim.log.filter((r) => r.path === `/json/2/${method}`).map((r) => JSON.parse(r.body) as Record<string, unknown>);
    expect(sent('ir.model.data/check_object_reference')).toEqual([{ module: 'base', xml_id: 'user_admin', raise_on_access_error: true }]);
    expect(out.positional).toEqual({ ids: [3], note: 'from odoorpc', flag: true });
    expect(sent('res.partner/action_gateway_demo')).toEqual([expect.objectContaining({ ids: [3], note: 'from odoorpc', flag: true })]);
    // the signature came from /doc-bearer, asked with the key the call itself used
    const doc = stack.sim.log.find((r) => r.path === '/doc-bearer/res.partner.json');
    const call = stack.sim.log.find((r) => r.path === '/json/2/res.partner/action_gateway_demo');
    expect(doc?.headers.authorization).toBe(call?.headers.authorization);
  });

  it("raises odoorpc.error.RPCError with Odoo's message", () => {
    expect(out.error).toEqual({
      class: 'odoorpc.error.RPCError',
      message: "Object no.such.model doesn't exist",
      name: 'odoo.exceptions.UserError',
      code: 0,
    });
  });
});
