import { execFileSync } from 'node:child_process';
import { PassThrough, Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runHashPasswordCommand } from './hash-password-command.ts';
import { verifyPassword } from './password-hash.ts';

async function run(input: string): Promise<string> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await runHashPasswordCommand(Readable.from([Buffer.from(input)]), out);
  return Buffer.concat(chunks).toString('utf8');
}

describe('runHashPasswordCommand()', () => {
  it('hashes the password read from standard input, dropping one final newline', async () => {
    const line = await run('s3cret pass\n');
    expect(line).toMatch(/^scrypt\$[^\n]+\n$/);
    expect(await verifyPassword('s3cret pass', line.trim())).toBe(true);
  });

  it('refuses an empty input', async () => {
    await expect(run('\n')).rejects.toThrow('hash-password: no password on standard input');
  });

  // a child process that compiles the whole gateway with tsx: on a loaded machine it takes its time
  it('is what `legacy-rpc-gateway hash-password` runs', () => {
    const main = fileURLToPath(new URL('../main.ts', import.meta.url));
    const line = execFileSync(process.execPath, ['--import', 'tsx', main, 'hash-password'], { input: 'from stdin\n', encoding: 'utf8' });
    expect(line).toMatch(/^scrypt\$32768\$8\$1\$[\w-]+\$[\w-]+\n$/);
  }, 180_000);
});
