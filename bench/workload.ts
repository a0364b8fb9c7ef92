/**
 * What the gateway benchmarks share: the simulator and gateways in processes of their own, the
 * read-only XML-RPC workload (`search_read` of 20 partners, `read` of 5, `search_count` over
 * `/xmlrpc/2/object`), a closed-loop client at a given concurrency, and percentiles.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
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

const onOffOptions = {
  quick: { type: 'boolean', default: false },
  'no-write': { type: 'boolean', default: false },
  upstream: { type: 'string' },
  db: { type: 'string' },
  login: { type: 'string' },
  password: { type: 'string' },
} as const;
type OnOffValues = ReturnType<typeof parseArgs<{ options: typeof onOffOptions }>>['values'];

/**
 * The options bench:shadow, bench:tracing and bench:verify share (`--quick`, `--no-write`, and a real
 * Odoo's `--upstream --db --login --password`) plus a bench's own (`extra`), their round plan, and
 * the command line as BENCHMARKS.md prints it, the password masked.
 */
export function onOffBenchArgs<const Extra extends NonNullable<ParseArgsConfig['options']> = Record<never, never>>(
  script: string,
  extra?: Extra,
) {
  const parsed = parseArgs({ options: { ...onOffOptions, ...extra } });
  const values = parsed.values as OnOffValues & { [K in keyof Extra]?: Extra[K]['type'] extends 'boolean' ? boolean : string };
  const plan = values.quick ? { rounds: 2, calls1: 150, calls16: 400 } : { rounds: 5, calls1: 600, calls16: 2000 };
  const given = process.argv.slice(2).map((a) => (a === values.password ? '***' : a));
  const command = `npm run ${script}${given.length > 0 ? ` -- ${given.join(' ')}` : ''}`;
  return { values, plan, command };
}

/** Per gateway, medians over rounds come from these: p50 and p99 at concurrency 1 and 16, calls/s at 16. */
export interface RoundFigures {
  p50_1: number[];
  p99_1: number[];
  p50_16: number[];
  p99_16: number[];
  rate16: number[];
}

/**
 * Logs `login` in through each gateway's `common.login` (object calls with a password need their
 * uid's login first, COMPATIBILITY.md) and answers the uid; throws when the upstream refuses it.
 */
export async function loginThrough(gatewayUrls: string[], db: string, login: string, password: string): Promise<number> {
  let uid = 0;
  for (const url of gatewayUrls) {
    const res = await fetch(`${url}/xmlrpc/2/common`, {
      method: 'POST',
      headers: { 'content-type': 'text/xml' },
      body: `<?xml version='1.0'?>\n<methodCall>\n<methodName>login</methodName>\n<params>\n${[db, login, password].map((v) => `<param>\n${xmlString(v)}\n</param>\n`).join('')}</params>\n</methodCall>\n`,
    });
    uid = Number(/<int>(\d+)<\/int>/.exec(await res.text())?.[1] ?? 0);
    if (uid === 0) throw new Error('login refused on the upstream');
  }
  return uid;
}

/**
 * The on/off benches' measurement: a warm-up per gateway (keys, signatures, JIT), then `plan.rounds`
 * rounds in which each gateway gets `plan.calls1` calls at concurrency 1 and `plan.calls16` at 16,
 * the gateways' order rotating so machine noise hits all alike. One {@link RoundFigures} per gateway.
 */
export async function interleavedRounds(
  gatewayUrls: string[],
  body: string[],
  plan: { rounds: number; calls1: number; calls16: number },
  extraHeaders?: () => Record<string, string>,
): Promise<RoundFigures[]> {
  for (const url of gatewayUrls) await run(url, body, 60, 4, extraHeaders);
  const rows: RoundFigures[] = gatewayUrls.map(() => ({ p50_1: [], p99_1: [], p50_16: [], p99_16: [], rate16: [] }));
  for (let round = 0; round < plan.rounds; round++) {
    for (let i = 0; i < gatewayUrls.length; i++) {
      const at = (i + round) % gatewayUrls.length;
      const url = gatewayUrls[at] as string;
      const row = rows[at] as RoundFigures;
      const one = await run(url, body, plan.calls1, 1, extraHeaders);
      row.p50_1.push(median(one.ms));
      row.p99_1.push(percentile(one.ms, 99));
      const sixteen = await run(url, body, plan.calls16, 16, extraHeaders);
      row.p50_16.push(median(sixteen.ms));
      row.p99_16.push(percentile(sixteen.ms, 99));
      row.rate16.push(plan.calls16 / sixteen.seconds);
    }
    console.log(`round ${round + 1} of ${plan.rounds} done`);
  }
  return rows;
}
