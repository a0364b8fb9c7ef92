import { describe, expect, it } from 'vitest';
import { requestIdFrom } from './request-id.ts';

describe('requestIdFrom()', () => {
  it('keeps a short safe inbound id', () => {
    expect(requestIdFrom('abc-123_x.y:z')).toBe('abc-123_x.y:z');
  });

  it.each([['a b'], ['x'.repeat(129)], ['<script>'], ['']])('replaces %j', (inbound) => {
    expect(requestIdFrom(inbound)).toMatch(/^[0-9a-f-]{36}$/);
  });
});
