// Test-only preload (hardening tests): with --expose-gc, SIGUSR2 makes the gateway child collect its
// garbage, so a test reads VmRSS after a full GC. Never loaded by the gateway itself.
process.on('SIGUSR2', () => globalThis.gc?.());
