/**
 * `npm run bench`: the gateway's added latency on the 1-row `search_read` of res.partner (fields
 * id, name, email, country_id, is_company), measured as the same call sent (a) as JSON-2 straight to
 * the simulator and (b) as XML-RPC through the gateway to the same simulator, alternating in one run
 * so machine noise hits both alike. Simulator and gateway each run in their own process.
 *
 *   npm run bench -- [--calls N] [--concurrency a,b]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '2000' }, concurrency: { type: 'string', default: '1,16' } } });
const calls = Number(values.calls);
const levels = values.concurrency.split(',').map(Number);
const fields = ['id', 'name', 'email', 'country_id', 'is_company'];

async function freePort(): Promise<number> {
  const s = createServer().listen(0, '127.0.0.1');
  await once(s, 'listening');
  const port = (s.address() as { port: number }).port;
  s.close();
  return port;
}

async function startProcess(args: string[], ready: RegExp): Promise<{ child: ChildProcess; line: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let buffer = '';
  for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
    buffer += chunk.toString();
    const line = buffer.split('\n').find((l) => ready.test(l));
    if (line) return { child, line };
  }
  throw new Error(`${args[0]} exited before it was ready`);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

/** Runs `n` calls of `send` at `concurrency`, returning each call's latency in ms. */
async function measure(send: () => Promise<void>, n: number, concurrency: number): Promise<number[]> {
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < n) {
        const t = performance.now();
        await send();
        latencies.push(performance.now() - t);
      }
    }),
  );
  return latencies.sort((a, b) => a - b);
}

async function main(): Promise<void> {
  const sim = await startProcess(['sim/main.ts', '--port', '0', '--databases', 'demo'], /^\{"url"/);
  const info = JSON.parse(sim.line) as { url: string; users: Record<string, { login: string; key: string }[]> };
  const key = (info.users.demo ?? []).find((u) => u.login === 'admin')?.key as string;
  const port = await freePort();
  const gw = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--upstream', info.url, '--port', String(port), '--admin-port', '0', '--log-level', 'warn'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // The gateway logs nothing at warn level when healthy: wait for its port instead.
  const gatewayUrl = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (await fetch(`${gatewayUrl}/livez`).then((r) => r.ok, () => false)) break;
    await new Promise((r) => setTimeout(r, 100));
  }

  const direct = new Pool(info.url, { connections: 64 });
  const viaGateway = new Pool(gatewayUrl, { connections: 64 });
  const json2Body = JSON.stringify({ domain: [['id', '=', 1]], fields, limit: 1 });
  const xmlBody =
    "<?xml version='1.0'?>\n<methodCall>\n<methodName>execute_kw</methodName>\n<params>\n" +
    ['demo', 2, key, 'res.partner', 'search_read']
      .map((v) => `<param>\n<value>${typeof v === 'number' ? `<int>${v}</int>` : `<string>${v}</string>`}</value>\n</param>\n`)
      .join('') +
    '<param>\n<value><array><data>\n<value><array><data>\n<value><array><data>\n<value><string>id</string></value>\n<value><string>=</string></value>\n<value><int>1</int></value>\n</data></array></value>\n</data></array></value>\n</data></array></value>\n</param>\n' +
    `<param>\n<value><struct>\n<member>\n<name>fields</name>\n<value><array><data>\n${fields.map((f) => `<value><string>${f}</string></value>\n`).join('')}</data></array></value>\n</member>\n<member>\n<name>limit</name>\n<value><int>1</int></value>\n</member>\n</struct></value>\n</param>\n` +
    '</params>\n</methodCall>\n';

  const sendDirect = async () => {
    const r = await direct.request({
      method: 'POST',
      path: '/json/2/res.partner/search_read',
      headers: { authorization: `bearer ${key}`, 'content-type': 'application/json', 'x-odoo-database': 'demo' },
      body: json2Body,
    });
    await r.body.text();
    if (r.statusCode !== 200) throw new Error(`direct call answered ${r.statusCode}`);
  };
  const sendGateway = async () => {
    const r = await viaGateway.request({ method: 'POST', path: '/xmlrpc/2/object', headers: { 'content-type': 'text/xml' }, body: xmlBody });
    const text = await r.body.text();
    if (r.statusCode !== 200 || text.includes('<fault>')) throw new Error(`gateway call failed: ${text.slice(0, 300)}`);
  };

  console.log(`legacy-rpc-gateway bench — node ${process.version}, ${new Date().toISOString()}, ${calls} calls per sample`);
  console.log('search_read res.partner, 1 row, fields ' + fields.join(', '));
  await measure(sendDirect, 300, 4); // warm-up both paths
  await measure(sendGateway, 300, 4);
  for (const c of levels) {
    const d: number[][] = [];
    const g: number[][] = [];
    for (let round = 0; round < 3; round++) {
      d.push(await measure(sendDirect, calls, c));
      g.push(await measure(sendGateway, calls, c));
    }
    const med = (xs: number[][], p: number) => xs.map((s) => percentile(s, p)).sort((a, b) => a - b)[1] as number;
    const row = (p: number) => `p${p} direct ${med(d, p).toFixed(3)} ms, via gateway ${med(g, p).toFixed(3)} ms, added ${(med(g, p) - med(d, p)).toFixed(3)} ms`;
    console.log(`concurrency ${c}: ${row(50)}; ${row(99)}`);
  }
  await direct.close();
  await viaGateway.close();
  gw.kill('SIGTERM');
  sim.child.kill('SIGTERM');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
