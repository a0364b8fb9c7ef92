/**
 * Graceful shutdown of the real process (docs/architecture.md §8): the gateway runs as a child process (`src/main.ts`)
 * in front of a proxy that holds chosen upstream requests; SIGTERM arrives while calls are in flight.
 * New connections are refused and `/readyz` turns 503 at once, held calls still get their whole
 * answer, minted keys are revoked, the migration report is saved, and the exit code is 0 — or, past
 * `--shutdown-grace`, the held calls' connections are closed and the exit code is still 0.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.ts';
import { spawnGateway } from '../support/child-gateway.ts';
import { holdingProxy as holdingProxyOf } from '../support/holding-proxy.ts';
import { stallingProxy } from '../support/stalling-proxy.ts';
import type { ReportSnapshot } from '../../src/report/migration-report.ts';

// Each test starts the gateway as a child process through tsx, which compiles the sources first:
// beside a CPU-bound load that alone takes longer than the default 30 s, so these get a longer bound.
const childTimeout = 120_000;

const heldPath = '/json/2/res.partner/search_count';

/** A proxy to the simulator that holds requests to `heldPath` until `release()`. */
const holdingProxy = (target: string) => holdingProxyOf(target, (url) => url === heldPath);

async function jsonrpc(url: string, service: string, method: string, args: unknown[]) {
  const res = await fetch(`${url}/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'shutdown-test/1' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'call', params: { service, method, args }, id: 1 }),
  });
  return (await res.json()) as { result?: unknown; error?: unknown };
}

let sim: Simulator;
let proxy: Awaited<ReturnType<typeof holdingProxy>>;
let gateway: ReturnType<typeof spawnGateway> | undefined;

beforeEach(async () => {
  sim = await startSimulator({ databases: ['demo'], laterBuild: true });
  proxy = await holdingProxy(sim.url);
});
afterEach(async () => {
  if (gateway?.child.exitCode === null) gateway.child.kill('SIGKILL');
  proxy.release();
  await proxy.close();
  await sim.close();
});

describe('SIGTERM with calls in flight', { timeout: childTimeout }, () => {
  it('finishes them, refuses new work, retires minted keys, saves the report and exits 0', async () => {
    const reportFile = join(mkdtempSync(join(tmpdir(), 'shutdown-')), 'report.json');
    gateway = spawnGateway([
      '--upstream',
      proxy.url,
      '--port',
      '0',
      '--admin-port',
      '0',
      '--report-file',
      reportFile,
      '--log-format',
      'json',
      '--shutdown-grace',
      '20000',
    ]);
    const listening = await gateway.logged('legacy-rpc-gateway listening');
    const url = listening.url as string;
    const adminUrl = listening.adminUrl as string;
    const password = sim.users('demo').find((u) => u.login === 'admin')?.password as string;

    expect((await jsonrpc(url, 'common', 'authenticate', ['demo', 'admin', password, {}])).result).toBe(2);
    const minted = () => sim.keys.list().filter((k) => k.name.startsWith('legacy-rpc-gateway for '));
    expect(minted()).toHaveLength(1);

    const inFlight = [1, 2, 3].map(() => jsonrpc(url, 'object', 'execute_kw', ['demo', 2, password, 'res.partner', 'search_count', [[]]]));
    await proxy.holding(3);
    gateway.child.kill('SIGTERM');
    await gateway.logged('shutting down');

    await expect(fetch(`${url}/livez`)).rejects.toThrow();
    const ready = await fetch(`${adminUrl}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'not ready', reason: 'draining: the gateway is shutting down' });

    proxy.release();
    const answers = await Promise.all(inFlight);
    for (const answer of answers) expect(answer).toEqual({ jsonrpc: '2.0', id: 1, result: expect.any(Number) });
    expect(new Set(answers.map((a) => a.result)).size).toBe(1);

    expect(await gateway.exited).toEqual({ code: 0, signal: null });
    expect(gateway.stderr()).toBe('');
    expect(minted()).toEqual([]);
    expect(gateway.lines.map((l) => l.msg)).toEqual(expect.arrayContaining(['revoked a minted API key', 'stopped']));
    expect(
      gateway.lines.some(
        (l) =>
          l.msg === 'calls still in flight after the shutdown grace period: answered with a fault where possible, their connections closed',
      ),
    ).toBe(false);
    const saved = JSON.parse(readFileSync(reportFile, 'utf8')) as ReportSnapshot;
    expect(saved.clients.map((c) => [c.userAgent, c.calls, c.services])).toEqual([['shutdown-test/1', 4, { common: 1, object: 3 }]]);
  });

  it('answers calls still running after the grace period with a fault in their dialect, and exits 0', async () => {
    gateway = spawnGateway([
      '--upstream',
      proxy.url,
      '--port',
      '0',
      '--admin-port',
      '0',
      '--log-format',
      'json',
      '--shutdown-grace',
      '300',
    ]);
    const url = (await gateway.logged('legacy-rpc-gateway listening')).url as string;
    const key = sim.keyFor('demo', 'admin');
    const message = 'the gateway is shutting down: the call did not finish within --shutdown-grace (300 ms)';
    const stuck = jsonrpc(url, 'object', 'execute_kw', ['demo', 2, key, 'res.partner', 'search_count', [[]]]);
    const xmlValues = [
      '<string>demo</string>',
      '<int>2</int>',
      `<string>${key}</string>`,
      '<string>res.partner</string>',
      '<string>search_count</string>',
      '<array><data>\n<value><array><data>\n</data></array></value>\n</data></array>',
    ];
    const xmlCall = `<?xml version='1.0'?>\n<methodCall>\n<methodName>execute_kw</methodName>\n<params>\n${xmlValues.map((v) => `<param>\n<value>${v}</value>\n</param>\n`).join('')}</params>\n</methodCall>\n`;
    const stuckXml = fetch(`${url}/xmlrpc/2/object`, { method: 'POST', body: xmlCall, headers: { 'content-type': 'text/xml' } }).then((r) =>
      r.text(),
    );
    await proxy.holding(2);
    gateway.child.kill('SIGTERM');
    expect(await stuck).toMatchObject({ id: 1, error: { code: 0, data: { name: 'legacy_rpc_gateway.UpstreamError', message } } });
    const fault = await stuckXml;
    expect(fault).toContain('<name>faultCode</name>\n<value><int>1</int></value>');
    expect(fault).toContain(`legacy_rpc_gateway.UpstreamError: ${message}\n</string>`);
    expect(await gateway.exited).toEqual({ code: 0, signal: null });
    expect(gateway.stderr()).toBe('');
    expect(
      gateway.lines.find(
        (l) =>
          l.msg === 'calls still in flight after the shutdown grace period: answered with a fault where possible, their connections closed',
      ),
    ).toMatchObject({ graceMs: 300 });
  });
});

describe('SIGTERM with a db.dump streaming', { timeout: childTimeout }, () => {
  it('waits for the last byte of the dump before exiting, in both dialects', async () => {
    sim.databaseManager.backupPadding = 3_000_000;
    const backups = await stallingProxy(sim.url, (url) => url.startsWith('/web/database/backup'), 1_000_000);
    try {
      gateway = spawnGateway([
        '--upstream',
        backups.url,
        '--port',
        '0',
        '--admin-port',
        '0',
        '--log-format',
        'json',
        '--shutdown-grace',
        '20000',
      ]);
      const url = (await gateway.logged('legacy-rpc-gateway listening')).url as string;
      const param = (v: string) => `<param><value><string>${v}</string></value></param>`;
      const dumps = [
        streamedPost(
          `${url}/xmlrpc/2/db`,
          'text/xml',
          `<?xml version='1.0'?><methodCall><methodName>dump</methodName><params>${param('admin')}${param('demo')}${param('zip')}</params></methodCall>`,
        ),
        streamedPost(
          `${url}/jsonrpc`,
          'application/json',
          JSON.stringify({
            jsonrpc: '2.0',
            method: 'call',
            params: { service: 'db', method: 'dump', args: ['admin', 'demo', 'zip'] },
            id: 1,
          }),
        ),
      ];
      // both answers are out mid-stream, their backups stalled a megabyte in, when SIGTERM arrives
      await backups.stalled(2);
      await Promise.all(dumps.map((d) => d.started));
      gateway.child.kill('SIGTERM');
      await gateway.logged('shutting down');
      await new Promise((r) => setTimeout(r, 1000));
      expect(gateway.child.exitCode).toBeNull();
      expect(dumps.map((d) => d.ended())).toEqual([false, false]);

      backups.release();
      const [xml, json] = await Promise.all(dumps.map((d) => d.done));
      const exit = await gateway.exited;
      expect(exit).toEqual({ code: 0, signal: null });
      // whole answers, every byte of the backup: the exit came after the last one
      const base64 = /<string>([A-Za-z0-9+/=]+)<\/string>/.exec(xml as string)?.[1] ?? '';
      expect(xml).toMatch(/<\/methodResponse>\n$/);
      const jsonResult = (JSON.parse(json as string) as { result: string }).result;
      expect(base64).toBe(jsonResult);
      expect(Buffer.from(base64, 'base64').length).toBeGreaterThan(3_000_000);
      expect(Buffer.from(base64, 'base64').subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
      expect(
        gateway.lines.some((l) => l.msg === 'calls still in flight after the shutdown grace period: their connections were closed'),
      ).toBe(false);
    } finally {
      backups.release();
      await backups.close();
    }
  });
});

/** A POST whose answer is read as it arrives: `started` once its first bytes are in, `done` with the whole text. */
function streamedPost(url: string, contentType: string, body: string) {
  let ended = false;
  let markStarted!: () => void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const done = new Promise<string>((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': contentType } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => {
        chunks.push(c);
        markStarted();
      });
      res.on('end', () => {
        ended = true;
        resolve(Buffer.concat(chunks).toString());
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
  return { started, done, ended: () => ended };
}
