import { collectDefaultMetrics, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createMetrics } from './metrics.ts';
import { collectProcessMetrics } from './event-loop-lag.ts';

/** Keeps the event loop busy for `ms`. */
function block(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}
const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function lagMax(registry: Registry): Promise<number> {
  const text = await registry.metrics();
  return Number(/^nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(text)?.[1]);
}

describe('collectProcessMetrics()', () => {
  it("exposes every one of prom-client's default metrics, with its type and help", async () => {
    const reference = new Registry();
    collectDefaultMetrics({ register: reference });
    // the `# HELP` and `# TYPE` lines of the process and Node.js metrics
    const declared = (text: string) =>
      text
        .split('\n')
        .filter((l) => /^# (HELP|TYPE) (process|nodejs)_/.test(l))
        .sort();
    const theirs = declared(await reference.metrics());
    const ours = declared(await createMetrics().text());
    expect(ours.length).toBeGreaterThan(20);
    expect(ours).toEqual(theirs);
  });

  it('samples the event-loop lag while something is in flight, and not while idle', async () => {
    const registry = new Registry();
    const loop = collectProcessMetrics(registry);
    loop.busy();
    await tick(130); // the monitor's first sample only starts its clock
    block(150);
    await tick(130);
    expect(await lagMax(registry)).toBeGreaterThanOrEqual(0.03);
    loop.idle();
    await registry.metrics(); // a new window
    await tick(130);
    block(150);
    await tick(130);
    expect(await lagMax(registry)).toBe(0);
  });
});
