/**
 * The gateway as a child process (`src/main.ts`), so memory and file descriptors measured are the
 * gateway's own: VmRSS from `/proc/<pid>/status`, open descriptors as `/proc/<pid>/fd` entries.
 * Its JSON log lines are collected; `stop()` sends SIGTERM and waits for the exit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { childGatewayEnv } from '../../support/child-gateway.ts';

const root = new URL('../../..', import.meta.url).pathname;

export interface ChildGateway {
  child: ChildProcess;
  pid: number;
  url: string;
  port: number;
  adminUrl: string;
  lines: Array<Record<string, unknown>>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
  /** Resolves with the first log line whose `msg` is `msg` (already logged or later). */
  logged(msg: string): Promise<Record<string, unknown>>;
  /** Whether the process is still running. */
  alive(): boolean;
  /** SIGTERM, then the exit. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `src/main.ts` with `args` (plus `--port 0 --admin-port 0 --log-format json`) and waits until it listens. */
export async function startChildGateway(args: string[], nodeArgs: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<ChildGateway> {
  const child = spawn(
    process.execPath,
    [...nodeArgs, '--import', 'tsx', 'src/main.ts', '--port', '0', '--admin-port', '0', '--log-format', 'json', ...args],
    {
      cwd: root,
      // none of the gateway's settings from the run's environment (a REDIS_URL meant for the tests' own
      // helpers made every child refuse to start): only what the test gives
      env: { ...childGatewayEnv(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const lines: Array<Record<string, unknown>> = [];
  const waiters: Array<{ msg: string; resolve: (line: Record<string, unknown>) => void }> = [];
  createInterface({ input: child.stdout }).on('line', (text) => {
    let line: Record<string, unknown>;
    try {
      line = JSON.parse(text) as Record<string, unknown>;
    } catch {
      line = { msg: text };
    }
    // keep the log bounded: access-log lines of long runs are dropped, the rest kept
    if (line.msg !== 'legacy call' || lines.length < 10_000) lines.push(line);
    for (const w of waiters.filter((x) => x.msg === line.msg)) w.resolve(line);
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const logged = (msg: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const seen = lines.find((l) => l.msg === msg);
      if (seen) return resolve(seen);
      waiters.push({ msg, resolve });
      void exited.then(({ code }) => reject(new Error(`gateway exited (${code}) before logging ${JSON.stringify(msg)}: ${stderr}`)));
    });
  const listening = await logged('legacy-rpc-gateway listening');
  const url = listening.url as string;
  return {
    child,
    pid: child.pid as number,
    url,
    port: Number(new URL(url).port),
    adminUrl: listening.adminUrl as string,
    lines,
    exited,
    stderr: () => stderr,
    logged,
    alive: () => child.exitCode === null && child.signalCode === null,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** A process's resident set in bytes (VmRSS). */
export function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  if (kb === undefined) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(kb) * 1024;
}

/** A process's open file descriptors (sockets, pipes, files). */
export function fdsOf(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

/** Polls `check` until it is true or `timeoutMs` passes; resolves with the last result. */
export async function settle(check: () => boolean, timeoutMs: number, stepMs = 100): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (check()) return true;
    if (Date.now() >= until) return false;
    await new Promise((r) => setTimeout(r, stepMs));
  }
}
