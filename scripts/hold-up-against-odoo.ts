/**
 * Opt-in (needs a real Odoo 19 on this machine and redis-server on PATH; never part of `npm test`):
 * the load and hostile-client checks against the real thing, each run for a few seconds.
 *
 * 1. Trickled passthrough bodies: 24 `POST /web/login` whose bodies come a byte at a time, through a
 *    gateway that streams them (`--passthrough-buffer 0`, the old behaviour) and one with the default
 *    buffering; the Odoo process's thread count is sampled meanwhile (threaded Odoo: one thread per
 *    open request).
 * 2. Warm API-key calls and Redis: 50 warm calls through a gateway sharing a private redis-server;
 *    `INFO commandstats` before and after. Then the private Redis is frozen (SIGSTOP) and the latency
 *    of warm calls and of refused logins (which read the shared throttle) is measured during the stall.
 * 3. A 64-client burst of `search_read` with the default `--upstream-connections` and with 64: HTTP 500
 *    answers from Odoo (PoolError) counted; and light calls' latency alone and behind heavy ones.
 * 4. 16 clients ask for a 5,000-row `ir.model.fields` `search_read` over XML-RPC and never read it,
 *    through a gateway with `--send-timeout 5000`: the process's RSS, and when each was cut off.
 *
 * `--parts trickle,redis,burst,readers` runs some of them (default: all).
 *
 * Issue #30's checks (`--round2 spool,shares,skew`, against `--db` itself, no copy; give it a copy
 * of your own, since key mints write to it):
 * 5. spool: 16 `POST /web/login` declaring 2,000,000 bytes sent at 1 byte/s through a gateway with the
 *    default settings, for `--seconds`; meanwhile direct `common.version` calls to Odoo and legacy
 *    `context_get` calls through the gateway, their latencies (prefork Odoo with 2 workers: the
 *    review's case).
 * 6. shares: 32 slow calls (`ir.model.fields` `search_read`, all rows) in a loop through the gateway;
 *    meanwhile `/readyz`, a light call through the gateway and the same call direct, timed
 *    (`--warmup 3` seconds of slow calls first, then at most `--samples 8`, `--pause 0` ms apart, within `--seconds`;
 *    `--flags='--light-reserve 24'` passes more settings to the gateway).
 * 7. skew: a gateway whose clock is a day ahead; `demo`/`demo` logs in and makes 6 calls; the mints.
 * It works in a copy of `--db` of its own (`scratch21`, dropped at the end), where it mints one API key.
 *
 * Issue #44's checks (`--round3 outlier`):
 * 8. outlier: 32 slow calls in a loop through the gateway (as in 6); meanwhile one light call
 *    (`res.partner.search_count`) is made slow once on purpose — a PostgreSQL session holds an exclusive
 *    lock on `res_partner` for 2.5 s while it runs — then light calls through the gateway and direct,
 *    timed. Against a copy of `--db` (`scratch44`, dropped at the end: the lock must not hold others).
 * 9. clock: against an Odoo whose clock lags its database's (give `--upstream` a second Odoo run under
 *    `faketime -f -1d`, and `--db` a copy), `demo`/`demo` logs in `--samples` times, 4 s apart: the
 *    answers and the mints (Odoo's key records named by the gateway, and the gateway's metrics).
 *
 *   npx tsx scripts/hold-up-against-odoo.ts [--upstream http://127.0.0.1:8069] [--db gw] [--master admin] [--seconds 8]
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs, promisify } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { mintKey } from '../src/credentials/minting.ts';
import { createLogger } from '../src/log.ts';
import { startGateway, type RunningGateway } from '../src/server/gateway.ts';
import { createUpstream } from '../src/upstream/index.ts';
import { startPrivateRedis } from '../test/support/redis.ts';
import { createCallValues } from '../src/call.ts';

const { values } = parseArgs({
  options: {
    round2: { type: 'string' },
    round3: { type: 'string' },
    upstream: { type: 'string', default: 'http://127.0.0.1:8069' },
    db: { type: 'string', default: 'gw' },
    master: { type: 'string', default: 'admin' },
    login: { type: 'string', default: 'admin' },
    password: { type: 'string', default: 'admin' },
    seconds: { type: 'string', default: '8' },
    parts: { type: 'string', default: 'trickle,redis,burst,readers' },
    // shares: seconds the slow calls run before the first sample, samples at most, pause between them
    warmup: { type: 'string', default: '3' },
    samples: { type: 'string', default: '8' },
    pause: { type: 'string', default: '0' },
    // shares: more gateway flags, space-separated (e.g. '--light-reserve 24')
    flags: { type: 'string', default: '' },
    // outlier: slow calls running at once
    heavy: { type: 'string', default: '32' },
  },
});
const execFileP = promisify(execFile);
const parts = new Set(values.parts.split(','));
const upstreamUrl = values.upstream;
const scratch = 'scratch21';
const seconds = Number(values.seconds);
const log = createLogger('error');

async function gatewayWith(flags: string[]): Promise<RunningGateway> {
  return startGateway(loadConfig(['--port', '0', '--admin-port', '0', '--upstream', upstreamUrl, ...flags], {}), log);
}

async function jsonrpc(
  url: string,
  service: string,
  method: string,
  args: unknown[],
): Promise<{ status: number; result?: unknown; error?: { data?: { message?: string } } }> {
  const res = await fetch(`${url}/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'call', params: { service, method, args }, id: 1 }),
  });
  const text = await res.text();
  try {
    return { status: res.status, ...(JSON.parse(text) as object) };
  } catch {
    return { status: res.status, error: { data: { message: text.slice(0, 200) } } };
  }
}

const odooPid =
  values.round2 === undefined && values.round3 === undefined ? Number(readFileSync('/var/run/odoo19.pid', 'utf8').trim()) : NaN;
const odooThreads = () => Number(/^Threads:\s+(\d+)/m.exec(readFileSync(`/proc/${odooPid}/status`, 'utf8'))?.[1] ?? NaN);
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round((s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN) * 10) / 10;
};

/** 1. 24 trickled /web/login bodies; the most Odoo threads seen while they trickle. */
async function trickle(flags: string[]): Promise<{ before: number; most: number; answered: number }> {
  const gateway = await gatewayWith(flags);
  const { port } = new URL(gateway.url);
  const body = `login=nobody&password=wrong&db=${scratch}&redirect=`;
  const before = odooThreads();
  let most = before;
  const sockets: Socket[] = [];
  const answers: Promise<string>[] = [];
  for (let i = 0; i < 24; i++) {
    const socket = connect(Number(port), '127.0.0.1');
    sockets.push(socket);
    socket.write(
      `POST /web/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
    );
    answers.push(
      new Promise((resolve) => {
        let text = '';
        socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
        socket.on('close', () => resolve(text.split('\r\n')[0] ?? ''));
        socket.on('error', () => undefined);
      }),
    );
  }
  const step = (seconds * 1000) / body.length;
  for (let i = 0; i < body.length; i++) {
    for (const s of sockets) s.write(body[i] as string);
    most = Math.max(most, odooThreads());
    await sleep(step);
  }
  const lines = await Promise.all(answers);
  await gateway.close();
  return { before, most, answered: lines.filter((l) => /^HTTP\/1\.1 (200|303)/.test(l)).length };
}

/** 4. 16 XML-RPC clients that never read a ~20 MB answer, through a gateway with a 5 s send timeout. */
async function neverReading(uid: number | bigint, key: string): Promise<Record<string, unknown>> {
  const gateway = await gatewayWith(['--send-timeout', '5000']);
  const { port } = new URL(gateway.url);
  const s = (v: string) => `<value><string>${v}</string></value>`;
  const body =
    `<?xml version='1.0'?>\n<methodCall>\n<methodName>execute_kw</methodName>\n<params>\n` +
    [
      s(scratch),
      `<value><int>${uid}</int></value>`,
      s(key),
      s('ir.model.fields'),
      s('search_read'),
      '<value><array><data><value><array><data></data></array></value></data></array></value>',
      '<value><struct><member><name>limit</name><value><int>5000</int></value></member></struct></value>',
    ]
      .map((v) => `<param>\n${v}\n</param>\n`)
      .join('') +
    '</params>\n</methodCall>\n';
  const rssMiB = () => Math.round(process.memoryUsage().rss / 1048576);
  const before = rssMiB();
  const started = performance.now();
  const cutAfter: number[] = [];
  const sockets = Array.from({ length: 16 }, () => {
    const socket = connect(Number(port), '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write(
      `POST /xmlrpc/2/object HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/xml\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    socket.pause(); // never reads
    return socket;
  });
  let peak = before;
  // the gateway's own count of clients cut off by the send timeout, sampled every 100 ms
  const cut = async () => Number(/^legacy_rpc_gateway_send_timeouts_total (\d+)$/m.exec(await gateway.metrics.text())?.[1]);
  for (let i = 0; i < 600 && cutAfter.length < sockets.length; i++) {
    peak = Math.max(peak, rssMiB());
    const n = await cut();
    while (cutAfter.length < n) cutAfter.push(Math.round((performance.now() - started) / 100) / 10);
    await sleep(100);
  }
  if (typeof global.gc === 'function') global.gc();
  const result = {
    rssBeforeMiB: before,
    rssPeakMiB: peak,
    rssAfterMiB: rssMiB(),
    clientsCut: cutAfter.length,
    cutAfterSeconds: cutAfter,
    inFlightAfter: /^legacy_rpc_gateway_in_flight_requests (\d+)$/m.exec(await gateway.metrics.text())?.[1],
  };
  for (const socket of sockets) socket.destroy();
  await gateway.close();
  return result;
}

async function main(): Promise<void> {
  const admin = await gatewayWith([]);
  const out: Record<string, unknown> = { odooPid, load: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ') };
  const dup = await jsonrpc(admin.url, 'db', 'duplicate_database', [values.master, values.db, scratch]);
  if (dup.result !== true) throw new Error(`could not copy ${values.db} to ${scratch}: ${JSON.stringify(dup.error)}`);
  const redis = await startPrivateRedis();
  try {
    // 1. trickled passthrough bodies
    if (parts.has('trickle')) {
      out.trickleStreamed = await trickle(['--passthrough-buffer', '0', '--passthrough-connections', '64']);
      await sleep(1000);
      out.trickleBuffered = await trickle([]);
    }

    // an API key of the scratch database's admin
    const config = loadConfig(['--upstream', upstreamUrl], {});
    const origin = {
      host: '',
      ip: '127.0.0.1',
      proto: 'http' as const,
      userAgent: 'hold-up-against-odoo',
      requestId: 'mint',
      values: createCallValues(),
      signal: AbortSignal.timeout(60_000),
    };
    const minted = await mintKey(
      createUpstream(config),
      { db: scratch, login: values.login, password: values.password, durationDays: 1, name: 'hold-up-against-odoo' },
      origin,
      Date.now(),
    );

    // 4. clients that never read
    if (parts.has('readers')) out.neverReading = await neverReading(minted.uid, minted.key);

    // 2. warm API-key calls and Redis
    if (parts.has('redis')) {
      const shared = await gatewayWith([
        '--redis-url',
        redis.url,
        '--state-secret',
        'hold-up-against-odoo-secret-0123456789',
        '--redis-timeout',
        '200',
      ]);
      const warm = () => jsonrpc(shared.url, 'object', 'execute_kw', [scratch, minted.uid, minted.key, 'res.users', 'context_get', []]);
      await warm();
      await sleep(200);
      const { redisClient } = await import('../test/support/redis.ts');
      const commands = async () => {
        const client = redisClient(redis.url);
        const info = await client.info('commandstats');
        client.disconnect();
        let total = 0;
        for (const m of info.matchAll(/^cmdstat_([a-z|]+):calls=(\d+)/gm)) if (m[1] !== 'info') total += Number(m[2]);
        return total;
      };
      const c0 = await commands();
      const warmMs: number[] = [];
      for (let i = 0; i < 50; i++) {
        const t = performance.now();
        if ((await warm()).error !== undefined) throw new Error('warm call failed');
        warmMs.push(performance.now() - t);
      }
      out.warmCalls = { calls: 50, redisCommands: (await commands()) - c0, p50Ms: pct(warmMs, 50), p95Ms: pct(warmMs, 95) };
      redis.pause();
      const stalledWarm: number[] = [];
      const refused: number[] = [];
      for (let i = 0; i < 20; i++) {
        let t = performance.now();
        await warm();
        stalledWarm.push(performance.now() - t);
        t = performance.now();
        await jsonrpc(shared.url, 'common', 'login', [scratch, `nobody${i}`, 'wrong']);
        refused.push(performance.now() - t);
      }
      const readyz = (await (await fetch(`${shared.adminUrl}/readyz`)).json()) as { redis?: string };
      redis.resume();
      out.redisStall = {
        warmP50Ms: pct(stalledWarm, 50),
        warmMaxMs: Math.round(Math.max(...stalledWarm)),
        refusedLoginsMs: refused.map(Math.round),
        readyzRedis: readyz.redis,
      };
      await shared.close();
    }

    // 3. 64-client bursts
    for (const connections of parts.has('burst') ? ['32', '64'] : []) {
      const gateway = await gatewayWith(['--upstream-connections', connections]);
      let ok = 0;
      let http500 = 0;
      let otherFaults = 0;
      const deadline = Date.now() + seconds * 1000;
      const heavy = async () => {
        while (Date.now() < deadline) {
          const answer = await jsonrpc(gateway.url, 'object', 'execute_kw', [
            scratch,
            minted.uid,
            minted.key,
            'ir.model.fields',
            'search_read',
            [[]],
            { fields: ['name', 'model', 'ttype'], limit: 400 },
          ]);
          if (answer.error === undefined) ok++;
          else if (/HTTP 500/.test(answer.error.data?.message ?? '')) http500++;
          else otherFaults++;
        }
      };
      const light: number[] = [];
      const lightLoop = async () => {
        while (Date.now() < deadline) {
          const t = performance.now();
          await jsonrpc(gateway.url, 'object', 'execute_kw', [scratch, minted.uid, minted.key, 'res.users', 'context_get', []]);
          light.push(performance.now() - t);
        }
      };
      // light calls alone first, for the baseline
      const alone: number[] = [];
      for (let i = 0; i < 20; i++) {
        const t = performance.now();
        await jsonrpc(gateway.url, 'object', 'execute_kw', [scratch, minted.uid, minted.key, 'res.users', 'context_get', []]);
        alone.push(performance.now() - t);
      }
      await Promise.all([...Array.from({ length: 60 }, heavy), ...Array.from({ length: 4 }, lightLoop)]);
      out[`burst64_upstreamConnections${connections}`] = {
        heavyOk: ok,
        http500,
        otherFaults,
        lightAloneP50Ms: pct(alone, 50),
        lightInBurstP50Ms: pct(light, 50),
        lightInBurstP95Ms: pct(light, 95),
        lightCalls: light.length,
      };
      await gateway.close();
    }
  } finally {
    redis.resume();
    await redis.stop();
    const dropped = await jsonrpc(admin.url, 'db', 'drop', [values.master, scratch]);
    out.scratchDropped = dropped.result === true;
    await admin.close();
  }
  console.log(JSON.stringify(out, null, 2));
}

/** Milliseconds `run` took, or its failure's message. */
async function timed(run: () => Promise<unknown>): Promise<number | string> {
  const t = performance.now();
  try {
    const out = await run();
    if (out !== null && typeof out === 'object' && 'error' in out && out.error !== undefined)
      return `${JSON.stringify(out.error).slice(0, 160)} after ${Math.round(performance.now() - t)} ms`;
    return Math.round(performance.now() - t);
  } catch (err) {
    return `${err instanceof Error ? err.message : String(err)} after ${Math.round(performance.now() - t)} ms`;
  }
}

const worst = (xs: (number | string)[]) => ({
  n: xs.length,
  failed: xs.filter((x) => typeof x === 'string').length,
  firstFailure: xs.find((x) => typeof x === 'string'),
  maxMs: Math.max(...xs.map((x) => (typeof x === 'number' ? x : Number(/after (\d+)/.exec(x)?.[1] ?? NaN)))),
  p50Ms: pct(
    xs.filter((x): x is number => typeof x === 'number'),
    50,
  ),
});

/** 16 uploads trickled at 1 byte/s, and direct and gateway calls meanwhile. */
async function spool(db: string): Promise<Record<string, unknown>> {
  const gateway = await gatewayWith([]);
  const sockets: Socket[] = [];
  const { port } = new URL(gateway.url);
  for (let i = 0; i < 16; i++) {
    const socket = connect(Number(port), '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write(
      `POST /web/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 2000000\r\n\r\n`,
    );
    sockets.push(socket);
  }
  const drip = setInterval(() => sockets.forEach((s) => s.write('a')), 1000);
  const direct: (number | string)[] = [];
  const through: (number | string)[] = [];
  const end = Date.now() + seconds * 1000;
  await jsonrpc(gateway.url, 'common', 'login', [db, values.login, values.password]);
  while (Date.now() < end) {
    direct.push(
      await timed(() =>
        Promise.race([
          jsonrpc(upstreamUrl, 'common', 'version', []),
          sleep(10_000).then(() => Promise.reject(new Error('no answer in 10 s'))),
        ]),
      ),
    );
    through.push(await timed(() => jsonrpc(gateway.url, 'object', 'execute_kw', [db, 2, values.password, 'res.users', 'context_get', []])));
    await sleep(500);
  }
  clearInterval(drip);
  sockets.forEach((s) => s.destroy());
  await gateway.close();
  return {
    uploads: 16,
    declaredBytes: 2_000_000,
    bytesPerSecond: 1,
    seconds,
    directVersion: worst(direct),
    gatewayContextGet: worst(through),
  };
}

/** 32 slow calls in a loop; /readyz and a light call meanwhile. */
async function shares(db: string): Promise<Record<string, unknown>> {
  const gateway = await gatewayWith(values.flags.split(' ').filter((f) => f !== ''));
  await jsonrpc(gateway.url, 'common', 'login', [db, values.login, values.password]);
  const light = () => jsonrpc(gateway.url, 'object', 'execute_kw', [db, 2, values.password, 'res.users', 'context_get', []]);
  const directLight = () => jsonrpc(upstreamUrl, 'object', 'execute_kw', [db, 2, values.password, 'res.users', 'context_get', []]);
  const alone = { gateway: await timed(light), direct: await timed(directLight) };
  let running = true;
  const slowMs: number[] = [];
  // slow calls answered with a fault (the message, with its count), e.g. a queue bound in the gateway
  const slowFaults = new Map<string, number>();
  const stop = new AbortController();
  const slowBody = JSON.stringify({
    jsonrpc: '2.0',
    method: 'call',
    id: 1,
    params: { service: 'object', method: 'execute_kw', args: [db, 2, values.password, 'ir.model.fields', 'search_read', [[]], {}] },
  });
  const slow = Array.from({ length: 32 }, async () => {
    while (running) {
      const t = performance.now();
      // abandoned when the measure ends: the gateway aborts them upstream
      const text = await fetch(`${gateway.url}/jsonrpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: slowBody,
        signal: stop.signal,
      })
        .then((r) => r.text())
        .catch(() => undefined);
      if (text === undefined) continue;
      let fault: string | undefined;
      try {
        const error = (JSON.parse(text) as { error?: { data?: { message?: string } } }).error;
        if (error !== undefined) fault = error.data?.message?.slice(0, 120) ?? '?';
      } catch {
        fault = text.slice(0, 120);
      }
      if (fault === undefined) slowMs.push(performance.now() - t);
      else slowFaults.set(fault, (slowFaults.get(fault) ?? 0) + 1);
    }
  });
  await sleep(Number(values.warmup) * 1000);
  const readyz: (number | string)[] = [];
  const lightMs: (number | string)[] = [];
  const directMs: (number | string)[] = [];
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end && readyz.length < Number(values.samples)) {
    if (readyz.length > 0) await sleep(Number(values.pause));
    readyz.push(
      await timed(async () => {
        const res = await fetch(`${gateway.adminUrl}/readyz`);
        const body = (await res.json()) as { status: string; reason?: string };
        if (res.status !== 200) throw new Error(body.reason ?? body.status);
      }),
    );
    lightMs.push(await timed(light));
    directMs.push(await timed(directLight));
  }
  const metrics = await (await fetch(`${gateway.adminUrl}/metrics`)).text();
  running = false;
  stop.abort();
  await Promise.all(slow);
  await gateway.close();
  const pick = (name: string) => metrics.split('\n').filter((l) => l.startsWith(name) && !l.startsWith('#'));
  return {
    alone,
    slowCalls: { answered: slowMs.length, p50Ms: pct(slowMs, 50), faults: Object.fromEntries(slowFaults) },
    readyz: worst(readyz),
    lightThroughGateway: worst(lightMs),
    lightDirect: worst(directMs),
    metrics: [
      ...pick('legacy_rpc_gateway_upstream_queue_wait_seconds_count'),
      ...pick('legacy_rpc_gateway_upstream_queue_wait_seconds_sum'),
      ...pick('legacy_rpc_gateway_upstream_queue_timeouts_total'),
      ...pick('legacy_rpc_gateway_upstream_waiting_calls'),
      ...pick('legacy_rpc_gateway_upstream_busy_connections'),
    ],
  };
}

/** A gateway a day ahead: mints for one login and 6 calls. */
async function skew(db: string): Promise<Record<string, unknown>> {
  const gateway = await startGateway(loadConfig(['--port', '0', '--admin-port', '0', '--upstream', upstreamUrl], {}), log, {
    now: () => Date.now() + 86_400_000,
  });
  const ms: (number | string)[] = [];
  ms.push(await timed(() => jsonrpc(gateway.url, 'common', 'login', [db, 'demo', 'demo'])));
  for (let i = 0; i < 6; i++)
    ms.push(await timed(() => jsonrpc(gateway.url, 'object', 'execute_kw', [db, 5, 'demo', 'res.users', 'context_get', []])));
  const metrics = await (await fetch(`${gateway.adminUrl}/metrics`)).text();
  await gateway.close();
  return { calls: ms.length, callMs: ms, mints: metrics.split('\n').filter((l) => l.startsWith('legacy_rpc_gateway_key_exchanges_total')) };
}

async function round2(which: Set<string>): Promise<void> {
  const out: Record<string, unknown> = {
    upstream: upstreamUrl,
    db: values.db,
    load: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
  };
  console.log(JSON.stringify(out));
  // each part printed as it ends
  if (which.has('spool')) console.log(JSON.stringify({ spool: await spool(values.db) }, null, 2));
  if (which.has('shares')) console.log(JSON.stringify({ shares: await shares(values.db) }, null, 2));
  if (which.has('skew')) console.log(JSON.stringify({ skew: await skew(values.db) }, null, 2));
}

/** 8. One light call made slow by a lock while slow calls run; then light calls through the gateway and direct. */
async function outlier(db: string): Promise<Record<string, unknown>> {
  const copy = 'scratch44';
  await jsonrpc(upstreamUrl, 'db', 'drop', [values.master, copy]); // left by an interrupted run
  const dup = await jsonrpc(upstreamUrl, 'db', 'duplicate_database', [values.master, db, copy]);
  if (dup.result !== true) throw new Error(`could not copy ${db} to ${copy}: ${JSON.stringify(dup.error)}`);
  const gateway = await gatewayWith(values.flags.split(' ').filter((f) => f !== ''));
  try {
    await jsonrpc(gateway.url, 'common', 'login', [copy, values.login, values.password]);
    const count = (url: string) => jsonrpc(url, 'object', 'execute_kw', [copy, 2, values.password, 'res.partner', 'search_count', [[]]]);
    const alone = { gateway: [] as (number | string)[], direct: [] as (number | string)[] };
    for (let i = 0; i < 5; i++) {
      alone.gateway.push(await timed(() => count(gateway.url)));
      alone.direct.push(await timed(() => count(upstreamUrl)));
    }
    let running = true;
    const stop = new AbortController();
    const slowBody = JSON.stringify({
      jsonrpc: '2.0',
      method: 'call',
      id: 1,
      params: { service: 'object', method: 'execute_kw', args: [copy, 2, values.password, 'ir.model.fields', 'search_read', [[]], {}] },
    });
    const slowMs: number[] = [];
    const slow = Array.from({ length: Number(values.heavy) }, async () => {
      while (running) {
        const t = performance.now();
        const ok = await fetch(`${gateway.url}/jsonrpc`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: slowBody,
          signal: stop.signal,
        })
          .then((r) => r.text())
          .then(() => true)
          .catch(() => false);
        if (ok) slowMs.push(performance.now() - t);
      }
    });
    await sleep(Number(values.warmup) * 1000);
    // the one slow moment: res_partner locked for 2.5 s while a light call runs
    const conf = readFileSync('/etc/odoo19.conf', 'utf8');
    const setting = (name: string) => new RegExp(`^${name}\\s*=\\s*(.*)$`, 'm').exec(conf)?.[1]?.trim() ?? '';
    const lock = execFileP(
      'psql',
      [
        '-h',
        setting('db_host') || '127.0.0.1',
        '-U',
        setting('db_user'),
        '-d',
        copy,
        '-c',
        'BEGIN; LOCK TABLE res_partner IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(2.5); COMMIT;',
      ],
      { env: { ...process.env, PGPASSWORD: setting('db_password') } },
    );
    await sleep(200);
    const outlierMs = await timed(() => count(gateway.url));
    await lock;
    const lightMs: (number | string)[] = [];
    const directMs: (number | string)[] = [];
    const end = Date.now() + seconds * 1000;
    while (Date.now() < end && lightMs.length < Number(values.samples)) {
      lightMs.push(await timed(() => count(gateway.url)));
      directMs.push(await timed(() => count(upstreamUrl)));
    }
    running = false;
    stop.abort();
    await Promise.all(slow);
    return {
      alone: { gateway: worst(alone.gateway), direct: worst(alone.direct) },
      slowCalls: { answered: slowMs.length, p50Ms: pct(slowMs, 50) },
      outlierMs,
      lightAfterThroughGateway: lightMs,
      lightAfterDirect: directMs,
    };
  } finally {
    await gateway.close();
    // Odoo still runs the abandoned slow calls for a while: the copy is dropped once they end
    let dropped = await jsonrpc(upstreamUrl, 'db', 'drop', [values.master, copy]);
    for (let i = 0; i < 20 && dropped.result !== true; i++) {
      await sleep(3000);
      dropped = await jsonrpc(upstreamUrl, 'db', 'drop', [values.master, copy]);
    }
    if (dropped.result !== true) console.error(`${copy} not dropped: ${JSON.stringify(dropped.error).slice(0, 200)}`);
  }
}

/** 9. Logins against an Odoo whose clock lags its database's: what they answer, how many keys they mint. */
async function clock(db: string): Promise<Record<string, unknown>> {
  const gateway = await gatewayWith(values.flags.split(' ').filter((f) => f !== ''));
  const answers: string[] = [];
  const started = Date.now();
  for (let i = 0; i < Number(values.samples); i++) {
    if (i > 0) await sleep(4000);
    const a = await jsonrpc(gateway.url, 'common', 'login', [db, 'demo', 'demo']);
    answers.push(
      a.error === undefined ? `result ${JSON.stringify(a.result)}` : (a.error.data?.message ?? JSON.stringify(a.error)).slice(0, 400),
    );
  }
  const seconds = Math.round((Date.now() - started) / 1000);
  const metrics = await (await fetch(`${gateway.adminUrl}/metrics`)).text();
  await gateway.close();
  // the gateway's keys Odoo holds (read with the admin's password over Odoo's own /jsonrpc)
  const keys = await jsonrpc(upstreamUrl, 'object', 'execute_kw', [
    db,
    2,
    values.password,
    'res.users.apikeys',
    'search_count',
    [[['name', '=like', 'legacy-rpc-gateway%']]],
  ]);
  return {
    seconds,
    answers,
    gatewayKeysInOdoo: keys.result ?? keys.error?.data?.message,
    mints: metrics.split('\n').filter((l) => l.startsWith('legacy_rpc_gateway_key_exchanges_total')),
  };
}

if (values.round3 !== undefined) {
  const which = new Set(values.round3.split(','));
  console.log(
    JSON.stringify({ upstream: upstreamUrl, db: values.db, load: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ') }),
  );
  if (which.has('outlier')) console.log(JSON.stringify({ outlier: await outlier(values.db) }, null, 2));
  if (which.has('clock')) console.log(JSON.stringify({ clock: await clock(values.db) }, null, 2));
} else if (values.round2 === undefined) await main();
else await round2(new Set(values.round2.split(',')));
