/**
 * `ir.model.data.check_object_reference` (what OdooRPC's `env.ref()` calls) over the captured
 * external IDs; expected answers as the real Odoo 19.0 gave them over legacy RPC.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson } from '../src/json/index.ts';
import { type Simulator, startSimulator } from './index.ts';
import { json2, plain } from './test-support.ts';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());

const ref = (body: string, login = 'admin') =>
  json2(sim, 'ir.model.data', 'check_object_reference', parseJson(body), { key: sim.keyFor('demo', login) });

describe('ir.model.data.check_object_reference', () => {
  it.each([
    ['{"module": "base", "xml_id": "user_admin"}', ['res.users', 2]],
    ['{"module": "base", "xml_id": "user_admin", "raise_on_access_error": true}', ['res.users', 2]],
    ['{"module": "base", "xml_id": "partner_admin"}', ['res.partner', 3]],
    ['{"module": "api_doc", "xml_id": "group_allow_doc"}', ['res.groups', 13]],
    ['{"module": "base", "xml_id": "lang_km"}', ['res.lang', false]], // archived: the search does not find it
  ])('answers %s with the model and id', async (body, expected) => {
    const a = await ref(body);
    expect([a.status, plain(a.value)]).toEqual([200, expected]);
  });

  it('answers the same to a user who can read the record', async () => {
    expect(plain((await ref('{"module": "base", "xml_id": "user_admin"}', 'demo')).value)).toEqual(['res.users', 2]);
  });

  it("raises Odoo's ValueError for an external ID that names nothing", async () => {
    const a = await ref('{"module": "base", "xml_id": "nope_nope"}');
    expect(a.status).toBe(500);
    expect(plain(a.value)).toMatchObject({ name: 'builtins.ValueError', message: 'External ID not found in the system: base.nope_nope' });
  });

  it('raises AccessError for a record the search does not find when asked to', async () => {
    const a = await ref('{"module": "base", "xml_id": "lang_km", "raise_on_access_error": true}');
    expect(a.status).toBe(403);
    expect(plain(a.value)).toMatchObject({
      name: 'odoo.exceptions.AccessError',
      message: 'Not enough access rights on the external ID "base.lang_km"',
    });
  });

  it('is model-level (ids refused) and binds its parameters by name', async () => {
    expect((await ref('{"ids": [1], "module": "base", "xml_id": "user_admin"}')).status).toBe(422);
    const missing = await ref('{"module": "base"}');
    expect([missing.status, (plain(missing.value) as { message: string }).message]).toEqual([422, "missing a required argument: 'xml_id'"]);
  });
});
