/**
 * `ir.model` in the simulator: the read-only list of models OdooRPC's `'x' in odoo.env` searches.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson } from '../../src/json/index.ts';
import type { Struct } from '../../src/value.ts';
import { type Simulator, startSimulator } from '../index.ts';
import { json2 } from '../test-support.ts';

let sim: Simulator;
let key: string;
beforeAll(async () => {
  sim = await startSimulator({ databases: ['demo'] });
  key = sim.keyFor('demo', 'admin');
});
afterAll(() => sim.close());

const call = (method: string, body: Record<string, unknown>) =>
  json2(sim, 'ir.model', method, parseJson(JSON.stringify(body)), { key, db: 'demo' });

describe('ir.model', () => {
  it('finds a model by its technical name, with its description', async () => {
    const found = await call('search_read', { domain: [['model', '=', 'res.partner']], fields: ['model', 'name', 'state', 'transient'] });
    expect(found.status).toBe(200);
    const rows = found.value as Struct[];
    expect(rows).toHaveLength(1);
    expect(Object.fromEntries(rows[0] as Struct)).toMatchObject({ model: 'res.partner', name: 'Contact', state: 'base', transient: false });
  });

  it('finds nothing for a model that does not exist', async () => {
    const found = await call('search', { domain: [['model', '=', 'no.such.model']] });
    expect(found.status).toBe(200);
    expect(found.value).toEqual([]);
  });

  it('lists every model of the database, itself and the wizards included', async () => {
    const models = (await call('search_read', { domain: [['transient', '=', true]], fields: ['model'] })).value as Struct[];
    expect(models.map((m) => m.get('model'))).toEqual(['res.users.apikeys.description', 'res.users.identitycheck']);
    const count = await call('search_count', { domain: [['model', 'in', ['ir.model', 'sale.order', 'res.users.apikeys']]] });
    expect(count.value).toBe(3);
  });

  it('refuses writes: the list is read-only', async () => {
    const created = await call('create', { vals_list: [{ model: 'x.y', name: 'X' }] });
    expect(created.status).toBe(500);
    expect((created.value as Struct).get('name')).toBe('builtins.NotImplementedError');
  });
});
