// Test-only preload (hardening tests): with --expose-gc, SIGUSR2 makes the gateway child collect its
// garbage and print one JSON line with its memory figures (the same stdout the JSON log uses), so a
// test reads live memory after a full GC. Never loaded by the gateway itself.
process.on('SIGUSR2', () => {
  globalThis.gc?.();
  const m = process.memoryUsage();
  process.stdout.write(`${JSON.stringify({ msg: 'gc figures', heapUsed: m.heapUsed, external: m.external, rss: m.rss })}\n`);
});
