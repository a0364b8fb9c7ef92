/**
 * Replays every entry of `fixtures/odoo-data/_search-examples.json` (captured from Odoo 19) against
 * the simulator and compares status and body. The captured `debug` is a placeholder, so only its
 * shape is checked.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson, stringifyJson } from '../src/json/index.ts';
import type { Struct, Value } from '../src/value.ts';
import { type Simulator, startSimulator } from './index.ts';
import { odooDataUrl } from './seed.ts';
import { plain, rawCall, sameValue } from './test-support.ts';

const data = parseJson(readFileSync(new URL('_search-examples.json', odooDataUrl), 'utf8')) as Struct;
const entries = [...(data.get('examples') as Struct[]), ...(data.get('error_examples') as Struct[])];

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ databases: ['demo'] });
});
afterAll(() => sim.close());

function withoutDebug(v: Value | undefined): Value | undefined {
  if (!(v instanceof Map) || !v.has('debug')) return v;
  const copy = new Map(v);
  copy.delete('debug');
  return copy;
}

describe('_search-examples.json replay', () => {
  it.each(entries.map((e) => [`${String(e.get('method'))} #${String(e.get('n'))}: ${String(e.get('what'))}`, e] as const))(
    '%s',
    async (_name, entry) => {
      const noAuth = String(entry.get('what')).includes('no Authorization');
      const answer = await rawCall(sim, String(entry.get('path')), {
        key: noAuth ? null : sim.keyFor('demo', 'admin'),
        db: 'demo',
        body: stringifyJson(entry.get('request') as Value),
      });
      expect(answer.status).toBe(entry.get('status'));
      const expected = entry.get('response') as Value;
      const same = sameValue(withoutDebug(answer.value), withoutDebug(expected));
      if (!same) expect(plain(answer.value)).toEqual(plain(expected));
      expect(same).toBe(true);
      if (expected instanceof Map && expected.has('debug')) {
        const debug = (answer.value as Struct).get('debug');
        expect(typeof debug).toBe('string');
        expect(String(debug).endsWith(`${String(expected.get('message'))}\n`)).toBe(true);
      }
    },
  );
});
