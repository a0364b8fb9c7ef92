/**
 * `npm run bench:profile`: where the gateway's CPU goes. Starts the simulator and the
 * gateway (`node --cpu-prof dist/src/main.js`) in their own processes, sends `--calls` XML-RPC
 * `search_read` calls of `--rows` rows at `--concurrency`, stops the gateway (the profile is written
 * at exit) and prints self time by function and by source file, the top `--top` of each.
 *
 *   npm run bench:profile -- [--rows 1] [--calls 20000] [--concurrency 16] [--top 40] [--dir /tmp/gateway-prof]
 */
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '1' },
    calls: { type: 'string', default: '20000' },
    concurrency: { type: 'string', default: '16' },
    top: { type: 'string', default: '40' },
    dir: { type: 'string', default: '/tmp/gateway-prof' },
    'no-build': { type: 'boolean', default: false },
  },
});
const root = new URL('..', import.meta.url);
const fields = ['id', 'name', 'email', 'country_id', 'is_company'];

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

async function main(): Promise<void> {
  if (!values['no-build']) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  rmSync(values.dir, { recursive: true, force: true });
  mkdirSync(values.dir, { recursive: true });
  const sim = spawn(process.execPath, ['dist/sim/main.js', '--port', '0', '--generated-partners', '20000', '--log-limit', '0'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let line = '';
  for await (const chunk of sim.stdout as AsyncIterable<Buffer>) {
    line += chunk.toString();
    if (line.includes('\n')) break;
  }
  const info = JSON.parse(line.split('\n')[0] as string) as { url: string; users: Record<string, { login: string; key: string }[]> };
  const key = (info.users.demo ?? []).find((u) => u.login === 'admin')?.key as string;
  const s = createServer().listen(0, '127.0.0.1');
  await once(s, 'listening');
  const port = (s.address() as { port: number }).port;
  s.close();
  const gw = spawn(
    process.execPath,
    [
      '--cpu-prof',
      '--cpu-prof-dir',
      values.dir,
      'dist/src/main.js',
      '--upstream',
      info.url,
      '--port',
      String(port),
      '--admin-port',
      '0',
      '--log-level',
      'warn',
    ],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 150; i++) {
    if (
      await fetch(`${url}/livez`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const v = (x: string) => `<value><string>${x}</string></value>\n`;
  const body =
    "<?xml version='1.0'?>\n<methodCall>\n<methodName>execute_kw</methodName>\n<params>\n" +
    [
      v('demo'),
      '<value><int>2</int></value>\n',
      v(key),
      v('res.partner'),
      v('search_read'),
      '<value><array><data>\n<value><array><data>\n</data></array></value>\n</data></array></value>\n',
      `<value><struct>\n<member>\n<name>fields</name>\n<value><array><data>\n${fields.map(v).join('')}</data></array></value>\n</member>\n<member>\n<name>limit</name>\n<value><int>${Number(values.rows)}</int></value>\n</member>\n</struct></value>\n`,
    ]
      .map((p) => `<param>\n${p}</param>\n`)
      .join('') +
    '</params>\n</methodCall>\n';
  const pool = new Pool(url, { connections: Number(values.concurrency) });
  let next = 0;
  const calls = Number(values.calls);
  const t = performance.now();
  await Promise.all(
    Array.from({ length: Number(values.concurrency) }, async () => {
      while (next++ < calls) {
        const r = await pool.request({ method: 'POST', path: '/xmlrpc/2/object', headers: { 'content-type': 'text/xml' }, body });
        const text = await r.body.text();
        if (text.includes('<fault>')) throw new Error(text.slice(0, 300));
      }
    }),
  );
  console.log(`${calls} calls of ${values.rows} rows at concurrency ${values.concurrency} in ${(performance.now() - t).toFixed(0)} ms`);
  await pool.close();
  gw.kill('SIGTERM');
  await once(gw, 'exit');
  sim.kill('SIGTERM');

  const file = readdirSync(values.dir).find((n) => n.endsWith('.cpuprofile'));
  if (file === undefined) throw new Error('no profile written');
  const prof = JSON.parse(readFileSync(`${values.dir}/${file}`, 'utf8')) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  prof.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (prof.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const idle = [...self]
    .filter(([id]) => ['(idle)', '(program)'].includes(byId.get(id)?.callFrame.functionName ?? ''))
    .reduce((a, [, t]) => a + t, 0);
  const fn = new Map<string, number>();
  const files = new Map<string, number>();
  for (const [id, us] of self) {
    const { functionName, url: src, lineNumber } = (byId.get(id) as ProfileNode).callFrame;
    const where = src.replace(/^file:\/\/.*?\/(dist|node_modules)\//, '$1/');
    const fkey = `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`;
    fn.set(fkey, (fn.get(fkey) ?? 0) + us);
    const group = where.startsWith('node_modules/')
      ? where
          .split('/')
          .slice(0, where.split('/')[1]?.startsWith('@') ? 3 : 2)
          .join('/')
      : where || functionName;
    files.set(group, (files.get(group) ?? 0) + us);
  }
  const busy = total - idle;
  const show = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, Number(values.top))
      .map(([k, us]) => `${((us / busy) * 100).toFixed(1).padStart(5)} %  ${(us / 1000).toFixed(0).padStart(6)} ms  ${k}`)
      .join('\n');
  console.log(
    `busy ${(busy / 1000).toFixed(0)} ms (of ${(total / 1000).toFixed(0)} ms sampled), ${(busy / calls).toFixed(0)} µs per call; % of busy time\n`,
  );
  console.log(`By file:\n${show(files)}\n\nBy function:\n${show(fn)}`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
