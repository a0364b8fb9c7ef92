import { describe, expect, it, vi } from 'vitest';
import { LegacyError } from '../errors.ts';
import { parseJson } from '../json/index.ts';
import type { DocBearerAnswer } from '../upstream/index.ts';
import { createDiscoverySource, type FetchDoc } from './discovery.ts';

const ttlMs = 300_000;

/** A `/doc-bearer/<model>.json` 200 answer listing `methods` (name → parameter names). */
function modified(etag: string, methods: Record<string, string[]>): DocBearerAnswer {
  const entries = Object.fromEntries(
    Object.entries(methods).map(([m, params]) => [m, { parameters: Object.fromEntries(params.map((p) => [p, {}])), model: 'x_custom.model' }]),
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
const timeout = new LegacyError('upstream_timeout', { name: 'legacy_rpc_gateway.UpstreamError', message: 'upstream did not answer in time (http://odoo, 120000 ms)' });

/** A discovery source over scripted answers, a controllable clock and a recording logger. */
function setup(...answers: (DocBearerAnswer | Error)[]) {
  let t = 1_000_000;
  const queue = [...answers];
  const fetchDoc = vi.fn<FetchDoc>(async () => {
    const next = queue.shift();
    if (next === undefined) throw new Error('no scripted answer left');
    if (next instanceof Error) throw next;
    return next;
  });
  const log = { debug: vi.fn(), info: vi.fn(), warn: vi.fn() };
  const source = createDiscoverySource({ fetchDoc, ttlMs, log: log as never, now: () => t });
  const names = async (method: string, db = 'gw', model = 'x_custom.model') =>
    (await source.lookup(db, model, method))?.params.map((p) => p.name);
  return { source, fetchDoc, log, names, advance: (ms: number) => void (t += ms), push: (...a: (DocBearerAnswer | Error)[]) => queue.push(...a) };
}

describe('createDiscoverySource()', () => {
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
    expect(s.fetchDoc).toHaveBeenCalledWith('gw', 'x_custom.model', undefined, undefined);
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
    expect(s.fetchDoc).toHaveBeenLastCalledWith('gw', 'x_custom.model', '"e1"', undefined);
    s.advance(ttlMs - 1);
    expect(await s.names('action_a')).toEqual(['note']);
    expect(s.fetchDoc).toHaveBeenCalledTimes(2);
    s.advance(1);
    expect(await s.names('action_a')).toEqual(['message', 'note']);
    expect(s.fetchDoc).toHaveBeenLastCalledWith('gw', 'x_custom.model', '"e1"', undefined);
    s.push(notModified);
    s.advance(ttlMs);
    await s.names('action_a');
    expect(s.fetchDoc).toHaveBeenLastCalledWith('gw', 'x_custom.model', '"e2"', undefined);
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
    const origin = { host: 'erp.example.com', ip: '10.0.0.1', proto: 'https', userAgent: 'py', requestId: 'r1', signal: new AbortController().signal };
    await s.source.lookup('gw', 'x_custom.model', 'a', origin);
    expect(s.fetchDoc).toHaveBeenCalledWith('gw', 'x_custom.model', undefined, origin);
  });

  it.each([
    [
      '403 (no Technical Documentation group)',
      forbidden,
      "signature discovery is off for this database: the service key's user is not in the Technical Documentation group (/doc-bearer answered 403); the built-in signature table serves",
    ],
    [
      '401 (key not valid there)',
      unauthorized,
      'signature discovery is off for this database: the service key is not valid there (/doc-bearer answered 401); the built-in signature table serves',
    ],
  ])('turns discovery off for a database on %s, logged once, and retries after a while', async (_what, error, message) => {
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
    const source = createDiscoverySource({ fetchDoc, ttlMs: 0, log: { debug: vi.fn(), info: vi.fn(), warn: vi.fn() } as never, now: () => t });
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
    ['a body that is not a model document', { status: 'modified', etag: '"x"', body: parseJson('[]') } as DocBearerAnswer, '/doc-bearer/x_custom.model.json is not a model document'],
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
    expect(s.fetchDoc).toHaveBeenLastCalledWith('gw', 'x_custom.model', '"e1"', undefined);
  });
});
