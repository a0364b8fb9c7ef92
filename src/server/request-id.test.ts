import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { headerRequestId, requestIdOf, requestIds } from './request-id.ts';

const app = new Hono();
app.use(requestIds());
app.get('/', (c) => c.text(requestIdOf(c)));

const idFor = async (inbound?: string) =>
  (await app.request('/', inbound === undefined ? {} : { headers: { [headerRequestId]: inbound } })).text();

describe('requestIds()', () => {
  it.each([['abc-123_x.y:z'], ['a=b'], ['x'.repeat(128)]])('keeps the short safe inbound id %j', async (inbound) => {
    expect(await idFor(inbound)).toBe(inbound);
  });

  it.each([['a b'], ['x'.repeat(129)], ['<script>'], ['']])('replaces %j', async (inbound) => {
    expect(await idFor(inbound)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('draws a fresh id for each request that sends none', async () => {
    const [a, b] = [await idFor(), await idFor()];
    expect(a).toMatch(/^[0-9a-f-]{36}$/);
    expect(b).not.toBe(a);
  });
});
