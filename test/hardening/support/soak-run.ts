/**
 * The soak: mixed legacy traffic at a steady rate through a gateway child process in front of the
 * simulator — reads and writes on all three endpoints, expected faults, logins with credentials the
 * gateway has not seen — while the gateway's VmRSS and open descriptors are sampled. Every answer is
 * checked against what that call must give; anything else is an unexpected error.
 */
import { startSimulator } from '../../../sim/index.ts';
import { parseJson, stringifyJson } from '../../../src/json/index.ts';
import type { Value } from '../../../src/value.ts';
import { parseTaggedResponse, taggedToValue } from '../../../src/cutover/compare/xmlrpc-tagged.ts';
import { encodeRequest } from '../../fixtures-xml/xmlrpc-request.ts';
import { toValue } from '../../support/stack.ts';
import { fdsOf, rssOf, settle, startChildGateway } from './child-gateway.ts';

export interface SoakOptions {
  seconds: number;
  /** Operations started per second (an operation is one call, or create → write → read → unlink). */
  rate: number;
  /** Operations in flight at most; a tick finding them all busy is counted as skipped. */
  concurrency: number;
  /** Seconds of warm-up before the baseline is taken. */
  warmupSeconds: number;
  sampleEveryMs: number;
  log?: (line: string) => void;
}

export interface SoakSample {
  at: number;
  rssBytes: number;
  fds: number;
}

export interface SoakFigures {
  seconds: number;
  rate: number;
  operations: number;
  calls: number;
  callsByKind: Record<string, number>;
  skippedTicks: number;
  unexpected: number;
  unexpectedSamples: string[];
  createdAtSimulator: number;
  unlinkedAtSimulator: number;
  /** The soak's records still in the simulator at the end, asked through the gateway (0: every created record was removed). */
  leftBehind: number;
  baselineRss: number;
  finalRss: number;
  rssGrowth: number;
  baselineFds: number;
  finalFds: number;
  maxFds: number;
  samples: SoakSample[];
  gatewayAlive: boolean;
}

type Answer = { result: Value } | { fault: { code: Value; name?: string } };

/** Runs the soak and returns its figures (the caller asserts or records them). */
export async function runSoak(opts: SoakOptions): Promise<SoakFigures> {
  const log = opts.log ?? (() => undefined);
  const sim = await startSimulator({ databases: ['demo', 'other'], logLimit: 500_000 });
  const gw = await startChildGateway(['--upstream', sim.url, '--log-level', 'info']);
  try {
    return await drive(opts, log, sim, gw);
  } finally {
    await gw.stop();
    await sim.close();
  }
}

async function drive(
  opts: SoakOptions,
  log: (line: string) => void,
  sim: Awaited<ReturnType<typeof startSimulator>>,
  gw: Awaited<ReturnType<typeof startChildGateway>>,
): Promise<SoakFigures> {
  const adminPassword = sim.users('demo').find((u) => u.login === 'admin')?.password as string;
  const callsByKind: Record<string, number> = {};
  const unexpectedSamples: string[] = [];
  let unexpected = 0;
  let calls = 0;
  let credentialSerial = 0;
  let credentialTurn: Promise<void> = Promise.resolve();

  const xml = async (dialect: 'xmlrpc1' | 'xmlrpc2', service: string, method: string, params: unknown[]): Promise<Answer> => {
    const path = dialect === 'xmlrpc2' ? `/xmlrpc/2/${service}` : `/xmlrpc/${service}`;
    const res = await fetch(gw.url + path, {
      method: 'POST',
      body: new Uint8Array(encodeRequest(method, params.map(toValue))),
      headers: { 'content-type': 'text/xml', 'user-agent': 'soak/1' },
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`HTTP ${res.status} ${text.slice(0, 200)}`);
    const answer = parseTaggedResponse(text);
    if (answer.kind === 'params') return { result: taggedToValue(answer.params[0]!) };
    const fault = taggedToValue(answer.fault) as Map<string, Value>;
    return { fault: { code: fault.get('faultCode') as Value } };
  };
  let id = 0;
  const json = async (service: string, method: string, args: unknown[]): Promise<Answer> => {
    const body = stringifyJson(toValue({ jsonrpc: '2.0', method: 'call', params: { service, method, args }, id: ++id }));
    const res = await fetch(`${gw.url}/jsonrpc`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'user-agent': 'soak/1' },
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`HTTP ${res.status} ${text.slice(0, 200)}`);
    const envelope = parseJson(text) as Map<string, Value>;
    if (!envelope.has('error')) return { result: envelope.get('result') ?? null };
    const error = envelope.get('error') as Map<string, Value>;
    return { fault: { code: error.get('code') as Value, name: String((error.get('data') as Map<string, Value>).get('name')) } };
  };

  /** Counts the call and checks its answer; a mismatch is an unexpected error. */
  const expectAnswer = (kind: string, answer: Answer, ok: (a: Answer) => boolean) => {
    calls++;
    callsByKind[kind] = (callsByKind[kind] ?? 0) + 1;
    if (!ok(answer)) {
      unexpected++;
      if (unexpectedSamples.length < 10)
        unexpectedSamples.push(
          `${kind}: ${JSON.stringify(answer, (_k, v: unknown) => (v instanceof Map ? Object.fromEntries(v) : typeof v === 'bigint' ? String(v) : v))}`,
        );
    }
  };
  const isResult = (test: (v: Value) => boolean) => (a: Answer) => 'result' in a && test(a.result);
  const isFault = (code: Value, name?: string) => (a: Answer) =>
    'fault' in a && a.fault.code === code && (name === undefined || a.fault.name === name);
  const isInt = (v: Value) => typeof v === 'number' && Number.isInteger(v) && v > 0;

  // the uid must have logged in once before execute_kw with a password (docs/architecture.md §5)
  const uid = await xml('xmlrpc2', 'common', 'authenticate', ['demo', 'admin', adminPassword, {}]);
  if (!('result' in uid) || uid.result !== 2) throw new Error(`authenticate failed: ${JSON.stringify(uid)}`);
  const other = await xml('xmlrpc2', 'common', 'authenticate', [
    'other',
    'admin',
    sim.users('other').find((u) => u.login === 'admin')?.password,
    {},
  ]);
  if (!('result' in other) || other.result !== 2) throw new Error(`authenticate failed: ${JSON.stringify(other)}`);

  const kw = (model: string, method: string, args: unknown[], kwargs: Record<string, unknown> = {}) => [
    'demo',
    2,
    adminPassword,
    model,
    method,
    args,
    kwargs,
  ];
  const operations: Array<[weight: number, run: () => Promise<void>]> = [
    [
      25,
      async () =>
        expectAnswer(
          'read xmlrpc2 search_read',
          await xml(
            'xmlrpc2',
            'object',
            'execute_kw',
            kw('res.partner', 'search_read', [[['is_company', '=', true]]], { fields: ['name', 'email'], limit: 5 }),
          ),
          isResult((v) => Array.isArray(v) && v.length > 0),
        ),
    ],
    [
      10,
      async () =>
        expectAnswer(
          'read xmlrpc1 search_count',
          await xml('xmlrpc1', 'object', 'execute_kw', kw('res.partner', 'search_count', [[]])),
          isResult(isInt),
        ),
    ],
    [
      15,
      async () =>
        expectAnswer(
          'read jsonrpc read',
          await json('object', 'execute_kw', kw('res.partner', 'read', [[3]], { fields: ['name'] })),
          isResult((v) => Array.isArray(v) && v.length === 1),
        ),
    ],
    [
      5,
      async () =>
        expectAnswer(
          'read jsonrpc version',
          await json('common', 'version', []),
          isResult((v) => v instanceof Map && v.get('server_serie') === '19.0'),
        ),
    ],
    [
      15,
      async () => {
        const dialect = Math.random() < 0.5 ? 'xmlrpc2' : 'xmlrpc1';
        const created = await xml(dialect, 'object', 'execute_kw', kw('res.partner', 'create', [{ name: `soak ${Date.now()}` }]));
        expectAnswer('write create', created, isResult(isInt));
        if (!('result' in created)) return;
        const recordId = created.result;
        expectAnswer(
          'write write',
          await json('object', 'execute_kw', kw('res.partner', 'write', [[recordId], { email: 'soak@example.com' }])),
          isResult((v) => v === true),
        );
        expectAnswer(
          'write read back',
          await xml('xmlrpc2', 'object', 'execute_kw', kw('res.partner', 'read', [[recordId]], { fields: ['email'] })),
          isResult((v) => Array.isArray(v) && (v[0] as Map<string, Value>).get('email') === 'soak@example.com'),
        );
        expectAnswer(
          'write unlink',
          await xml(dialect, 'object', 'execute_kw', kw('res.partner', 'unlink', [[recordId]])),
          isResult((v) => v === true),
        );
      },
    ],
    [
      8,
      async () =>
        expectAnswer(
          'fault missing record (2)',
          await xml('xmlrpc2', 'object', 'execute_kw', kw('res.partner', 'write', [[999_999], { name: 'x' }])),
          isFault(2),
        ),
    ],
    // wrong passwords in a database no other traffic uses: once its failures reach --throttle-failures the
    // gateway refuses that (address, db, login) altogether, valid cached passwords included (report)
    [
      5,
      async () =>
        expectAnswer(
          'fault wrong password (3)',
          await xml('xmlrpc2', 'object', 'execute_kw', ['other', 2, 'not the password', 'res.partner', 'search_count', [[]]]),
          isFault(3),
        ),
    ],
    [
      5,
      async () =>
        expectAnswer(
          'fault unknown model',
          await json('object', 'execute_kw', kw('no.such.model', 'search', [[]])),
          isFault(0, 'odoo.exceptions.UserError'),
        ),
    ],
    [
      4,
      async () =>
        expectAnswer('fault malformed xml (1)', await xmlRaw(gw.url, '<methodCall><methodName>version</methodName><params>'), isFault(1)),
    ],
    [
      8,
      () => {
        // a password the gateway has never seen: a fresh login, a fresh minted key (one at a time:
        // the next one changes the password again)
        const run = async () => {
          const password = `soak-pass-${++credentialSerial}-${Date.now()}`;
          sim.control.setPassword('demo', 'demo', password);
          const who = await json('common', 'authenticate', ['demo', 'demo', password, {}]);
          expectAnswer(
            'new credentials authenticate',
            who,
            isResult((v) => v === 5),
          );
          expectAnswer(
            'new credentials call',
            await xml('xmlrpc2', 'object', 'execute_kw', ['demo', 5, password, 'res.partner', 'search_count', [[]]]),
            isResult((v) => typeof v === 'number'),
          );
        };
        credentialTurn = credentialTurn.then(run, run);
        return credentialTurn;
      },
    ],
  ];
  const totalWeight = operations.reduce((n, [w]) => n + w, 0);
  const pick = () => {
    let r = Math.random() * totalWeight;
    for (const [w, run] of operations) if ((r -= w) < 0) return run;
    return operations[0]![1];
  };

  const samples: SoakSample[] = [];
  const started = Date.now();
  const sample = () => samples.push({ at: (Date.now() - started) / 1000, rssBytes: rssOf(gw.pid), fds: fdsOf(gw.pid) });
  let inFlight = 0;
  let operationsRun = 0;
  let skippedTicks = 0;
  const running = new Set<Promise<void>>();
  const tick = () => {
    if (inFlight >= opts.concurrency) {
      skippedTicks++;
      return;
    }
    inFlight++;
    operationsRun++;
    const p = pick()()
      .catch((err: unknown) => {
        unexpected++;
        if (unexpectedSamples.length < 10) unexpectedSamples.push(`transport: ${err instanceof Error ? err.message : String(err)}`);
      })
      .finally(() => {
        inFlight--;
        running.delete(p);
      });
    running.add(p);
  };
  /** Stops the traffic until every operation in flight is answered, then samples quietly. */
  const quietSample = async () => {
    await Promise.all(running);
    await new Promise((r) => setTimeout(r, 1000));
    sample();
    return samples.at(-1) as SoakSample;
  };

  const interval = 1000 / opts.rate;
  let next = performance.now();
  let nextSample = Date.now();
  let baseline: SoakSample | undefined;
  const warmupEnd = started + opts.warmupSeconds * 1000;
  const end = started + opts.seconds * 1000;
  while (Date.now() < end) {
    if (baseline === undefined && Date.now() >= warmupEnd) {
      baseline = await quietSample();
      log(`baseline after warm-up: rss ${(baseline.rssBytes / 2 ** 20).toFixed(1)} MiB, ${baseline.fds} fds`);
      next = performance.now();
    }
    if (Date.now() >= nextSample) {
      sample();
      nextSample += opts.sampleEveryMs;
      const s = samples.at(-1) as SoakSample;
      if (samples.length % 12 === 0)
        log(`t=${s.at.toFixed(0)} s rss ${(s.rssBytes / 2 ** 20).toFixed(1)} MiB fds ${s.fds} calls ${calls} unexpected ${unexpected}`);
    }
    tick();
    next += interval;
    const wait = next - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
  baseline ??= await quietSample();
  const final = await quietSample();
  // the descriptors of idle keep-alive connections (client and upstream pools) may close late
  await settle(() => fdsOf(gw.pid) <= baseline.fds, 5000);
  const finalFds = fdsOf(gw.pid);
  // Requests that reached the simulator, for the figures: a create refused before anything ran (a
  // 401 for a key taken away meanwhile) and sent again counts twice there, so whether anything was
  // left behind is asked of the data instead.
  const created = sim.log.filter((r) => r.path === '/json/2/res.partner/create').length;
  const unlinked = sim.log.filter((r) => r.path === '/json/2/res.partner/unlink').length;
  const left = await xml('xmlrpc2', 'object', 'execute_kw', kw('res.partner', 'search_count', [[['name', '=like', 'soak %']]]));
  if (!('result' in left) || typeof left.result !== 'number')
    throw new Error(`counting the records left behind failed: ${JSON.stringify(left)}`);
  return {
    seconds: opts.seconds,
    rate: opts.rate,
    operations: operationsRun,
    calls,
    callsByKind,
    skippedTicks,
    unexpected,
    unexpectedSamples,
    createdAtSimulator: created,
    unlinkedAtSimulator: unlinked,
    leftBehind: left.result,
    baselineRss: baseline.rssBytes,
    finalRss: final.rssBytes,
    rssGrowth: (final.rssBytes - baseline.rssBytes) / baseline.rssBytes,
    baselineFds: baseline.fds,
    finalFds,
    maxFds: Math.max(...samples.map((s) => s.fds)),
    samples,
    gatewayAlive: gw.alive(),
  };
}

/** A raw XML-RPC body to `/xmlrpc/2/common`, answered as a fault or result. */
async function xmlRaw(url: string, body: string): Promise<Answer> {
  const res = await fetch(`${url}/xmlrpc/2/common`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'text/xml', 'user-agent': 'soak/1' },
  });
  const answer = parseTaggedResponse(await res.text());
  if (answer.kind === 'params') return { result: taggedToValue(answer.params[0]!) };
  return { fault: { code: (taggedToValue(answer.fault) as Map<string, Value>).get('faultCode') as Value } };
}
