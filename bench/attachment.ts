/**
 * `npm run bench:attachment`: what a big binary costs the gateway's memory (issue #44, item 5). A
 * legacy XML-RPC client writes a `--size`-byte file through the gateway (`ir.attachment` `create`
 * with `datas` against a real Odoo; the simulator, which has no `ir.attachment`, takes
 * `res.partner.image_128` by `write`) and reads it back (`read` of that field). The file goes as
 * XML-RPC `<base64>` (what `xmlrpc.client.Binary` sends) or as a base64 `<string>` (`--as string`).
 * Each operation runs in a fresh gateway process (its own process, `node --import tsx src/main.ts`
 * of `--dir`, default this checkout), whose memory is read from outside in `/proc/<pid>/status`:
 * VmRSS sampled every 10 ms, and VmHWM (the kernel's peak). The figure is (VmHWM − VmRSS at idle) ÷
 * file size, the median of `--runs` processes. `--dir` of another checkout measures its code.
 *
 *   npm run bench:attachment -- [--size BYTES] [--runs N] [--as base64|string] [--dir CHECKOUT] [--write]
 *   npm run bench:attachment -- --upstream http://127.0.0.1:8069 --db <copy> --uid 2 --key <API key> ...
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { writeBenchSection } from './bench-section.ts';
import { freePort } from './free-port.ts';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: String(20 * 1024 * 1024) },
    runs: { type: 'string', default: '3' },
    as: { type: 'string', default: 'base64' },
    dir: { type: 'string', default: '.' },
    upstream: { type: 'string' },
    db: { type: 'string' },
    uid: { type: 'string', default: '2' },
    key: { type: 'string' },
    label: { type: 'string', default: 'this checkout' },
    write: { type: 'boolean', default: false },
  },
});
const size = Number(values.size);
const runs = Number(values.runs);
const asBase64 = values.as !== 'string';
const dir = resolve(values.dir);

interface Target {
  upstream: string;
  db: string;
  uid: number;
  key: string;
  real: boolean;
}

const mib = (kib: number) => Math.round((kib / 1024) * 10) / 10;

function memoryOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss: kib('VmRSS'), hwm: kib('VmHWM') };
}

async function startSim(): Promise<{ child: ChildProcess; target: Target }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'sim/main.ts', '--port', '0', '--databases', 'demo', '--log-limit', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let buffer = '';
  for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
    buffer += chunk.toString();
    const line = buffer.split('\n').find((l) => l.startsWith('{"url"'));
    if (line === undefined) continue;
    const info = JSON.parse(line) as { url: string; users: Record<string, { uid: number; login: string; key: string }[]> };
    const admin = info.users.demo?.find((u) => u.login === 'admin');
    if (admin === undefined) throw new Error('the simulator has no admin');
    return { child, target: { upstream: info.url, db: 'demo', uid: admin.uid, key: admin.key, real: false } };
  }
  throw new Error('the simulator exited before it was ready');
}

const xmlString = (s: string) => `<value><string>${s}</string></value>`;

/** An `execute_kw` methodCall; `params` are already XML `<value>`s. */
function executeKw(t: Target, model: string, method: string, args: string, kwargs = '<value><struct></struct></value>'): string {
  const params = [
    xmlString(t.db),
    `<value><int>${t.uid}</int></value>`,
    xmlString(t.key),
    xmlString(model),
    xmlString(method),
    args,
    kwargs,
  ];
  return `<?xml version='1.0'?>\n<methodCall>\n<methodName>execute_kw</methodName>\n<params>\n${params.map((p) => `<param>\n${p}\n</param>\n`).join('')}</params>\n</methodCall>\n`;
}

/** One POST on a connection of its own: a kept-alive one may be closed by the gateway's idle timeout as the next call starts. */
function post(url: string, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/xmlrpc/2/object`, { method: 'POST', agent: false, headers: { 'content-type': 'text/xml' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

interface Sample {
  op: 'create' | 'read';
  run: number;
  idleMiB: number;
  maxRssMiB: number;
  hwmMiB: number;
  perByte: number;
  ms: number;
}

/** One operation in a fresh gateway process of `dir`. */
async function measure(t: Target, op: 'create' | 'read', run: number, recordId: { id: number }, payload: string): Promise<Sample> {
  const port = await freePort();
  const gw = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/main.ts', '--upstream', t.upstream, '--port', String(port), '--admin-port', '0', '--log-level', 'warn'],
    { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const url = `http://127.0.0.1:${port}`;
  let timer: NodeJS.Timeout | undefined;
  try {
    for (let i = 0; i < 300; i++) {
      if (
        await fetch(`${url}/livez`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const pid = gw.pid as number;
    // warm up the code paths (and the key) with a small call of the same kind
    const model = t.real ? 'ir.attachment' : 'res.partner';
    const field = t.real ? 'datas' : 'image_128';
    await post(
      url,
      executeKw(
        t,
        model,
        'read',
        `<value><array><data><value><array><data><value><int>${recordId.id}</int></value></data></array></value></data></array></value>`,
        `<value><struct><member><name>fields</name><value><array><data>${xmlString('id')}</data></array></value></member></struct></value>`,
      ),
    );
    await new Promise((r) => setTimeout(r, 300));
    const idle = memoryOf(pid);
    let maxRss = idle.rss;
    timer = setInterval(() => (maxRss = Math.max(maxRss, memoryOf(pid).rss)), 10);
    const started = performance.now();
    const value = asBase64 ? `<value><base64>${payload}</base64></value>` : xmlString(payload);
    let answer: string;
    if (op === 'create') {
      const body = t.real
        ? executeKw(
            t,
            model,
            'create',
            `<value><array><data><value><struct><member><name>name</name>${xmlString('bench.bin')}</member><member><name>${field}</name>${value}</member></struct></value></data></array></value>`,
          )
        : executeKw(
            t,
            model,
            'write',
            `<value><array><data><value><array><data><value><int>${recordId.id}</int></value></data></array></value><value><struct><member><name>${field}</name>${value}</member></struct></value></data></array></value>`,
          );
      answer = await post(url, body);
      if (answer.includes('<fault>')) throw new Error(`create: ${answer.slice(0, 600)}`);
      const id = /<int>(\d+)<\/int>/.exec(answer);
      if (t.real && id) recordId.id = Number(id[1]);
    } else {
      answer = await post(
        url,
        executeKw(
          t,
          model,
          'read',
          `<value><array><data><value><array><data><value><int>${recordId.id}</int></value></data></array></value></data></array></value>`,
          `<value><struct><member><name>fields</name><value><array><data>${xmlString(field)}</data></array></value></member></struct></value>`,
        ),
      );
      if (!answer.includes(payload))
        throw new Error(`read: the answer does not hold the file (${answer.length} chars: ${answer.slice(0, 300)})`);
    }
    const ms = performance.now() - started;
    clearInterval(timer);
    const after = memoryOf(pid);
    maxRss = Math.max(maxRss, after.rss);
    const sample: Sample = {
      op,
      run,
      idleMiB: mib(idle.rss),
      maxRssMiB: mib(maxRss),
      hwmMiB: mib(after.hwm),
      perByte: Math.round((((after.hwm - idle.rss) * 1024) / size) * 100) / 100,
      ms: Math.round(ms),
    };
    console.log(JSON.stringify(sample));
    return sample;
  } finally {
    clearInterval(timer);
    gw.kill('SIGTERM');
    await once(gw, 'exit');
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function main(): Promise<void> {
  let sim: ChildProcess | undefined;
  let target: Target;
  if (values.upstream !== undefined) {
    if (values.db === undefined || values.key === undefined) throw new Error('--upstream needs --db and --key (an API key of --uid)');
    target = { upstream: values.upstream, db: values.db, uid: Number(values.uid), key: values.key, real: true };
  } else {
    const started = await startSim();
    sim = started.child;
    target = started.target;
  }
  // the file: random bytes (incompressible), as base64 text
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i += 4) bytes.writeUInt32LE((Math.random() * 2 ** 32) >>> 0, i);
  const payload = bytes.toString('base64');
  const record = { id: target.real ? 0 : 7 };
  const samples: Sample[] = [];
  try {
    for (let run = 1; run <= runs; run++) {
      for (const op of ['create', 'read'] as const) {
        // a fresh process is measured again when the exchange itself failed (EPIPE on a loaded machine)
        for (let attempt = 1; ; attempt++) {
          try {
            samples.push(await measure(target, op, run, record, payload));
            break;
          } catch (err) {
            if (attempt === 3 || !(err instanceof Error && 'code' in err)) throw err;
            console.log(`${op} run ${run}: ${String(err)} (${String((err as { cause?: unknown }).cause)}); measuring again`);
          }
        }
      }
    }
  } finally {
    sim?.kill('SIGTERM');
  }
  const summary = (op: Sample['op']) => median(samples.filter((s) => s.op === op).map((s) => s.perByte));
  console.log(`${values.label}: create ${summary('create')} × the file, read ${summary('read')} × the file (median of ${runs})`);
  if (!values.write) return;
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const name = `attachment:${target.real ? 'odoo' : 'sim'}:${values.label.replace(/[^a-z0-9]+/gi, '-')}:${values.as}`;
  const lines = [
    `<!-- bench:${name}:start -->`,
    `### ${values.label}, ${target.real ? 'real Odoo 19' : 'simulator'}, the file as XML-RPC \`<${asBase64 ? 'base64' : 'string'}>\``,
    '',
    `- ${size} bytes; ${target.real ? `\`ir.attachment\` \`create\` / \`read\` of \`datas\` (database ${target.db})` : '`res.partner` `write` / `read` of `image_128`'}; ${cpus().length} CPUs, ${Math.round(totalmem() / 1024 ** 3)} GiB, load ${load}; Node ${process.version}; ${new Date().toISOString()}`,
    `- **(VmHWM − idle VmRSS) ÷ file size, median of ${runs}: create ${summary('create')}, read ${summary('read')}**`,
    '',
    '| operation | run | idle VmRSS MiB | max sampled VmRSS MiB | VmHWM MiB | (VmHWM − idle) ÷ size | ms |',
    '|---|---|---|---|---|---|---|',
    ...samples.map((s) => `| ${s.op} | ${s.run} | ${s.idleMiB} | ${s.maxRssMiB} | ${s.hwmMiB} | ${s.perByte} | ${s.ms} |`),
    `<!-- bench:${name}:end -->`,
  ];
  writeBenchSection(name, lines.join('\n'));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
