import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LegacyError, upstreamErrorName } from '../errors.ts';
import { workKindOf } from './shared-http.ts';
import { createWorkShares, type WorkShareOptions } from './work-shares.ts';

const never = new AbortController().signal;
const tooLong = () => new LegacyError('upstream_timeout', { name: upstreamErrorName, message: 'waited too long' });
// the lane mechanics below: the last call of a key alone decides whether it is slow (slowSamples 1)
const shares = (o: Partial<WorkShareOptions> = {}) =>
  createWorkShares({
    shares: { call: 1, keys: 1, db: 1 },
    slowAfterMs: 0,
    slowLane: 0,
    slowSamples: 1,
    maxWaitMs: 60_000,
    waitedTooLong: tooLong,
    ...o,
  });

describe('workKindOf()', () => {
  it('tells key work, db transfers and ordinary calls apart by path', () => {
    expect(workKindOf('/web/session/authenticate')).toBe('keys');
    expect(workKindOf('/json/2/res.users.apikeys/search_read')).toBe('keys');
    expect(workKindOf('/web/database/backup')).toBe('db');
    expect(workKindOf('/json/2/res.partner/search_read')).toBe('call');
    expect(workKindOf('/web/version')).toBe('call');
  });
});

describe('createWorkShares()', () => {
  it('a key exchange and a db transfer are not queued behind ordinary calls', async () => {
    const s = shares();
    await s.acquire('call', never);
    const queued = s.acquire('call', never);
    await expect(s.acquire('keys', never)).resolves.toBeDefined();
    await expect(s.acquire('db', never)).resolves.toBeDefined();
    expect(s.waiting()).toEqual({ call: 1, keys: 0, db: 0, slow: 0 });
    void queued;
  });

  it('grants waiters in order as shares come back', async () => {
    const s = shares();
    const first = await s.acquire('call', never);
    const order: number[] = [];
    const second = s.acquire('call', never).then((t) => (order.push(2), t));
    const third = s.acquire('call', never).then((t) => (order.push(3), t));
    first.release();
    first.release(); // idempotent: frees one share only
    (await second).release();
    (await third).release();
    expect(order).toEqual([2, 3]);
    expect(s.busy()).toEqual({ call: 0, keys: 0, db: 0, slow: 0 });
  });

  it('a call running past slowAfterMs moves to the slow lane, freeing its share; the lane is bounded', async () => {
    const s = shares({ slowAfterMs: 30, slowLane: 1 });
    const a = await s.acquire('call', never);
    const b = await s.acquire('call', never); // a moved to the slow lane
    expect(s.busy()).toMatchObject({ call: 1, slow: 1 });
    await sleep(80); // b is slow too, but the lane is full: it keeps its share
    expect(s.busy()).toMatchObject({ call: 1, slow: 1 });
    a.release();
    b.release();
    expect(s.busy()).toMatchObject({ call: 0, slow: 0 });
  });

  it('a waiter gives up after maxWaitMs, or when its signal aborts, and leaves the queue', async () => {
    const events: string[] = [];
    const s = shares({
      maxWaitMs: 30,
      events: {
        waiting: (k, d) => events.push(`${k}${d}`),
        waited: () => undefined,
        timedOut: (k) => events.push(`timeout ${k}`),
        borrowed: () => undefined,
      },
    });
    await s.acquire('db', never);
    await expect(s.acquire('db', never)).rejects.toThrow('waited too long');
    const gone = new AbortController();
    const waiting = s.acquire('db', gone.signal);
    gone.abort(new Error('client left'));
    await expect(waiting).rejects.toThrow('client left');
    expect(s.waiting().db).toBe(0);
    expect(events).toEqual(['db1', 'db-1', 'timeout db', 'db1', 'db-1']);
  });

  it('calls of a cost key known slow wait for the slow lane and never take an ordinary share', async () => {
    const s = shares({ slowAfterMs: 20, slowLane: 1 });
    const first = await s.acquire('call', never, '/json/2/ir.model.fields/search_read');
    await sleep(60); // ran past slowAfterMs: its key is slow, it moved to the slow lane
    expect(s.busy()).toMatchObject({ call: 0, slow: 1 });
    const order: string[] = [];
    const slow = [1, 2, 3].map((n) =>
      s.acquire('call', never, '/json/2/ir.model.fields/search_read').then((t) => (order.push(`slow ${n}`), t)),
    );
    const light = await s.acquire('call', never, '/json/2/res.users/context_get');
    order.push('light');
    expect(s.waiting()).toEqual({ call: 0, keys: 0, db: 0, slow: 3 });
    expect(s.busy()).toMatchObject({ call: 1, slow: 1 });
    light.release();
    first.release();
    (await slow[0])?.release();
    (await slow[1])?.release();
    (await slow[2])?.release();
    expect(order).toEqual(['light', 'slow 1', 'slow 2', 'slow 3']);
    expect(s.busy()).toEqual({ call: 0, keys: 0, db: 0, slow: 0 });
  });

  it('a call queued before its key was found slow waits for the slow lane instead', async () => {
    const events: string[] = [];
    const s = shares({
      slowAfterMs: 20,
      slowLane: 1,
      events: { waiting: (q, d) => events.push(`${q}${d}`), waited: () => undefined, timedOut: () => undefined, borrowed: () => undefined },
    });
    const first = await s.acquire('call', never, '/json/2/a/slow');
    const second = s.acquire('call', never, '/json/2/a/slow'); // unknown yet: queued for an ordinary share
    expect(s.waiting()).toMatchObject({ call: 1, slow: 0 });
    await sleep(60); // the first ran past slowAfterMs and took the slow lane; the second is known slow now
    expect(s.waiting()).toMatchObject({ call: 0, slow: 1 });
    const light = await s.acquire('call', never, '/json/2/b/light');
    expect(s.busy()).toMatchObject({ call: 1, slow: 1 });
    first.release();
    (await second).release();
    light.release();
    expect(events).toEqual(['call1', 'call-1', 'slow1', 'slow-1']);
  });

  it('a room in the slow lane goes first to a call running over time, whose ordinary share the next call gets', async () => {
    const s = shares({ slowAfterMs: 20, slowLane: 1 });
    const inLane = await s.acquire('call', never, '/json/2/a/slow');
    await sleep(60);
    const overtime = await s.acquire('call', never, '/json/2/b/slow');
    await sleep(60); // past slowAfterMs too, but the slow lane is full: it keeps its ordinary share
    expect(s.busy()).toMatchObject({ call: 1, slow: 1 });
    const order: string[] = [];
    const knownSlow = s.acquire('call', never, '/json/2/a/slow').then((t) => (order.push('known slow'), t));
    const light = s.acquire('call', never, '/json/2/c/light').then((t) => (order.push('light'), t));
    expect(s.waiting()).toMatchObject({ call: 1, slow: 1 });
    inLane.release(); // the over-time call moves into the lane, the light call gets its share
    (await light).release();
    expect(order).toEqual(['light']);
    overtime.release();
    (await knownSlow).release();
    expect(order).toEqual(['light', 'known slow']);
  });

  it('with the slow lane full, calls known slow borrow ordinary shares beyond lightReserve, never the reserve; ordinary calls waiting go first', async () => {
    let borrowedCount = 0;
    const s = shares({
      shares: { call: 4, keys: 1, db: 1 },
      slowAfterMs: 20,
      slowLane: 1,
      lightReserve: 2,
      // three long calls first: the fast ends of the borrowed ones below leave /json/2/a/slow slow
      slowSamples: 3,
      events: {
        waiting: () => undefined,
        waited: () => undefined,
        timedOut: () => undefined,
        borrowed: () => borrowedCount++,
      },
    });
    for (let i = 0; i < 2; i++) {
      const long = await s.acquire('call', never, '/json/2/a/slow');
      await sleep(60);
      long.release();
    }
    const inLane = await s.acquire('call', never, '/json/2/a/slow');
    await sleep(60); // ran past slowAfterMs: /json/2/a/slow is known slow, and the call is in the slow lane
    expect(s.busy()).toMatchObject({ call: 0, slow: 1 });
    const order: string[] = [];
    const slow = [1, 2, 3, 4].map((n) => s.acquire('call', never, '/json/2/a/slow').then((t) => (order.push(`slow ${n}`), t)));
    await Promise.resolve();
    // two of them on ordinary shares (4 less the reserve of 2), two waiting
    expect(s.busy()).toMatchObject({ call: 2, slow: 1 });
    expect(s.waiting()).toMatchObject({ call: 0, slow: 2 });
    expect(borrowedCount).toBe(2);
    const lights = [await s.acquire('call', never, '/json/2/b/light'), await s.acquire('call', never, '/json/2/b/light')];
    expect(s.busy()).toMatchObject({ call: 4, slow: 1 });
    const thirdLight = s.acquire('call', never, '/json/2/b/light').then((t) => (order.push('light'), t));
    expect(s.waiting()).toMatchObject({ call: 1, slow: 2 });
    const borrowed = [await slow[0], await slow[1]];
    borrowed[0]?.release(); // the ordinary call waiting gets it, not a call known slow
    (await thirdLight).release();
    lights[0]?.release(); // 2 of 4 ordinary shares busy: none beyond the reserve
    expect(s.busy()).toMatchObject({ call: 2, slow: 1 });
    expect(order).toEqual(['slow 1', 'slow 2', 'light']);
    lights[1]?.release(); // one beyond the reserve free again: the next call known slow takes it
    expect(s.busy()).toMatchObject({ call: 2, slow: 1 });
    expect(s.waiting()).toMatchObject({ call: 0, slow: 1 });
    inLane.release(); // the slow lane: the last one
    expect(s.busy()).toMatchObject({ call: 2, slow: 1 });
    borrowed[1]?.release();
    (await slow[2])?.release();
    (await slow[3])?.release();
    expect(order).toEqual(['slow 1', 'slow 2', 'light', 'slow 3', 'slow 4']);
    expect(borrowedCount).toBe(3); // slow 4 ran in the slow lane
    expect(s.busy()).toEqual({ call: 0, keys: 0, db: 0, slow: 0 });
  });

  it("a call known slow waits up to slowMaxWaitMs, not the ordinary calls' maxWaitMs", async () => {
    const events: string[] = [];
    const bounds: string[] = [];
    const s = shares({
      slowAfterMs: 20,
      slowLane: 1,
      maxWaitMs: 30,
      slowMaxWaitMs: 60_000,
      waitedTooLong: (queue, _ms, bound) => (bounds.push(`${queue} ${bound}`), tooLong()),
      events: {
        waiting: () => undefined,
        waited: () => undefined,
        timedOut: (q) => events.push(`timeout ${q}`),
        borrowed: () => undefined,
      },
    });
    const inLane = await s.acquire('call', never, '/json/2/a/slow');
    await sleep(60);
    const slow = s.acquire('call', never, '/json/2/a/slow');
    const keys = await s.acquire('keys', never);
    await expect(s.acquire('keys', never)).rejects.toThrow('waited too long');
    await sleep(60); // past maxWaitMs twice over: the call known slow still waits
    expect(s.waiting()).toMatchObject({ keys: 0, slow: 1 });
    inLane.release();
    (await slow).release();
    keys.release();
    expect(events).toEqual(['timeout keys']);
    expect(bounds).toEqual(['keys queue']);
  });

  it('a waiter whose deadline passes (its signal aborts with a TimeoutError) fails with waitedTooLong, saying so', async () => {
    const bounds: string[] = [];
    const events: string[] = [];
    const s = shares({
      waitedTooLong: (queue, _ms, bound) => (bounds.push(`${queue} ${bound}`), tooLong()),
      events: {
        waiting: () => undefined,
        waited: () => undefined,
        timedOut: (q) => events.push(`timeout ${q}`),
        borrowed: () => undefined,
      },
    });
    await s.acquire('db', never);
    const deadline = new AbortController();
    const waiting = s.acquire('db', deadline.signal);
    deadline.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
    await expect(waiting).rejects.toThrow('waited too long');
    expect(bounds).toEqual(['db deadline']);
    expect(events).toEqual(['timeout db']);
    expect(s.waiting().db).toBe(0);
  });

  it('a call of a slow key that ends sooner clears the mark; marks are bounded', async () => {
    const s = shares({ shares: { call: 2, keys: 1, db: 1 }, slowAfterMs: 40, slowLane: 1, slowKeys: 1 });
    (await s.acquire('call', never, '/a')).release(); // fast: not marked
    const a = await s.acquire('call', never, '/a');
    await sleep(100);
    a.release(); // marked slow
    const again = await s.acquire('call', never, '/a');
    expect(s.busy()).toMatchObject({ call: 0, slow: 1 });
    again.release(); // ended sooner than slowAfterMs: the mark is gone
    const light = await s.acquire('call', never, '/a');
    expect(s.busy()).toMatchObject({ call: 1, slow: 0 });
    light.release();
    // one mark at most: marking /b forgets /a
    const c = await s.acquire('call', never, '/a');
    const b = await s.acquire('call', never, '/b');
    await sleep(100); // both run long: /a is marked, then /b, forgetting /a
    c.release();
    b.release();
    const afterB = await s.acquire('call', never, '/a');
    expect(s.busy()).toMatchObject({ call: 1 });
    afterB.release();
  });
});

describe('createWorkShares(): a method is slow by what it usually costs', () => {
  afterEach(() => void vi.useRealTimers());
  const light = '/json/2/res.partner/search_count';
  const heavy = '/json/2/ir.model.fields/search_read';
  /** One call of `key` that runs `ms` on the injected clock. */
  async function run(s: ReturnType<typeof shares>, key: string, ms: number): Promise<void> {
    const t = await s.acquire('call', never, key);
    await vi.advanceTimersByTimeAsync(ms);
    t.release();
  }

  it('a light method with one 2.5 s outlier stays in the light lane (default: 3 samples, median of 5)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const s = shares({ shares: { call: 4, keys: 1, db: 1 }, slowAfterMs: 2000, slowLane: 1, slowSamples: undefined });
    for (let i = 0; i < 3; i++) await run(s, light, 100);
    await run(s, light, 2500); // one slow moment (a lock, a busy Odoo)
    // the slow lane is full with a heavy call: a call known slow would wait for it
    const slowCall = await s.acquire('call', never, heavy);
    await vi.advanceTimersByTimeAsync(2001);
    expect(s.busy()).toMatchObject({ call: 0, slow: 1 });
    const next = await s.acquire('call', never, light);
    expect(s.busy()).toMatchObject({ call: 1, slow: 1 });
    expect(s.waiting()).toMatchObject({ call: 0, slow: 0 });
    next.release();
    // even as the very first calls: one outlier, then fast calls
    await run(s, '/json/2/res.country/search_read', 2500);
    const first = await s.acquire('call', never, '/json/2/res.country/search_read');
    expect(s.busy()).toMatchObject({ call: 1, slow: 1 });
    first.release();
    slowCall.release();
  });

  it('a heavy method is slow once most of its recent calls ran long, and light again once most of them are fast', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const s = shares({ shares: { call: 4, keys: 1, db: 1 }, slowAfterMs: 2000, slowLane: 1, lightReserve: 4, slowSamples: 3 });
    await run(s, heavy, 5000);
    await run(s, heavy, 5000);
    let t = await s.acquire('call', never, heavy); // two samples: not enough to call it slow
    expect(s.busy()).toMatchObject({ call: 1, slow: 0 });
    await vi.advanceTimersByTimeAsync(2001); // the third runs long: slow from now on, and it moved to the slow lane
    expect(s.busy()).toMatchObject({ call: 0, slow: 1 });
    const queued = s.acquire('call', never, heavy); // known slow: waits for the slow lane (no borrowing: reserve 4)
    expect(s.waiting()).toMatchObject({ slow: 1 });
    t.release();
    t = await queued;
    await vi.advanceTimersByTimeAsync(100);
    t.release(); // fast again once: 3 long, 1 fast of 4 — still slow
    t = await s.acquire('call', never, heavy);
    expect(s.busy()).toMatchObject({ call: 0, slow: 1 });
    t.release(); // 3 long of 5
    const blocker = await s.acquire('call', never, heavy);
    const waiting = s.acquire('call', never, heavy).then((x) => (x.release(), 'ran'));
    expect(s.waiting()).toMatchObject({ slow: 1 });
    blocker.release(); // 3 fast of the last 5: light again; the waiter runs on an ordinary connection
    expect(await waiting).toBe('ran');
    t = await s.acquire('call', never, heavy);
    expect(s.busy()).toMatchObject({ call: 1, slow: 0 });
    t.release();
  });

  it('calls waiting for the slow lane go back to the ordinary queue when their method is light again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const s = shares({ shares: { call: 2, keys: 1, db: 1 }, slowAfterMs: 2000, slowLane: 1, lightReserve: 2 });
    await run(s, light, 2500); // slowSamples 1: the last call decides
    await run(s, heavy, 2500);
    const inLane = await s.acquire('call', never, light); // known slow: in the slow lane
    const order: string[] = [];
    const heavyWaits = s.acquire('call', never, heavy).then((t) => (order.push('heavy'), t));
    const lightWaits = s.acquire('call', never, light).then((t) => (order.push('light'), t));
    expect(s.waiting()).toMatchObject({ call: 0, slow: 2 });
    await vi.advanceTimersByTimeAsync(100);
    inLane.release(); // fast: light again, so the light call waiting behind the heavy one takes an ordinary connection
    const [h, l] = await Promise.all([heavyWaits, lightWaits]);
    expect(s.busy()).toMatchObject({ call: 1, slow: 1 });
    expect(s.waiting()).toMatchObject({ call: 0, slow: 0 });
    expect(order.sort()).toEqual(['heavy', 'light']);
    h.release();
    l.release();
  });
});
