/**
 * `common.authenticate` with an API key answers False, as Odoo does, once the key is revoked or its
 * user archived: within the bound a changed password has (`--revalidate-interval`), not after the
 * key cache's 15 minutes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

/** Asks until `authenticate` answers False; resolves with the number of answers it took. */
async function untilRefused(s: Stack, login: string, key: string): Promise<number> {
  for (let tries = 1; tries <= 200; tries++) {
    const { result } = await s.jsonrpc('common', 'authenticate', ['demo', login, key, {}]);
    if (result === false) return tries;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('authenticate kept answering the uid');
}

describe('common.authenticate with an API key Odoo no longer accepts', () => {
  it('answers False after the key is revoked', async () => {
    stack = await startStack({ flags: ['--revalidate-interval', '1000'] });
    const key = stack.sim.keyFor('demo', 'demo');
    expect((await stack.jsonrpc('common', 'authenticate', ['demo', 'demo', key, {}])).result).toBe(5);
    expect(stack.sim.keys.removeKey(key)).toBe(true);
    expect(await untilRefused(stack, 'demo', key)).toBeGreaterThan(0);
  });

  it('answers False after the user is archived', async () => {
    stack = await startStack({ flags: ['--revalidate-interval', '1000'] });
    const key = stack.sim.keyFor('demo', 'demo');
    expect((await stack.jsonrpc('common', 'authenticate', ['demo', 'demo', key, {}])).result).toBe(5);
    const archived = await stack.jsonrpc('object', 'execute_kw', [
      'demo',
      2,
      stack.sim.keyFor('demo', 'admin'),
      'res.users',
      'write',
      [[5], { active: false }],
    ]);
    expect(archived.error).toBeUndefined();
    expect(await untilRefused(stack, 'demo', key)).toBeGreaterThan(0);
  });
});
