/**
 * What the gateway benchmarks share: the simulator and gateways in processes of their own, the
 * read-only XML-RPC workload (`search_read` of 20 partners, `read` of 5, `search_count` over
 * `/xmlrpc/2/object`), a closed-loop client at a given concurrency, and percentiles.
 */
import { parseArgs } from 'node:util';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { Pool } from 'undici';
import { freePort } from './free-port.ts';

const root = new URL('..', import.meta.url);

export interface Proc {
  child: ChildProcess;
  stop(): Promise<void>;
}

export function proc(child: ChildProcess): Proc {
  return {
    child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/** The simulator with legacy endpoints, in its own process: its URL and the demo admin's credentials. */
export async function startSim(): Promise<Proc & { url: string; uid: number; key: string }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'sim/main.ts',
      '--port',
      '0',
      '--databases',
      'demo',
      '--generated-partners',
      '200',
      '--log-limit',
      '0',
      '--legacy-endpoints',
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let buffer = '';
  for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
    buffer += chunk.toString();
    const line = buffer.split('\n').find((l) => l.startsWith('{"url"'));
    if (line) {
      const info = JSON.parse(line) as { url: string; users: Record<string, { uid: number; login: string; key: string }[]> };
      const admin = (info.users.demo ?? []).find((u) => u.login === 'admin');
      return { ...proc(child), url: info.url, uid: admin?.uid as number, key: admin?.key as string };
    }
  }
  throw new Error('the simulator exited before it was ready');
}

export async function startGateway(
  upstream: string,
  flags: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<Proc & { url: string; adminUrl: string }> {
  const [port, adminPort] = [await freePort(), await freePort()];
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/main.ts',
      '--upstream',
      upstream,
      '--port',
      String(port),
      '--admin-port',
      String(adminPort),
      '--log-level',
      'warn',
      ...flags,
    ],
    { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (
      await fetch(`${url}/livez`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 1200 || child.exitCode !== null) throw new Error('the gateway did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return { ...proc(child), url, adminUrl: `http://127.0.0.1:${adminPort}` };
}

export const xmlString = (s: string) => `<value><string>${s.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</string></value>`;

/** The workload's three XML-RPC bodies. */
export function bodies(db: string, uid: number, password: string): string[] {
  const call = (method: string, args: string, kwargs: string) =>
    `<?xml version='1.0'?>\n<methodCall>\n<methodName>execute_kw</methodName>\n<params>\n${[xmlString(db), `<value><int>${uid}</int></value>`, xmlString(password), xmlString('res.partner'), xmlString(method), args, kwargs].map((v) => `<param>\n${v}\n</param>\n`).join('')}</params>\n</methodCall>\n`;
  const fields = `<value><array><data>${['id', 'name', 'email', 'is_company'].map(xmlString).join('')}</data></array></value>`;
  const member = (name: string, value: string) => `<member><name>${name}</name>${value}</member>`;
  return [
    call(
      'search_read',
      '<value><array><data><value><array><data></data></array></value></data></array></value>',
      `<value><struct>${member('fields', fields)}${member('limit', '<value><int>20</int></value>')}</struct></value>`,
    ),
    call(
      'read',
      `<value><array><data><value><array><data>${[1, 3, 7, 8, 9].map((id) => `<value><int>${id}</int></value>`).join('')}</data></array></value></data></array></value>`,
      `<value><struct>${member('fields', fields)}</struct></value>`,
    ),
    call(
      'search_count',
      '<value><array><data><value><array><data></data></array></value></data></array></value>',
      '<value><struct></struct></value>',
    ),
  ];
}

/** Sends `calls` calls at `concurrency` (each with `extraHeaders()` besides its content type); the latencies in ms and the wall time. */
export async function run(
  url: string,
  body: string[],
  calls: number,
  concurrency: number,
  extraHeaders: () => Record<string, string> = () => ({}),
): Promise<{ ms: number[]; seconds: number }> {
  const pool = new Pool(url, { connections: concurrency, pipelining: 1 });
  const ms: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < calls) {
        const i = next++;
        const t = performance.now();
        const res = await pool.request({
          method: 'POST',
          path: '/xmlrpc/2/object',
          headers: { 'content-type': 'text/xml', ...extraHeaders() },
          body: body[i % body.length],
        });
        const text = await res.body.text();
        if (res.statusCode !== 200 || text.includes('<fault>')) throw new Error(`unexpected answer: ${text.slice(0, 300)}`);
        ms.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  return { ms, seconds };
}

export const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};
export const median = (xs: number[]) => percentile(xs, 50);
export const f = (x: number, digits = 2) => x.toFixed(digits);

/**
 * The options bench:shadow and bench:tracing share (`--quick`, `--no-write`, and a real Odoo's
 * `--upstream --db --login --password`), their round plan, and the command line as BENCHMARKS.md
 * prints it, the password masked.
 */
export function onOffBenchArgs(script: string) {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      'no-write': { type: 'boolean', default: false },
      upstream: { type: 'string' },
      db: { type: 'string' },
      login: { type: 'string' },
      password: { type: 'string' },
    },
  });
  const plan = values.quick ? { rounds: 2, calls1: 150, calls16: 400 } : { rounds: 5, calls1: 600, calls16: 2000 };
  const given = process.argv.slice(2).map((a) => (a === values.password ? '***' : a));
  const command = `npm run ${script}${given.length > 0 ? ` -- ${given.join(' ')}` : ''}`;
  return { values, plan, command };
}
