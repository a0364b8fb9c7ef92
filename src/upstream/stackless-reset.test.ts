import { describe, expect, it } from 'vitest';
import { closesAfterAnswer, stacklessUntilNextTick } from './stackless-reset.ts';

describe('stacklessUntilNextTick()', () => {
  it('errors made in the same tick carry no frames; the limit is back on the next tick', async () => {
    const limit = Error.stackTraceLimit;
    stacklessUntilNextTick();
    stacklessUntilNextTick(); // twice in a tick: still restored to the original, not to 0
    expect(new Error('reset').stack).toBe('Error: reset');
    await new Promise((resolve) => process.nextTick(resolve));
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error('later').stack?.split('\n').length).toBeGreaterThan(1);
  });
});

describe('closesAfterAnswer()', () => {
  it.each([
    [{ connection: 'close' }, true],
    [{ connection: 'Close' }, true],
    [{ connection: 'keep-alive, close' }, true],
    [{ connection: ['keep-alive', 'close'] }, true],
    [{ connection: 'keep-alive' }, false],
    [{ connection: 'closed' }, false],
    [{}, false],
  ])('%o → %s', (headers, closes) => {
    expect(closesAfterAnswer(headers)).toBe(closes);
  });
});
