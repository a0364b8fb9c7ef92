/**
 * An ordinary fault (fault 1, JSON-RPC `data.debug`) carries the traceback JSON-2 answered: its
 * frames are JSON-2's dispatch, not the legacy one's; its last line is Odoo's (COMPATIBILITY.md,
 * "Ordinary faults carry JSON-2's traceback lines").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson, stringifyJson } from '../../src/json/index.ts';
import { isStruct, type Value } from '../../src/value.ts';
import { startStack, toValue, type Stack } from '../support/stack.ts';

describe("an ordinary fault's traceback", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it("is JSON-2's debug text as the upstream answered it", async () => {
    const key = stack.sim.keyFor('demo', 'admin');
    const json2 = await fetch(`${stack.sim.url}/json/2/res.partner/read`, {
      method: 'POST',
      headers: { authorization: `bearer ${key}`, 'x-odoo-database': 'demo', 'content-type': 'application/json' },
      body: stringifyJson(toValue({ ids: [1], fields: ['nofield'] })),
    });
    const body = parseJson(await json2.text());
    const upstreamDebug = isStruct(body) ? body.get('debug') : undefined;
    expect(typeof upstreamDebug).toBe('string');

    const legacy = await stack.jsonrpc('object', 'execute_kw', ['demo', 2, key, 'res.partner', 'read', [[1], ['nofield']]]);
    const data = legacy.error?.get('data');
    const debug = isStruct(data as Value) ? (data as Map<string, Value>).get('debug') : undefined;
    expect(debug).toBe(upstreamDebug);
    expect(String(debug)).toMatch(/Invalid field 'nofield' on 'res.partner'\n?$/);
  });
});
