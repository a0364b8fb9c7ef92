import { describe, expect, it, vi } from 'vitest';
import { LegacyError } from '../errors.ts';
import { parseJson } from '../json/index.ts';
import type { DocBearerAnswer } from '../upstream/index.ts';
import { createDiscoverySource, type FetchDoc } from './discovery.ts';
import { modelAbsent, type MethodSignature } from './signature.ts';
import { testCallOrigin } from '../../test/support/call-origin.ts';

const ttlMs = 300_000;

/** A `/doc-bearer/<model>.json` 200 answer listing `methods` (name → parameter names). */
function modified(etag: string, methods: Record<string, string[]>): DocBearerAnswer {
  const entries = Object.fromEntries(
    Object.entries(methods).map(([m, params]) => [
      m,
      { parameters: Object.fromEntries(params.map((p) => [p, {}])), model: 'x_custom.model' },
    ]),
  );
  return { status: 'modified', etag, body: parseJson(JSON.stringify({ model: 'x_custom.model', methods: entries })) };
}

const notModified: DocBearerAnswer = { status: 'not-modified' };
const forbidden = new LegacyError('access_error', {
  name: 'odoo.exceptions.AccessError',
  message: 'This page is only accessible to Technical Documentation users.',
});
const unauthorized = new LegacyError('access_denied', { name: 'werkzeug.exceptions.Unauthorized', message: 'Invalid apikey' });
const notFound = new LegacyError('internal', { name: 'werkzeug.exceptions.NotFound', message: "the model 'x' does not exist" });
const timeout = new LegacyError('upstream_timeout', {
  name: 'legacy_rpc_gateway.UpstreamError',
  message: 'upstream did not answer in time (http://odoo, 120000 ms)',
});

const serviceKey = 's'.repeat(40);
const adminKey = 'a'.repeat(40);
const demoKey = 'd'.repeat(40);

/** A discovery source over scripted answers, a controllable clock and a recording logger. */
function setup(...answers: (DocBearerAnswer | Error)[]) {
  return setupWith({ serviceKey }, ...answers);
}

/** As {@link setup}, with the service key of every database given (`undefined`: none). */
function setupWith(options: { serviceKey: string | undefined }, ...answers: (DocBearerAnswer | Error)[]) {
  let t = 1_000_000;
  const queue = [...answers];
  const fetchDoc = vi.fn<FetchDoc>(async () => {
    const next = queue.shift();
    if (next === undefined) throw new Error('no scripted answer left');
    if (next instanceof Error) throw next;
    return next;
  });
  const log = { debug: vi.fn(), info: vi.fn(), warn: vi.fn() };
  const source = createDiscoverySource({ fetchDoc, serviceKeyFor: () => options.serviceKey, ttlMs, log: log as never, now: () => t });
  const names = async (method: string, db = 'gw', model = 'x_custom.model', callerKey?: string) =>
    ((await source.lookup(db, model, method, undefined, callerKey)) as MethodSignature | undefined)?.params.map((p) => p.name);
  const keysAsked = () => fetchDoc.mock.calls.map((c) => c[2]);
  return {
    source,
    fetchDoc,
    log,
    names,
    keysAsked,
    advance: (ms: number) => void (t += ms),
    push: (...a: (DocBearerAnswer | Error)[]) => queue.push(...a),
  };
}

/** api_doc's `raise NotFound()` for `model_name not in self.env`: werkzeug's own text. */
const noSuchModel = new LegacyError('internal', {
  name: 'werkzeug.exceptions.NotFound',
  message: 'The requested URL was not found on the server. If you entered the URL manually please check your spelling and try again.',
});

describe('createDiscoverySource()', () => {
  it("says a model is absent to the lookup that fetched api_doc's 404 for it, and only to that one", async () => {
    const s = setup(noSuchModel);
    await expect(s.source.lookup('gw', 'no.such.model', 'search')).resolves.toBe(modelAbsent);
    // the cached answer may be stale (a module installed since): the next call asks Odoo itself
    await expect(s.source.lookup('gw', 'no.such.model', 'search')).resolves.toBeUndefined();
    expect(s.fetchDoc).toHaveBeenCalledTimes(1);
  });

  it('says nothing of the model on any other 404', async () => {
    const s = setup(notFound, upstreamHtml404());
    await expect(s.source.lookup('gw', 'm.one', 'search')).resolves.toBeUndefined();
    await expect(s.source.lookup('gw', 'm.two', 'search')).resolves.toBeUndefined();
  });

  it('fetches a model once, then serves every method of it from the document', async () => {
    const s = setup(modified('"e1"', { action_a: ['note', 'flag'], action_b: [] }));
    await expect(s.source.lookup('gw', 'x_custom.model', 'action_a')).resolves.toEqual({
      params: [
        { name: 'note', kind: 'POSITIONAL_OR_KEYWORD' },
        { name: 'flag', kind: 'POSITIONAL_OR_KEYWORD' },
      ],
      apiModel: false,
      qualname: 'XCustomModel.action_a',
      source: 'discovered',
    });
    expect(await s.names('action_b')).toEqual([]);
    expect(await s.names('not_documented')).toBeUndefined();
    expect(s.fetchDoc).toHaveBeenCalledTimes(1);
    expect(s.fetchDoc).toHaveBeenCalledWith('gw', 'x_custom.model', serviceKey, undefined, undefined);
  });

  it('is fresh for the TTL, then revalidates with the ETag: 304 keeps, 200 replaces', async () => {
    const s = setup(modified('"e1"', { action_a: ['note'] }), notModified, modified('"e2"', { action_a: ['message', 'note'] }));
    expect(await s.names('action_a')).toEqual(['note']);
    s.advance(ttlMs - 1);
    expect(await s.names('action_a')).toEqual(['note']);
    expect(s.fetchDoc).toHaveBeenCalledTimes(1);
    s.advance(1);
    expect(await s.names('action_a')).toEqual(['note']);
    expect(s.fetchDoc).toHaveBeenCalledTimes(2);
    expect(s.fetchDoc).toHaveBeenLastCalledWith('gw', 'x_custom.model', serviceKey, '"e1"', undefined);
    s.advance(ttlMs - 1);
    expect(await s.names('action_a')).toEqual(['note']);
    expect(s.fetchDoc).toHaveBeenCalledTimes(2);
    s.advance(1);
    expect(await s.names('action_a')).toEqual(['message', 'note']);
    expect(s.fetchDoc).toHaveBeenLastCalledWith('gw', 'x_custom.model', serviceKey, '"e1"', undefined);
    s.push(notModified);
    s.advance(ttlMs);
    await s.names('action_a');
    expect(s.fetchDoc).toHaveBeenLastCalledWith('gw', 'x_custom.model', serviceKey, '"e2"', undefined);
  });

  it('makes one request for concurrent first uses of a (db, model), and one per (db, model)', async () => {
    const s = setup(modified('"e1"', { action_a: ['a'] }), modified('"e1"', { action_a: ['b'] }), modified('"e1"', { action_a: ['c'] }));
    const results = await Promise.all([
      s.names('action_a'),
      s.names('action_a'),
      s.names('action_a'),
      s.names('action_a', 'other'),
      s.names('action_a', 'gw', 'res.partner'),
    ]);
    expect(results).toEqual([['a'], ['a'], ['a'], ['b'], ['c']]);
    expect(s.fetchDoc).toHaveBeenCalledTimes(3);
  });

  it('passes the calling origin on to the fetch', async () => {
    const s = setup(modified('"e1"', {}));
    const origin = testCallOrigin({ host: 'erp.example.com', ip: '10.0.0.1', proto: 'https', userAgent: 'py', requestId: 'r1' });
    await s.source.lookup('gw', 'x_custom.model', 'a', origin);
    expect(s.fetchDoc).toHaveBeenCalledWith('gw', 'x_custom.model', serviceKey, undefined, origin);
  });

  it.each([
    [
      '403 (no Technical Documentation group)',
      forbidden,
      "signature discovery with the service key is off for this database: the key's user is not in the Technical Documentation group (/doc-bearer answered 403); each caller's own key is tried, then the built-in signature table serves",
    ],
    [
      '401 (key not valid there)',
      unauthorized,
      "signature discovery with the service key is off for this database: the key is not valid there (/doc-bearer answered 401); each caller's own key is tried, then the built-in signature table serves",
    ],
  ])('turns the service key off for a database on %s, logged once, and retries after a while', async (_what, error, message) => {
    const s = setup(error);
    for (let i = 0; i < 5; i++) expect(await s.names('action_a')).toBeUndefined();
    expect(await s.names('search', 'gw', 'res.partner')).toBeUndefined();
    expect(s.fetchDoc).toHaveBeenCalledTimes(1);
    expect(s.log.warn).toHaveBeenCalledTimes(1);
    expect(s.log.warn).toHaveBeenCalledWith({ db: 'gw' }, message);

    s.push(modified('"e1"', { action_b: ['x'] }));
    expect(await s.names('action_b', 'other')).toEqual(['x']); // another database is not affected

    s.push(error);
    s.advance(ttlMs);
    expect(await s.names('action_a')).toBeUndefined();
    expect(s.fetchDoc).toHaveBeenCalledTimes(3);
    expect(s.log.warn).toHaveBeenCalledTimes(1);

    s.push(modified('"e2"', { action_a: ['note'] }));
    s.advance(ttlMs);
    expect(await s.names('action_a')).toEqual(['note']);
    expect(s.log.info).toHaveBeenLastCalledWith({ db: 'gw' }, 'signature discovery is on for this database');
  });

  it('waits at least a minute before asking a refusing database again, even with a short TTL', async () => {
    const fetchDoc = vi.fn<FetchDoc>(async () => Promise.reject(forbidden));
    let t = 0;
    const source = createDiscoverySource({
      fetchDoc,
      serviceKeyFor: () => serviceKey,
      ttlMs: 0,
      log: { debug: vi.fn(), info: vi.fn(), warn: vi.fn() } as never,
      now: () => t,
    });
    await source.lookup('gw', 'res.partner', 'search');
    t += 59_999;
    await source.lookup('gw', 'res.partner', 'search');
    expect(fetchDoc).toHaveBeenCalledTimes(1);
    t += 1;
    await source.lookup('gw', 'res.partner', 'search');
    expect(fetchDoc).toHaveBeenCalledTimes(2);
  });

  it('treats a 404 as a model without documentation, for the TTL, without a warning', async () => {
    const s = setup(notFound);
    expect(await s.names('action_a')).toBeUndefined();
    expect(await s.names('action_b')).toBeUndefined();
    expect(s.fetchDoc).toHaveBeenCalledTimes(1);
    expect(s.log.warn).not.toHaveBeenCalled();
    s.push(modified('"e1"', { action_a: ['note'] }));
    s.advance(ttlMs);
    expect(await s.names('action_a')).toEqual(['note']);
  });

  it.each([
    ['a timeout', timeout, 'upstream did not answer in time (http://odoo, 120000 ms)'],
    [
      'a body that is not a model document',
      // the assertion keeps `status` the literal 'modified' in the table's inferred type
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
      { status: 'modified', etag: '"x"', body: parseJson('[]') } as DocBearerAnswer,
      '/doc-bearer/x_custom.model.json is not a model document',
    ],
    ['a 304 to an unconditional request', notModified, '/doc-bearer answered 304 to a request without If-None-Match'],
  ])('falls back on %s, warns once, and retries within 10 s', async (_what, failure, error) => {
    const s = setup(failure, failure);
    expect(await s.names('action_a')).toBeUndefined();
    expect(s.log.warn).toHaveBeenCalledWith(
      { db: 'gw', model: 'x_custom.model', error },
      'signature discovery failed; the built-in signature table serves until /doc-bearer answers',
    );
    s.advance(9_999);
    expect(await s.names('action_a')).toBeUndefined();
    expect(s.fetchDoc).toHaveBeenCalledTimes(1);
    s.advance(1);
    expect(await s.names('action_a')).toBeUndefined();
    expect(s.fetchDoc).toHaveBeenCalledTimes(2);
    expect(s.log.warn).toHaveBeenCalledTimes(1);
  });

  it('keeps serving the document it has when a revalidation fails', async () => {
    const s = setup(modified('"e1"', { action_a: ['note'] }), timeout, notModified);
    expect(await s.names('action_a')).toEqual(['note']);
    s.advance(ttlMs);
    expect(await s.names('action_a')).toEqual(['note']);
    s.advance(10_000);
    expect(await s.names('action_a')).toEqual(['note']);
    expect(s.fetchDoc).toHaveBeenLastCalledWith('gw', 'x_custom.model', serviceKey, '"e1"', undefined);
  });
});

describe("createDiscoverySource() with the caller's key (no service key for the database)", () => {
  const noService = { serviceKey: undefined };

  it('asks with the key of the call that needs the document, and serves what it learned to every caller of that database', async () => {
    const s = setupWith(noService, modified('"e1"', { action_a: ['note'] }), modified('"e1"', { action_a: ['other'] }));
    expect(await s.names('action_a', 'gw', 'x_custom.model', adminKey)).toEqual(['note']);
    expect(s.fetchDoc).toHaveBeenCalledWith('gw', 'x_custom.model', adminKey, undefined, undefined);
    // another user, a user whose key could not read it, no key at all: the same document, no request
    expect(await s.names('action_a', 'gw', 'x_custom.model', demoKey)).toEqual(['note']);
    expect(await s.names('action_a', 'gw', 'x_custom.model')).toEqual(['note']);
    expect(s.fetchDoc).toHaveBeenCalledTimes(1);
    // another database learns its own
    expect(await s.names('action_a', 'gw2', 'x_custom.model', adminKey)).toEqual(['other']);
    expect(s.fetchDoc).toHaveBeenCalledTimes(2);
  });

  it('makes one request for concurrent callers with different keys: one look-up per (db, model), not per caller', async () => {
    const s = setupWith(noService, modified('"e1"', { action_a: ['note'] }));
    const keys = [adminKey, demoKey, 'b'.repeat(40), 'c'.repeat(40)];
    const results = await Promise.all(keys.map((k) => s.names('action_a', 'gw', 'x_custom.model', k)));
    expect(results).toEqual(keys.map(() => ['note']));
    expect(s.keysAsked()).toEqual([adminKey]);
  });

  it('revalidates after the TTL with whichever caller comes, and the ETag it holds', async () => {
    const s = setupWith(noService, modified('"e1"', { action_a: ['note'] }), notModified);
    await s.names('action_a', 'gw', 'x_custom.model', adminKey);
    s.advance(ttlMs);
    expect(await s.names('action_a', 'gw', 'x_custom.model', demoKey)).toEqual(['note']);
    expect(s.fetchDoc).toHaveBeenLastCalledWith('gw', 'x_custom.model', demoKey, '"e1"', undefined);
  });

  it('does not ask again with a key /doc-bearer refused (403) for the TTL, in that database; other keys still ask', async () => {
    const s = setupWith(noService, forbidden);
    expect(await s.names('action_a', 'gw', 'x_custom.model', demoKey)).toBeUndefined();
    expect(await s.names('action_a', 'gw', 'res.partner', demoKey)).toBeUndefined();
    s.advance(ttlMs - 1);
    expect(await s.names('action_a', 'gw', 'x_custom.model', demoKey)).toBeUndefined();
    expect(s.keysAsked()).toEqual([demoKey]);
    expect(s.log.warn).not.toHaveBeenCalled(); // a user outside the group is no misconfiguration

    s.push(forbidden); // the same key in another database is another user
    expect(await s.names('action_a', 'gw2', 'x_custom.model', demoKey)).toBeUndefined();
    s.push(modified('"e1"', { action_a: ['note'] })); // a key of the group learns it for everyone
    expect(await s.names('action_a', 'gw', 'x_custom.model', adminKey)).toEqual(['note']);
    expect(await s.names('action_a', 'gw', 'x_custom.model', demoKey)).toEqual(['note']);
    expect(s.keysAsked()).toEqual([demoKey, demoKey, adminKey]);

    // both the refusal and the document are past their TTL: demo's key is asked again, refused, and
    // the document it cannot revalidate still serves
    s.push(forbidden);
    s.advance(ttlMs);
    expect(await s.names('action_a', 'gw', 'x_custom.model', demoKey)).toEqual(['note']);
    expect(s.keysAsked()).toEqual([demoKey, demoKey, adminKey, demoKey]);
  });

  it('remembers a refused key for at least a minute, even with a short TTL', async () => {
    const fetchDoc = vi.fn<FetchDoc>(async () => Promise.reject(forbidden));
    let t = 0;
    const source = createDiscoverySource({
      fetchDoc,
      serviceKeyFor: () => undefined,
      ttlMs: 0,
      log: { debug: vi.fn(), info: vi.fn(), warn: vi.fn() } as never,
      now: () => t,
    });
    await source.lookup('gw', 'res.partner', 'search', undefined, demoKey);
    t += 59_999;
    await source.lookup('gw', 'res.partner', 'search', undefined, demoKey);
    expect(fetchDoc).toHaveBeenCalledTimes(1);
    t += 1;
    await source.lookup('gw', 'res.partner', 'search', undefined, demoKey);
    expect(fetchDoc).toHaveBeenCalledTimes(2);
  });

  it("stores nothing for the model after a caller's key is refused: the next caller with another key asks at once", async () => {
    const s = setupWith(noService, forbidden, modified('"e1"', { action_a: ['note'] }));
    expect(await s.names('action_a', 'gw', 'x_custom.model', demoKey)).toBeUndefined();
    expect(await s.names('action_a', 'gw', 'x_custom.model', adminKey)).toEqual(['note']);
    expect(s.keysAsked()).toEqual([demoKey, adminKey]);
  });

  it('asks nothing without a service key or a caller key', async () => {
    const s = setupWith(noService);
    expect(await s.names('action_a')).toBeUndefined();
    expect(s.fetchDoc).not.toHaveBeenCalled();
  });

  it("tries the caller's key in the same look-up when the service key is refused; the service key is not asked again meanwhile", async () => {
    const s = setup(forbidden, modified('"e1"', { action_a: ['note'] }), modified('"e1"', { action_b: ['x'] }));
    expect(await s.names('action_a', 'gw', 'x_custom.model', adminKey)).toEqual(['note']);
    expect(await s.names('action_b', 'gw', 'res.partner', adminKey)).toEqual(['x']);
    expect(s.keysAsked()).toEqual([serviceKey, adminKey, adminKey]);
    expect(s.log.warn).toHaveBeenCalledTimes(1);
  });

  it('prefers the service key where the database has one', async () => {
    const s = setup(modified('"e1"', { action_a: ['note'] }));
    await s.names('action_a', 'gw', 'x_custom.model', adminKey);
    expect(s.keysAsked()).toEqual([serviceKey]);
  });

  it('never logs a key', async () => {
    const s = setupWith(noService, forbidden, unauthorized, timeout, modified('"e1"', { action_a: ['note'] }));
    await s.names('action_a', 'gw', 'x_custom.model', demoKey);
    await s.names('action_a', 'gw', 'res.partner', adminKey);
    await s.names('action_a', 'gw', 'res.users', 'b'.repeat(40));
    s.advance(ttlMs);
    await s.names('action_a', 'gw', 'res.users', 'c'.repeat(40));
    const logged = JSON.stringify([s.log.debug.mock.calls, s.log.info.mock.calls, s.log.warn.mock.calls]);
    expect(s.log.debug).toHaveBeenCalledWith(
      expect.objectContaining({ db: 'gw', model: 'x_custom.model', status: 403 }),
      expect.stringContaining("refused the caller's key"),
    );
    for (const k of [demoKey, adminKey, 'b'.repeat(40), 'c'.repeat(40)]) expect(logged).not.toContain(k);
  });
});

/** An upstream without api_doc: its 404 page, read as an invalid answer. */
function upstreamHtml404(): LegacyError {
  return new LegacyError('upstream_invalid', {
    name: 'legacy_rpc_gateway.UpstreamError',
    message: 'upstream answered HTTP 404 text/html; charset=utf-8 (http://odoo)',
  });
}
