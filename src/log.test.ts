import { spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { createLogger, createProcessLogger, PrettyLogsUnavailable, stdoutDestination } from './log.ts';

/** A stream keeping what was written. */
function sink() {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString('utf8');
      done();
    },
  });
  return { stream, text: () => text };
}

const secrets = { password: 'hunter2', headers: { authorization: 'Bearer abc', cookie: 'session_id=x', 'set-cookie': ['session_id=y'] } };

describe('createProcessLogger()', () => {
  it.each([
    ['json', true],
    ['auto', false],
  ] as const)('writes JSON lines for %s (terminal: %s), redacted', (format, isTty) => {
    const out = sink();
    createProcessLogger('info', format, { isTty, destination: out.stream }).info(secrets, 'legacy call');
    const line = JSON.parse(out.text()) as Record<string, unknown>;
    expect(line).toMatchObject({ level: 30, name: 'legacy-rpc-gateway', msg: 'legacy call', password: '[redacted]' });
    expect(line.headers).toEqual({ authorization: '[redacted]', cookie: '[redacted]', 'set-cookie': '[redacted]' });
  });

  it.each([
    ['pretty', false],
    ['auto', true],
  ] as const)('writes pretty lines for %s (terminal: %s), redacted as well', (format, isTty) => {
    const out = sink();
    createProcessLogger('info', format, { isTty, destination: out.stream }).info(secrets, 'legacy call');
    // eslint-disable-next-line no-control-regex -- ANSI colour codes start with ESC
    const text = out.text().replace(/\x1b\[[0-9;]*m/g, '');
    expect(text).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: legacy call\n/);
    expect(text).toContain('password: "[redacted]"');
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('session_id');
    expect(text).not.toContain('Bearer abc');
  });

  it('loads pino-pretty only when pretty lines are asked for, and says so clearly when it is missing', () => {
    let loads = 0;
    const missing = () => {
      loads++;
      return undefined;
    };
    const out = sink();
    createProcessLogger('info', 'json', { isTty: true, destination: out.stream, loadPretty: missing }).info('json line');
    expect(loads).toBe(0);
    // auto in a terminal without pino-pretty: JSON lines, no failure
    createProcessLogger('info', 'auto', { isTty: true, destination: out.stream, loadPretty: missing }).info('auto line');
    expect(loads).toBe(1);
    expect(
      out
        .text()
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { msg: string }).msg),
    ).toEqual(['json line', 'auto line']);
    expect(() => createProcessLogger('info', 'pretty', { isTty: false, destination: out.stream, loadPretty: missing })).toThrow(
      PrettyLogsUnavailable,
    );
    expect(() => createProcessLogger('info', 'pretty', { loadPretty: missing })).toThrow(
      /needs the pino-pretty package.*npm install pino-pretty.*--log-format json/,
    );
  });
});

describe('stdoutDestination()', () => {
  const lines = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean);

  it('holds JSON lines up to the interval, then writes them together; with 0, writes each at once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'log-flush-'));
    const heldFile = join(dir, 'held.log');
    const nowFile = join(dir, 'now.log');
    const held = stdoutDestination(1_500, openSync(heldFile, 'w'));
    const now = stdoutDestination(0, openSync(nowFile, 'w'));
    try {
      const heldLog = createLogger('info', held);
      const nowLog = createLogger('info', now);
      for (const msg of ['first', 'second']) {
        heldLog.info(msg);
        nowLog.info(msg);
      }
      await vi.waitFor(() => expect(lines(nowFile)).toHaveLength(2), { timeout: 1_000 });
      expect(lines(heldFile)).toEqual([]); // written by now had they not been held
      await vi.waitFor(() => expect(lines(heldFile).map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(['first', 'second']), {
        timeout: 5_000,
      });
    } finally {
      held.end(); // stops its timer, closes its descriptor
      now.end();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('writes the held lines when the process exits, by process.exit or an uncaught error', () => {
    const script = (end: string) =>
      `import { createLogger, stdoutDestination } from ${JSON.stringify(new URL('./log.ts', import.meta.url).pathname)};
       const log = createLogger('info', stdoutDestination(60_000));
       log.info('held until exit');
       ${end}`;
    for (const end of ['process.exit(0);', "setTimeout(() => { throw new Error('boom'); }, 10);"]) {
      const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script(end)], { encoding: 'utf8' });
      expect(run.stdout).toContain('"msg":"held until exit"');
    }
  });
});
