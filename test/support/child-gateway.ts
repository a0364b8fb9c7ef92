/**
 * The gateway as a child process (`src/main.ts` under tsx), its JSON log lines collected, for tests
 * of the real process: signals, exit codes, several replicas.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { settings } from '../../src/config.ts';

const root = new URL('../..', import.meta.url).pathname;

export type ChildGateway = ReturnType<typeof spawnGateway>;

/** Every environment variable the gateway reads as a setting (`REDIS_URL`, `PORT`, their `_FILE` forms…). */
const settingVariables = new Set((Object.values(settings) as Array<{ env: string }>).map((s) => s.env));

/**
 * The test run's environment without the gateway's own settings: a `REDIS_URL` meant for the tests'
 * Redis helpers (docs/testing.md) must not turn a child gateway into a Redis replica. A child is
 * configured by its flags alone.
 */
export function childGatewayEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !settingVariables.has(name)));
}

/** The gateway as a child process; its JSON log lines are collected. */
export function spawnGateway(args: string[], env: NodeJS.ProcessEnv = childGatewayEnv()) {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Array<Record<string, unknown>> = [];
  const waiters: Array<{ msg: string; resolve: (line: Record<string, unknown>) => void }> = [];
  createInterface({ input: child.stdout! }).on('line', (text) => {
    const line = JSON.parse(text) as Record<string, unknown>;
    lines.push(line);
    for (const w of waiters.filter((x) => x.msg === line.msg)) w.resolve(line);
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    lines,
    exited,
    stderr: () => stderr,
    logged: (msg: string) =>
      new Promise<Record<string, unknown>>((resolve) => {
        const seen = lines.find((l) => l.msg === msg);
        if (seen) resolve(seen);
        else waiters.push({ msg, resolve });
      }),
  };
}
