import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { LegacyError, upstreamErrorName } from '../errors.ts';
import { workKindOf } from './shared-http.ts';
import { createWorkShares, type WorkShareOptions } from './work-shares.ts';

const never = new AbortController().signal;
const tooLong = () => new LegacyError('upstream_timeout', { name: upstreamErrorName, message: 'waited too long' });
const shares = (o: Partial<WorkShareOptions> = {}) =>
  createWorkShares({ shares: { call: 1, keys: 1, db: 1 }, slowAfterMs: 0, slowLane: 0, maxWaitMs: 60_000, waitedTooLong: tooLong, ...o });

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
    expect(s.waiting()).toEqual({ call: 1, keys: 0, db: 0 });
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
    const s = shares({ maxWaitMs: 30, events: { waiting: (k, d) => events.push(`${k}${d}`), waited: () => undefined, timedOut: (k) => events.push(`timeout ${k}`) } });
    await s.acquire('db', never);
    await expect(s.acquire('db', never)).rejects.toThrow('waited too long');
    const gone = new AbortController();
    const waiting = s.acquire('db', gone.signal);
    gone.abort(new Error('client left'));
    await expect(waiting).rejects.toThrow('client left');
    expect(s.waiting().db).toBe(0);
    expect(events).toEqual(['db1', 'db-1', 'timeout db', 'db1', 'db-1']);
  });
});
