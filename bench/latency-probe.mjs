/**
 * Loaded into a Node hop (`node --import bench/latency-probe.mjs …`) by `npm run bench:profile --
 * --latency`: times each request's way through the hop from Node's and undici's diagnostics
 * channels, with no change to the hop's code. For every request it answers, at concurrency 1:
 *
 *   in    Node's HTTP server has parsed the request's head (`http.server.request.start`)
 *   sent  undici has written the upstream request's head (`undici:client:sendHeaders`), first one
 *   done  the upstream answer is complete (`undici:request:trailers`), first one
 *   out   the hop calls `end()` on its response: the answer leaves (the `finish` event would also
 *         count the time the client, woken by the write, keeps this core)
 *
 * On SIGUSR2 the rows so far are written as JSON to `LATENCY_PROBE_FILE`.
 */
import dc from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const file = process.env.LATENCY_PROBE_FILE;
if (file === undefined) throw new Error('latency-probe: LATENCY_PROBE_FILE is not set');

const rows = [];
let current;

dc.subscribe('http.server.request.start', ({ response }) => {
  const row = { in: performance.now() };
  current = row;
  const end = response.end;
  response.end = function endTimed(...args) {
    row.out ??= performance.now();
    return end.apply(this, args);
  };
  response.once('finish', () => rows.push(row));
});
dc.subscribe('undici:client:sendHeaders', () => {
  if (current !== undefined) current.sent ??= performance.now();
});
dc.subscribe('undici:request:trailers', () => {
  if (current !== undefined) current.done ??= performance.now();
});

process.on('SIGUSR2', () => writeFileSync(file, JSON.stringify(rows)));
