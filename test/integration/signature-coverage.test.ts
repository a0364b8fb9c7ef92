/**
 * Where the signatures of the seeded models come from: every method of the 19 models of the
 * built-in table, plus every method `/doc-bearer` documents for the 8 recorded models (the custom
 * ones included), resolved by the gateway's own resolver against the simulator — with discovery on
 * (an admin service key) and off (no key). Prints the figures; pins them so a change is noticed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMethodTable } from '../../scripts/gen-signature-table.ts';
import { startSimulator, type Simulator } from '../../sim/index.ts';
import { loadConfig } from '../../src/config.ts';
import { parseJson } from '../../src/json/index.ts';
import { createLogger } from '../../src/log.ts';
import { createSignatureResolverFromConfig, type MethodSignature } from '../../src/signatures/index.ts';
import { createUpstream, type Upstream } from '../../src/upstream/index.ts';

type Counts = Record<'discovered' | 'builtin' | 'generic' | 'override' | 'fallback', number>;

let sim: Simulator;
let upstream: Upstream;
let pairs: [model: string, method: string][];

/** `model → methods` documented on `/doc-bearer` (the recorded 8 models and the custom methods). */
async function documented(): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const headers = { authorization: `bearer ${sim.keyFor('demo', 'admin')}` };
  const index = parseJson(await (await fetch(`${sim.url}/doc-bearer/index.json`, { headers })).text()) as Map<string, unknown>;
  for (const entry of index.get('models') as Map<string, unknown>[])
    out.set(entry.get('model') as string, entry.get('methods') as string[]);
  return out;
}

async function countSources(flags: string[]): Promise<Counts> {
  const config = loadConfig(['--upstream', sim.url, ...flags], {});
  const resolver = createSignatureResolverFromConfig(config, upstream, createLogger('silent'));
  const counts: Counts = { discovered: 0, builtin: 0, generic: 0, override: 0, fallback: 0 };
  for (const [model, method] of pairs)
    counts[((await resolver.resolve('demo', model, method)) as MethodSignature | undefined)?.source ?? 'fallback']++;
  return counts;
}

beforeAll(async () => {
  sim = await startSimulator();
  upstream = createUpstream(loadConfig(['--upstream', sim.url], {}));
  const table = readMethodTable();
  const union = new Map<string, Set<string>>(Object.entries(table).map(([model, methods]) => [model, new Set(Object.keys(methods))]));
  for (const [model, methods] of await documented()) for (const m of methods) union.get(model)?.add(m);
  pairs = [...union].flatMap(([model, methods]) => [...methods].map((m): [string, string] => [model, m]));
});
afterAll(async () => {
  await upstream.close();
  await sim.close();
});

describe('signature sources for the seeded models', () => {
  it('counts 19 models and 1267 methods (1265 in the table, 2 custom)', () => {
    expect(new Set(pairs.map(([model]) => model)).size).toBe(19);
    expect(pairs).toHaveLength(1267);
  });

  it('with discovery on: 531 discovered, 736 from the table, none left to the fallback', async () => {
    const counts = await countSources(['--service-key', sim.keyFor('demo', 'admin')]);
    console.log(`signature sources, discovery on: ${JSON.stringify(counts)}`);
    expect(counts).toEqual({ discovered: 531, builtin: 736, generic: 0, override: 0, fallback: 0 });
  });

  it('with discovery off: 1265 from the table, the 2 custom methods left to the fallback', async () => {
    const counts = await countSources([]);
    console.log(`signature sources, discovery off: ${JSON.stringify(counts)}`);
    expect(counts).toEqual({ discovered: 0, builtin: 1265, generic: 0, override: 0, fallback: 2 });
  });
});
