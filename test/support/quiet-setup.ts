/**
 * Test setup (vitest.config.ts `setupFiles`): what a test writes straight to `process.stdout` or
 * `process.stderr` (Node's warnings included) goes through `console`, so vitest's `silent:
 * 'passed-only'` holds it back while the test passes and prints it with the test when it fails.
 */
type Write = typeof process.stdout.write;

function throughConsole(log: (text: string) => void): Write {
  return (
    chunk: string | Uint8Array,
    encoding?: BufferEncoding | ((err?: Error | null) => void),
    callback?: (err?: Error | null) => void,
  ) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString(typeof encoding === 'string' ? encoding : 'utf8');
    log(text.endsWith('\n') ? text.slice(0, -1) : text);
    (typeof encoding === 'function' ? encoding : callback)?.();
    return true;
  };
}

process.stdout.write = throughConsole((text) => console.log(text));
process.stderr.write = throughConsole((text) => console.error(text));
