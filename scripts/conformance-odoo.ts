/**
 * Opt-in differential tester (needs a real Odoo 19, docs/testing.md "A real Odoo 19 for the opt-in checks"; never part of
 * `npm test` or CI): generated legacy calls (test/differential/generate.ts) sent to Odoo's own
 * `/xmlrpc/2`, `/xmlrpc` and `/jsonrpc` and, the same moment, through a gateway started in-process
 * against the same Odoo; the two answers compared strictly (src/cutover/shadow/compare-answers.ts: HTTP
 * status and type, XML-RPC tags, JSON ints vs floats, fault codes and exception lines), the
 * differences grouped by cause. Everything runs on a scratch copy of a database (created with
 * /web/database/duplicate, dropped at the end); records a call creates are read back from both
 * sides.
 *
 *   npm run conformance:odoo -- [--upstream http://127.0.0.1:8069] [--source gw] [--scratch scratch_diff]
 *                               [--calls 10000] [--seed 25] [--concurrency 4] [--out report.json] [--keep]
 *                               [--only 'object.binary|service.bare-path']
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { stringifyJson } from '../src/json/index.ts';
import { createLogger } from '../src/log.ts';
import { startGateway } from '../src/server/gateway.ts';
import { compareAnswers, type HttpAnswer } from '../src/cutover/shadow/compare-answers.ts';
import { viewAnswer } from '../src/cutover/shadow/answer-view.ts';
import { struct, type Value } from '../src/value.ts';
import { generateCalls, users, type Dialect, type GeneratedCall } from '../test/differential/generate.ts';
import { judge, type Outcome } from '../test/differential/outcome.ts';
import { encodeRequest } from '../test/fixtures-xml/xmlrpc-request.ts';

const { values } = parseArgs({
  options: {
    upstream: { type: 'string', default: 'http://127.0.0.1:8069' },
    source: { type: 'string', default: 'gw' },
    scratch: { type: 'string', default: 'scratch_diff' },
    master: { type: 'string', default: 'admin' },
    calls: { type: 'string', default: '10000' },
    seed: { type: 'string', default: '25' },
    concurrency: { type: 'string', default: '4' },
    out: { type: 'string', default: 'conformance-odoo-report.json' },
    keep: { type: 'boolean', default: false },
    /** Only the generated calls whose family matches this regex (a quick look at a few families). */
    only: { type: 'string' },
  },
});
const upstream = values.upstream;
const scratch = values.scratch;
if (!/^scratch\w*$/.test(scratch)) throw new Error('--scratch must start with "scratch": the tester drops it at the end');

async function manager(action: 'duplicate' | 'drop', fields: Record<string, string>): Promise<void> {
  const res = await fetch(`${upstream}/web/database/${action}`, {
    method: 'POST',
    body: new URLSearchParams({ master_pwd: values.master, ...fields }),
    redirect: 'manual',
  });
  await res.text();
  if (res.status !== 303) throw new Error(`/web/database/${action} answered HTTP ${res.status}`);
}

async function databases(): Promise<string[]> {
  const res = await fetch(`${upstream}/web/database/list`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"jsonrpc":"2.0","params":{}}',
  });
  return ((await res.json()) as { result: string[] }).result;
}

/** The params a call sends: the database first where it goes, then the user of object calls. */
function paramsOf(call: GeneratedCall): Value[] {
  const user = call.user ?? users.admin;
  const head: Value[] = call.db === 'first' ? [scratch] : [];
  return call.service === 'object' ? [...head, user.uid, user.password, ...call.params] : [...head, ...call.params];
}

async function send(base: string, dialect: Dialect, service: string, method: string, params: Value[], path?: string): Promise<HttpAnswer> {
  const req =
    dialect === 'jsonrpc'
      ? {
          path: '/jsonrpc',
          type: 'application/json',
          body: stringifyJson(struct({ jsonrpc: '2.0', method: 'call', id: 1, params: struct({ service, method, args: params }) })),
        }
      : { path: `/xmlrpc/${dialect === 'xmlrpc2' ? '2/' : ''}${service}`, type: 'text/xml', body: encodeRequest(method, params) };
  const res = await fetch(`${base}${path ?? req.path}`, {
    method: 'POST',
    headers: { 'content-type': req.type, 'user-agent': 'conformance-odoo/1' },
    body: req.body,
  });
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', body: await res.text() };
}

/** An int or a list of ints: what create and copy answer. */
function idsOf(v: Value | undefined): number[] | undefined {
  return typeof v === 'number' ? [v] : Array.isArray(v) && v.every((x) => typeof x === 'number') ? v : undefined;
}

/** The result of an answer, when it is one. */
function resultOf(dialect: Dialect, answer: HttpAnswer): Value | undefined {
  const view = viewAnswer(dialect, answer.body);
  return view.kind === 'result' ? view.value : undefined;
}

const readBackFields = ['name', 'email', 'color', 'credit_limit', 'comment', 'type', 'active', 'category_id', 'parent_id', 'is_company'];

interface Tally {
  calls: number;
  equal: number;
  /** Differences where Odoo, asked the same call again, answered otherwise than the first time. */
  odooDiffers: Map<string, number>;
  intended: Map<string, number>;
  causes: Map<
    string,
    { count: number; dialects: Set<string>; example: { call: string; odoo: string; gateway: string; differences: string[] } }
  >;
}

function record(
  tally: Tally,
  call: { dialect: Dialect; family: string; service: string; method: string; params: Value[] },
  odoo: HttpAnswer,
  gateway: HttpAnswer,
  outcome?: Outcome,
  odooAgain?: HttpAnswer,
): void {
  const o = outcome ?? judge(call.dialect, call.family, call.service, call.method, odoo, gateway, call.params);
  tally.calls++;
  if (o.kind === 'equal') tally.equal++;
  else if (
    o.kind === 'odoo-varies' ||
    (o.kind === 'differs' && odooAgain !== undefined && compareAnswers(call.dialect, odooAgain, odoo).length > 0)
  ) {
    tally.odooDiffers.set(call.family, (tally.odooDiffers.get(call.family) ?? 0) + 1);
  } else if (o.kind === 'intended') tally.intended.set(o.title, (tally.intended.get(o.title) ?? 0) + 1);
  else {
    const entry = tally.causes.get(o.cause) ?? {
      count: 0,
      dialects: new Set<string>(),
      example: {
        call: `${call.dialect} ${call.service}.${call.method}(${stringifyJson(call.params).slice(0, 300)})`,
        odoo: odoo.body.slice(-400),
        gateway: gateway.body.slice(-400),
        differences: o.differences.slice(0, 3).map((d) => `${d.path}: ${d.message}`.slice(0, 300)),
      },
    };
    entry.count++;
    entry.dialects.add(call.dialect);
    tally.causes.set(o.cause, entry);
  }
}

/** Runs one call on both sides; writes first make a record of each side's own, then read it back from both. */
async function run(tally: Tally, gatewayUrl: string, call: GeneratedCall): Promise<void> {
  const { dialect, service, method } = call;
  if (call.write === undefined || call.write === 'create') {
    const params = paramsOf(call);
    const odoo = await send(upstream, dialect, service, method, params, call.path);
    const gateway = await send(gatewayUrl, dialect, service, method, params, call.path);
    if (call.write === 'create') {
      // ids differ by construction: equal when both are ids (or both fail alike), then compare the records
      const o = resultOf(dialect, odoo);
      const g = resultOf(dialect, gateway);
      const oIds = idsOf(o);
      const gIds = idsOf(g);
      if (oIds !== undefined && gIds !== undefined && oIds.length === gIds.length && Array.isArray(o) === Array.isArray(g)) {
        record(tally, { ...call, params }, odoo, gateway, { kind: 'equal' });
        await readBack(tally, gatewayUrl, dialect, String(call.params[0]), oIds, gIds, call.params);
        return;
      }
    }
    // a read that differs is asked of Odoo once more: does Odoo answer it alike twice?
    const judged = judge(dialect, call.family, service, method, odoo, gateway, params);
    const again =
      judged.kind === 'differs' && call.write === undefined ? await send(upstream, dialect, service, method, params, call.path) : undefined;
    record(tally, { ...call, params }, odoo, gateway, judged, again);
    return;
  }
  // write, copy, unlink: each side on a record of its own, made alike
  const model = String(call.params[0]);
  const made = await Promise.all(
    [upstream, gatewayUrl].map((base) =>
      send(base, 'xmlrpc2', 'object', 'execute_kw', [
        scratch,
        2,
        'admin',
        model,
        'create',
        [struct({ name: `Differential ${call.write}` })],
      ]),
    ),
  );
  const [oId, gId] = made.map((a) => resultOf('xmlrpc2', a));
  if (typeof oId !== 'number' || typeof gId !== 'number') throw new Error(`could not create the records for ${call.write}`);
  const argsFor = (id: number): Value => [[id], ...(call.params[2] as Value[]).slice(1)];
  const withIds = (id: number) => paramsOf({ ...call, params: [model, call.params[1] as Value, argsFor(id), ...call.params.slice(3)] });
  const odoo = await send(upstream, dialect, service, method, withIds(oId));
  const gateway = await send(gatewayUrl, dialect, service, method, withIds(gId));
  if (call.write === 'copy') {
    // copy answers the new ids: compared by shape, then the copies themselves
    const o = idsOf(resultOf(dialect, odoo));
    const g = idsOf(resultOf(dialect, gateway));
    if (o !== undefined && g !== undefined && o.length === g.length) {
      record(tally, { ...call, params: withIds(gId) }, odoo, gateway, { kind: 'equal' });
      await readBack(tally, gatewayUrl, dialect, model, o, g, call.params);
      return;
    }
  }
  record(tally, { ...call, params: withIds(gId) }, odoo, gateway);
  if (call.write === 'write') await readBack(tally, gatewayUrl, dialect, model, [oId], [gId], call.params);
}

/**
 * Reads the records each side wrote, each through both endpoints (the same record must read the
 * same), and compares Odoo's record with the gateway's (the same call must have written the same).
 */
async function readBack(
  tally: Tally,
  gatewayUrl: string,
  dialect: Dialect,
  model: string,
  oIds: number[],
  gIds: number[],
  written: Value[],
): Promise<void> {
  const fields = model === 'res.partner' ? readBackFields : ['name'];
  const readAt = (base: string, ids: number[]) =>
    send(base, dialect, 'object', 'execute_kw', [scratch, 2, 'admin', model, 'read', [ids, fields]]);
  for (const ids of [oIds, gIds]) {
    const call = { dialect, family: 'object.read-back', service: 'object', method: 'execute_kw', params: [model, 'read', ids] as Value[] };
    record(tally, call, await readAt(upstream, ids), await readAt(gatewayUrl, ids));
  }
  // the two records, ids aside: the gateway wrote what Odoo wrote
  const strip = (a: HttpAnswer): HttpAnswer => ({
    ...a,
    body: a.body
      .replace(/<name>id<\/name>\n<value><int>\d+<\/int>/g, '<name>id</name>\n<value><int>0</int>')
      .replace(/"id": \d+/g, '"id": 0'),
  });
  // `params` are the write's: a value Odoo reads as another type (dateTime, base64) explains a difference
  const call = { dialect, family: 'object.written-alike', service: 'object', method: 'execute_kw', params: written };
  record(tally, call, strip(await readAt(upstream, oIds)), strip(await readAt(upstream, gIds)));
}

async function main(): Promise<void> {
  const version = await fetch(`${upstream}/web/version`).catch(() => undefined);
  if (version === undefined || !version.ok)
    throw new Error(`no Odoo at ${upstream}: set one up as docs/testing.md says (A real Odoo 19 for the opt-in checks)`);
  if ((await databases()).includes(scratch)) await manager('drop', { name: scratch });
  await manager('duplicate', { name: values.source, new_name: scratch });
  const config = loadConfig(['--port', '0', '--admin-port', '0', '--upstream', upstream], {});
  const gateway = await startGateway(config, createLogger('silent'));
  const started = Date.now();
  const tally: Tally = { calls: 0, equal: 0, odooDiffers: new Map(), intended: new Map(), causes: new Map() };
  let failed = 0;
  const runPhase = async (calls: GeneratedCall[], concurrency: number) => {
    let next = 0;
    const worker = async () => {
      while (next < calls.length) {
        const call = calls[next++] as GeneratedCall;
        try {
          await run(tally, gateway.url, call);
        } catch (err) {
          failed++;
          if (failed <= 5) console.error(`call failed: ${call.family} ${call.dialect}: ${String(err)}`);
        }
        if (tally.calls % 1000 === 0) process.stderr.write(`${tally.calls} compared\n`);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  };
  try {
    // uid → login: the gateway learns it from a login, as a client's session would start
    for (const user of [users.admin, users.demo]) {
      const login = user === users.admin ? 'admin' : 'demo';
      await send(gateway.url, 'xmlrpc2', 'common', 'login', [scratch, login, user.password]);
    }
    const only = values.only === undefined ? undefined : new RegExp(values.only);
    const all = generateCalls(Number(values.calls), Number(values.seed)).filter((c) => only === undefined || only.test(c.family));
    // reads in parallel first, then writes one at a time: a search must not see a record the other
    // side's twin call has not made yet
    const phases = [all.filter((c) => c.write === undefined), all.filter((c) => c.write !== undefined)];
    for (const [phase, calls] of phases.entries()) await runPhase(calls, phase === 0 ? Number(values.concurrency) : 1);
  } finally {
    await gateway.close();
    if (!values.keep)
      await manager('drop', { name: scratch }).catch((err: unknown) => console.error(`could not drop ${scratch}: ${String(err)}`));
  }
  const intended = [...tally.intended.values()].reduce((a, b) => a + b, 0);
  const odooDiffers = [...tally.odooDiffers.values()].reduce((a, b) => a + b, 0);
  const differing = tally.calls - tally.equal - intended - odooDiffers;
  const causes = [...tally.causes].sort((a, b) => b[1].count - a[1].count);
  const summary = {
    upstream,
    seed: Number(values.seed),
    seconds: Math.round((Date.now() - started) / 1000),
    calls: tally.calls,
    equal: tally.equal,
    odooDiffersFromItself: odooDiffers,
    intended,
    differing,
    failedToRun: failed,
    intendedByDeviation: Object.fromEntries(tally.intended),
    odooDiffersByFamily: Object.fromEntries(tally.odooDiffers),
    causes: causes.map(([cause, e]) => ({ cause, count: e.count, dialects: [...e.dialects].sort(), example: e.example })),
  };
  writeFileSync(values.out, `${JSON.stringify(summary, null, 2)}\n`);
  console.log(
    `${tally.calls} answers compared in ${summary.seconds} s (seed ${summary.seed}): ${tally.equal} equal, ${odooDiffers} where Odoo differs from itself, ` +
      `${intended} intended (listed), ${differing} unexplained in ${causes.length} causes, ${failed} calls failed to run`,
  );
  for (const [family, n] of tally.odooDiffers) console.log(`  Odoo differs from itself: ${n} × ${family}`);
  for (const [title, n] of tally.intended) console.log(`  intended: ${n} × ${title}`);
  for (const [cause, e] of causes) console.log(`  ${e.count} × [${[...e.dialects].join(',')}] ${cause}`);
  console.log(`report: ${values.out}`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
