import { afterEach, describe, expect, it, vi } from 'vitest';
import { captureLog } from '../../test/support/captured-log.ts';
import { whileRunning, withProgress } from './transfer-progress.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('withProgress()', () => {
  it('logs the bytes so far every interval and once at the end, never an argument', async () => {
    const { log, matching } = captureLog();
    let clock = 0;
    async function* source() {
      for (let i = 0; i < 10; i++) {
        clock += 1_000;
        yield new Uint8Array(100);
      }
    }
    let total = 0;
    for await (const chunk of withProgress(source(), { log, requestId: 'r1', operation: 'dump', intervalMs: 3_000, now: () => clock }))
      total += chunk.byteLength;
    expect(total).toBe(1_000);
    expect(matching('db transfer in progress').map((l) => [l.bytes, l.elapsedMs])).toEqual([
      [300, 3_000],
      [600, 6_000],
      [900, 9_000],
    ]);
    expect(matching('db transfer done')).toMatchObject([{ requestId: 'r1', operation: 'dump', bytes: 1_000, elapsedMs: 10_000 }]);
  });
});

describe('whileRunning()', () => {
  it('logs while the task runs and stops when it settles', async () => {
    vi.useFakeTimers();
    const { log, matching } = captureLog();
    let finish: (v: string) => void = () => {};
    const task = new Promise<string>((resolve) => {
      finish = resolve;
    });
    const running = whileRunning(task, 4_096, { log, requestId: 'r2', operation: 'restore', intervalMs: 5_000, now: () => Date.now() });
    await vi.advanceTimersByTimeAsync(12_000);
    finish('done');
    expect(await running).toBe('done');
    await vi.advanceTimersByTimeAsync(20_000);
    expect(matching('db transfer in progress').map((l) => [l.operation, l.bytes, l.elapsedMs])).toEqual([
      ['restore', 4_096, 5_000],
      ['restore', 4_096, 10_000],
    ]);
  });
});
