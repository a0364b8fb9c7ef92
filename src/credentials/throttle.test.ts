import { describe, expect, it } from 'vitest';
import { createThrottle } from './throttle.ts';

function setup() {
  let t = 0;
  const throttle = createThrottle({ failures: 3, backoffMs: 1000, maxBackoffMs: 8000, max: 100, now: () => t });
  const blocked = (key = 'k') => {
    try {
      throttle.check(key);
      return undefined;
    } catch (err) {
      return (err as Error).message.replace(/^.*next attempt in (\d+) s\)$/, '$1 s');
    }
  };
  return { throttle, blocked, advance: (ms: number) => void (t += ms) };
}

describe('createThrottle()', () => {
  it('blocks after the failures, for a backoff doubled per further failure up to the maximum', () => {
    const { throttle, blocked, advance } = setup();
    throttle.failure('k');
    throttle.failure('k');
    expect(blocked()).toBeUndefined();
    throttle.failure('k');
    expect(blocked()).toBe('1 s');
    expect(blocked('other')).toBeUndefined();
    advance(1001);
    expect(blocked()).toBeUndefined();
    throttle.failure('k');
    expect(blocked()).toBe('2 s');
    for (let i = 0; i < 10; i++) throttle.failure('k');
    expect(blocked()).toBe('8 s');
  });

  it('forgets after a success, and after failures older than the maximum backoff', () => {
    const { throttle, blocked, advance } = setup();
    for (let i = 0; i < 3; i++) throttle.failure('k');
    throttle.success('k');
    expect(blocked()).toBeUndefined();
    for (let i = 0; i < 2; i++) throttle.failure('k');
    advance(8001);
    throttle.failure('k');
    expect(blocked()).toBeUndefined();
  });
});
