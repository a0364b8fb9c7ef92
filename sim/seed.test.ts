/**
 * The seed round-trips: `search_read` of every exported field of every model (archived records
 * included, as the capture was made) gives back the captured records exactly — which checks the
 * display-name rules, x2many orders, empty values and float-ness against real Odoo output.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Value } from '../src/value.ts';
import { type Simulator, startSimulator } from './index.ts';
import { loadSeed } from './seed.ts';
import { json2, plain, sameValue } from './test-support.ts';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());

describe('seed', () => {
  const models = [...loadSeed().models.values()];

  it('holds every model file of fixtures/odoo-data', () => {
    expect(models.map((m) => m.model)).toContain('res.partner');
    expect(models.length).toBe(15);
  });

  it.each(models.map((m) => [m.model, m] as const))('reads %s back exactly as captured', async (_name, m) => {
    const fields = [...m.fields.keys()];
    const body = new Map<string, Value>([
      ['domain', []],
      ['fields', fields],
      ['order', 'id'],
      ['context', new Map([['active_test', false]])],
    ]);
    const answer = await json2(sim, m.model, 'search_read', body, { key: sim.keyFor('demo', 'admin') });
    expect(answer.status).toBe(200);
    const got = answer.value as Map<string, Value>[];
    expect(got.length).toBe(m.records.length);
    const mismatches: unknown[] = [];
    m.records.forEach((expected, i) => {
      for (const f of fields) {
        if (!sameValue(got[i]?.get(f), expected.get(f))) {
          mismatches.push({ id: expected.get('id'), field: f, got: plain(got[i]?.get(f)), want: plain(expected.get(f)) });
        }
      }
    });
    expect(mismatches).toEqual([]);
  });
});
