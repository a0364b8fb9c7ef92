// Test-only preload (hardening tests): with --expose-gc, SIGUSR2 makes the gateway child collect its
// garbage and print one JSON line with its memory figures (the same stdout the JSON log uses), so a
// test reads live memory after a full GC. Never loaded by the gateway itself.
// One gc() is not enough: memory held outside the V8 heap (`external`) is given back by finalizers
// that run after the collection, so a single pass reported 15-35 MB that a second pass 100 ms later
// no longer held. Three passes, 100 ms apart, give a figure that repeats.
const pause = () => new Promise((resolve) => setTimeout(resolve, 100));

process.on('SIGUSR2', async () => {
  for (let pass = 0; pass < 3; pass++) {
    globalThis.gc?.();
    await pause();
  }
  const m = process.memoryUsage();
  process.stdout.write(
    `${JSON.stringify({ msg: 'gc figures', heapUsed: m.heapUsed, external: m.external, heapTotal: m.heapTotal, rss: m.rss })}\n`,
  );
});
