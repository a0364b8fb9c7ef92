/**
 * prom-client's process and Node.js metrics, with the event-loop lag sampled only while the gateway
 * is answering something. prom-client samples it on a timer that runs for ever (every 10 ms by
 * default, 100 ms here before): between an integration's calls that timer was most of what an idle
 * gateway cost, ~1 ms of CPU a second on this machine and each wake-up a cold one (issue #41). An
 * idle loop has no lag to measure; a busy one is sampled every {@link busySampleMs}.
 *
 * The metric names, help texts and aggregators are prom-client's own (lib/metrics/eventLoopLag.js);
 * a scrape window in which nothing was in flight reports 0 for the lag statistics (prom-client would
 * report a histogram's empty values: a huge minimum and NaN).
 */
import { createRequire } from 'node:module';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Gauge, collectDefaultMetrics, type Registry } from 'prom-client';

/**
 * Milliseconds between event-loop lag samples while something is in flight. A small call at
 * concurrency 1 ends before the first sample, and costs no timer wake-up; a loop kept busy (a burst
 * of calls, a large answer) is sampled every 100 ms, where a lag worth seeing shows. At 10 ms, a
 * 50 ms call cost five wake-ups, more than the idle timer it replaced (issue #41).
 */
export const busySampleMs = 100;

type DefaultCollector = (registry: Registry, config: Record<string, unknown>) => void;

/**
 * prom-client's default collectors but its event-loop lag one. Loaded from prom-client's own files
 * (`collectDefaultMetrics.metricsList` names them); the test of this module holds the exposed names
 * to prom-client's full default set, so a prom-client that moves them fails it.
 */
function defaultCollectorsButLag(): DefaultCollector[] {
  const require = createRequire(import.meta.url);
  return collectDefaultMetrics.metricsList
    .filter((name) => name !== 'eventLoopLag')
    .map((name) => require(`prom-client/lib/metrics/${name}`) as DefaultCollector);
}

/** Whether the gateway is answering something: the lag is sampled only in between. */
export interface LoopActivity {
  /** Something started (the first request in flight). */
  busy(): void;
  /** Nothing is in flight any more. */
  idle(): void;
}

/** Registers the process metrics on `registry` and returns the switch for the lag sampling. */
export function collectProcessMetrics(registry: Registry): LoopActivity {
  for (const collect of defaultCollectorsButLag()) collect(registry, {});
  const histogram = monitorEventLoopDelay({ resolution: busySampleMs });
  let busy = false;
  const registers = [registry];
  const stat = (read: () => number) => () => (histogram.count === 0 ? 0 : read() / 1e9);
  const stats: [string, string, 'min' | 'max' | 'average', () => number][] = [
    ['min', 'The minimum recorded event loop delay.', 'min', stat(() => histogram.min)],
    ['max', 'The maximum recorded event loop delay.', 'max', stat(() => histogram.max)],
    ['mean', 'The mean of the recorded event loop delays.', 'average', stat(() => histogram.mean)],
    ['stddev', 'The standard deviation of the recorded event loop delays.', 'average', stat(() => histogram.stddev)],
    ['p50', 'The 50th percentile of the recorded event loop delays.', 'average', stat(() => histogram.percentile(50))],
    ['p90', 'The 90th percentile of the recorded event loop delays.', 'average', stat(() => histogram.percentile(90))],
    ['p99', 'The 99th percentile of the recorded event loop delays.', 'average', stat(() => histogram.percentile(99))],
  ];
  // registered first, as in prom-client: a scrape reads the metrics in this order, and this one's
  // collect sets the others
  new Gauge({
    name: 'nodejs_eventloop_lag_seconds',
    help: 'Lag of event loop in seconds.',
    registers,
    aggregator: 'average',
    // as prom-client: this one metric's collect sets them all, then the window starts again
    collect() {
      const start = process.hrtime.bigint();
      setImmediate(() => this.set(Number(process.hrtime.bigint() - start) / 1e9));
      stats.forEach(([, , , read], i) => gauges[i]!.set(read()));
      histogram.reset();
    },
  });
  const gauges = stats.map(
    ([name, help, aggregator]) => new Gauge({ name: `nodejs_eventloop_lag_${name}_seconds`, help, registers, aggregator }),
  );
  return {
    busy() {
      if (busy) return;
      busy = true;
      histogram.enable();
    },
    idle() {
      if (!busy) return;
      busy = false;
      histogram.disable();
    },
  };
}
