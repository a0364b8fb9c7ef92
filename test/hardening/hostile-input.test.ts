/**
 * Hostile input (part 1): every case of `hostile-cases.ts` is sent on a bare socket to a
 * gateway child process; all answers are parsed in one Python run (`xmlrpc.client.loads` /
 * `json.loads`) and each must be the fault, error or 4xx Odoo gives (or the gateway's documented
 * deviation) within a generous per-case bound. The process must stay up, and its open descriptors
 * and resident memory must come back to their warm-up baseline.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.ts';
import { categories, hostileCases, jsonCall, pathOf, xmlCall, type HostileCase } from './hostile-cases.ts';
import { fdsOf, settle, startChildGateway, type ChildGateway } from './support/child-gateway.ts';
import { comparable, expectedAnswer, pythonVerdicts, resolveExpected, type ParsedAnswer, type Oracle } from './support/python-verdicts.ts';
import { rawRequest, type RawAnswer } from './support/raw-request.ts';

const maxBody = 8 * 2 ** 20;
const maxDepth = 256;
// Long enough that an 8 MiB body sent by a test process sharing 2 cores with a CPU-bound load is
// received in time (2 s was not, nor was 6 s beside a second test run: the huge-body cases got 408),
// short enough to keep the run short.
const requestTimeoutMs = 10_000;
/** A case's answer must be complete within this (slow-loris cases included: --request-timeout plus the check interval). */
const perCaseBoundMs = 30_000;
/**
 * After a GC, live memory (V8 heap in use + external: every Buffer) may stay this much above the
 * warm-up baseline; the lower of two later passes is compared, so memory must stay to count. Live
 * memory repeats within 1 MiB between identical passes.
 */
const liveToleranceBytes = 16 * 2 ** 20;
/**
 * Resident memory outside the V8 heap (RSS minus the heap V8 has committed) is the figure for native
 * leaks. It moves by up to 50 MiB between identical passes with live memory flat (allocator arenas of
 * the worker threads); RSS itself moved by 60 MiB more, V8 keeping heap it committed for 8 MiB strings
 * (heapTotal 38 -> 71 MiB), and failed a CI run with no leak. A pass sends 440 MiB (34 bodies over
 * 1 MiB), so this bound still fails a process that keeps a tenth of what it is sent.
 */
const nativeToleranceBytes = 80 * 2 ** 20;
/**
 * glibc raises its mmap threshold after freeing a large block, so later 8 MiB bodies come from the
 * heap and stay resident after free; a fixed threshold returns them, and the figure shows what is held.
 */
const allocatorEnv = { MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_ARENA_MAX: '2' };

const adminPassword = 'admin';
const cases = hostileCases({ maxBody, maxDepth, adminPassword, requestTimeoutMs });

let sim: Simulator;
let gateway: ChildGateway;
let baseline: { native: number; fds: number; live: number };
const laterPasses: Array<{ native: number; fds: number; live: number }> = [];
const answers = new Map<string, RawAnswer>();
let verdicts: Map<string, { answer: ParsedAnswer; oracle: Oracle | null }>;

const send = (c: HostileCase, port: number) =>
  rawRequest({
    port,
    path: pathOf(c.endpoint, c.service),
    headers: c.headers,
    chunks: c.chunks,
    ...(c.chunkDelayMs === undefined ? {} : { chunkDelayMs: c.chunkDelayMs }),
    ...(c.contentLength === undefined ? {} : { contentLength: c.contentLength }),
    ...(c.chunked === undefined ? {} : { chunked: c.chunked }),
    ...(c.raw === undefined ? {} : { raw: c.raw }),
    ...(c.after === undefined ? {} : { after: c.after }),
    timeoutMs: perCaseBoundMs,
  });

/** Ordinary traffic, to warm the process up before the baseline. */
async function warmUp(port: number) {
  for (let i = 0; i < 30; i++) {
    await rawRequest({ port, path: '/xmlrpc/2/common', chunks: [Buffer.from(xmlCall('version'))], timeoutMs: perCaseBoundMs });
    await rawRequest({
      port,
      path: '/jsonrpc',
      headers: [['Content-Type', 'application/json']],
      chunks: [Buffer.from(jsonCall('common', 'version'))],
      timeoutMs: perCaseBoundMs,
    });
    await rawRequest({ port, path: '/xmlrpc/2/common', chunks: [Buffer.from('<methodCall><bad')], timeoutMs: perCaseBoundMs });
  }
}

/** Figures after idle connections closed and a full GC in the child (test-only SIGUSR2 hook). */
async function quietFigures(pid: number, fdsAtMost?: number) {
  if (fdsAtMost !== undefined) await settle(() => fdsOf(pid) <= fdsAtMost, 10_000);
  else await new Promise((r) => setTimeout(r, 500));
  const seen = gateway.lines.filter((l) => l.msg === 'gc figures').length;
  process.kill(pid, 'SIGUSR2');
  await settle(() => gateway.lines.filter((l) => l.msg === 'gc figures').length > seen, 5_000);
  const figures = gateway.lines.filter((l) => l.msg === 'gc figures').at(-1) as {
    heapUsed: number;
    external: number;
    heapTotal: number;
    rss: number;
  };
  return { native: figures.rss - figures.heapTotal, fds: fdsOf(pid), live: figures.heapUsed + figures.external };
}

/** Sends the whole table: slow cases all at once (they mostly wait), the rest through a few lanes. */
async function sendAll(port: number) {
  const slow = cases.filter((c) => c.category === 'slow bodies');
  const rest = cases.filter((c) => c.category !== 'slow bodies');
  const slowDone = Promise.all(slow.map(async (c) => answers.set(c.id, await send(c, port))));
  let next = 0;
  await Promise.all(
    Array.from({ length: 6 }, async () => {
      while (next < rest.length) {
        const c = rest[next++] as HostileCase;
        answers.set(c.id, await send(c, port));
      }
    }),
  );
  await slowDone;
}

beforeAll(async () => {
  sim = await startSimulator({ databases: ['demo'] });
  gateway = await startChildGateway(
    ['--upstream', sim.url, '--max-body', String(maxBody), '--max-depth', String(maxDepth), '--request-timeout', String(requestTimeoutMs)],
    ['--expose-gc', '--import', new URL('./support/gc-on-signal.mjs', import.meta.url).pathname],
    allocatorEnv,
  );
  // execute_kw with a password needs the uid to have logged in once (docs/architecture.md §5)
  const auth = await fetch(`${gateway.url}/xmlrpc/2/common`, {
    method: 'POST',
    body: xmlCall(
      'authenticate',
      ['demo', 'admin', adminPassword, '<value><struct></struct></value>'].map((p) =>
        p.startsWith('<') ? p : `<value><string>${p}</string></value>`,
      ),
    ),
  });
  expect(await auth.text()).toContain('<int>2</int>');
  // warm-up: ordinary calls and one unasserted pass of the table (V8 and allocator pools settle)
  await warmUp(gateway.port);
  await sendAll(gateway.port);
  baseline = await quietFigures(gateway.pid);
  for (let pass = 0; pass < 2; pass++) {
    answers.clear();
    await sendAll(gateway.port);
    laterPasses.push(await quietFigures(gateway.pid, baseline.fds));
  }
  verdicts = pythonVerdicts(cases, answers, [['demo', 2, adminPassword]]);
}, 400_000);

afterAll(async () => {
  await gateway?.stop();
  await sim?.close();
});

describe('hostile input', () => {
  it.each(categories.map((c) => [c, cases.filter((x) => x.category === c).length]))('%s: at least 40 cases (%i)', (_category, count) => {
    expect(count).toBeGreaterThanOrEqual(40);
  });

  describe.each(categories)('%s', (category) => {
    it.each(cases.filter((c) => c.category === category).map((c) => [c.id, c] as const))('%s', (_id, c) => {
      const answer = answers.get(c.id) as RawAnswer;
      const verdict = verdicts.get(c.id);
      const expected = resolveExpected(c.expect, verdict?.oracle ?? null);
      if (typeof expected === 'string') throw new Error(expected);
      if (c.knownGap !== undefined) {
        // pinned until fixed: the gateway's answer, still different from Odoo's
        const pinned = expectedAnswer(c.endpoint, c.knownGap.answer);
        expect(comparable(verdict?.answer as ParsedAnswer, pinned)).toEqual(pinned);
        expect(pinned).not.toEqual(expectedAnswer(c.endpoint, expected));
        return;
      }
      const want = expectedAnswer(c.endpoint, expected);
      const got = comparable(verdict?.answer as ParsedAnswer, want);
      expect(got).toEqual(want);
      expect(answer.elapsedMs).toBeLessThan(perCaseBoundMs);
    });
  });

  it('stays up, answers afterwards, and its descriptors and memory return to the baseline', async () => {
    expect(gateway.alive()).toBe(true);
    const version = await fetch(`${gateway.url}/xmlrpc/2/common`, { method: 'POST', body: xmlCall('version') });
    expect(await version.text()).toContain('<name>server_serie</name>');
    const after = await quietFigures(gateway.pid, baseline.fds);
    expect(after.fds).toBeLessThanOrEqual(baseline.fds);
    expect(Math.min(...laterPasses.map((p) => p.live))).toBeLessThanOrEqual(baseline.live + liveToleranceBytes);
    expect(Math.min(...laterPasses.map((p) => p.native))).toBeLessThanOrEqual(baseline.native + nativeToleranceBytes);
    expect(gateway.lines.filter((l) => l.msg === 'unhandled error')).toEqual([]);
    expect(gateway.stderr()).toBe('');
  });
});
