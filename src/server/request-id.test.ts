import { describe, expect, it } from 'vitest';
import { requestIdFor } from './request-id.ts';

describe('requestIdFor()', () => {
  it.each([['abc-123_x.y:z'], ['a=b'], ['x'.repeat(128)]])('keeps the short safe inbound id %j', (inbound) => {
    expect(requestIdFor(inbound)).toBe(inbound);
  });

  it.each([['a b'], ['x'.repeat(129)], ['<script>'], ['']])('replaces %j', (inbound) => {
    expect(requestIdFor(inbound)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('draws a fresh id for each request that sends none', () => {
    const [a, b] = [requestIdFor(undefined), requestIdFor(undefined)];
    expect(a).toMatch(/^[0-9a-f-]{36}$/);
    expect(b).not.toBe(a);
  });
});
