import { describe, expect, it, vi } from 'vitest';
import { accessDenied } from '../../errors.ts';
import { createLogger } from '../../log.ts';
import type { LegacyEndpointAnswer, LegacyEndpointClient } from '../../upstream/index.ts';
import type { CallOutcome, WireResponse } from '../../wire/response.ts';
import { defaultShadowMethods } from './policy.ts';
import { createShadow, type ShadowExchange, type ShadowResult, type ShadowSettings } from './shadow.ts';
import { testCallOrigin } from '../../../test/support/call-origin.ts';

const origin = testCallOrigin({ host: 'gw', ip: '10.0.0.9', userAgent: 'client/1', requestId: 'r1' });
const read: CallOutcome = { service: 'object', method: 'execute_kw', model: 'res.partner', modelMethod: 'read' };
const body = JSON.stringify({
  jsonrpc: '2.0',
  method: 'call',
  id: 1,
  params: { service: 'object', method: 'execute_kw', args: ['db', 2, 'the-password', 'res.partner', 'read', [[7]], { fields: ['name'] }] },
});
const ok = (result: string): WireResponse => ({
  status: 200,
  contentType: 'application/json; charset=utf-8',
  body: `{"jsonrpc": "2.0", "id": 1, "result": ${result}}`,
});
const legacy = (result: string, status = 200): LegacyEndpointAnswer => ({
  status,
  contentType: 'application/json; charset=utf-8',
  text: `{"jsonrpc": "2.0", "id": 1, "result": ${result}}`,
});

function setup(answers: Array<LegacyEndpointAnswer | Error>, settings: Partial<ShadowSettings> = {}, replays: WireResponse[] = []) {
  const results: ShadowResult[] = [];
  const post = vi.fn(async (_path: string, _body: Uint8Array) => {
    const next = answers.shift();
    if (next === undefined) throw new Error('no more legacy answers');
    if (next instanceof Error) throw next;
    return next;
  });
  const client: LegacyEndpointClient = { post, close: async () => {} };
  const log = createLogger('silent');
  const warn = vi.spyOn(log, 'warn');
  const shadow = createShadow({
    settings: { samplePercent: 100, maxInFlight: 4, methods: defaultShadowMethods, ...settings },
    client,
    log,
    onResult: (r) => results.push(r),
    random: () => 0.5,
  });
  const replay = vi.fn(async () => replays.shift() ?? ok('[]'));
  const offer = (answer: WireResponse, outcome: CallOutcome | undefined = read, runNow = true) => {
    const exchange: ShadowExchange = {
      dialect: 'jsonrpc',
      path: '/jsonrpc',
      contentType: 'application/json',
      body: new TextEncoder().encode(body),
      origin,
      outcome: () => outcome,
      answer,
      replay,
    };
    let run: (() => void) | undefined;
    const sent = shadow.offer(exchange, (r) => {
      run = r;
    });
    if (runNow) run?.();
    return { sent, run: () => run?.() };
  };
  return { shadow, results, post, replay, offer, warn };
}

describe('createShadow()', () => {
  it('sends the client body to the same path once the answer is out, and counts an equal answer', async () => {
    const { shadow, results, post, offer } = setup([legacy('[{"id": 7, "name": "A"}]')]);
    const answer = ok('[{"id": 7, "name": "A"}]');
    const { sent, run } = offer(answer, read, false);
    expect(sent).toBe(answer);
    expect(post).not.toHaveBeenCalled();
    run();
    await shadow.idle();
    expect(post).toHaveBeenCalledTimes(1);
    expect(post.mock.calls[0]?.[0]).toBe('/jsonrpc');
    expect(new TextDecoder().decode(post.mock.calls[0]?.[1])).toBe(body);
    expect(results.map((r) => [r.outcome, r.userAgent, r.call.modelMethod])).toEqual([['equal', 'client/1', 'read']]);
  });

  it('re-checks a difference on both sides and keeps it only if it persists, redacted', async () => {
    const { shadow, results, post, replay, offer } = setup([legacy('[{"id": 7, "rate": 1}]'), legacy('[{"id": 7, "rate": 1}]')], {}, [
      ok('[{"id": 7, "rate": 1.0}]'),
    ]);
    offer(ok('[{"id": 7, "rate": 1.0}]'));
    await shadow.idle();
    expect(post).toHaveBeenCalledTimes(2);
    expect(replay).toHaveBeenCalledTimes(1);
    expect(results).toHaveLength(1);
    const [result] = results;
    expect(result?.outcome).toBe('differs');
    expect(result?.difference?.differences).toEqual(['envelope.result[0].rate: expected int 1, got float 1.0']);
    expect(result?.difference?.gateway).toBe('{"jsonrpc": "2.0", "id": 1, "result": [{"id": 7, "rate": 1.0}]}');
    expect(result?.difference?.legacy).toBe('{"jsonrpc": "2.0", "id": 1, "result": [{"id": 7, "rate": 1}]}');
    expect(JSON.stringify(result)).not.toContain('the-password');
  });

  it('counts a difference that does not persist (a concurrent write) as equal', async () => {
    const { shadow, results, offer } = setup([legacy('[{"id": 7, "name": "B"}]'), legacy('[{"id": 7, "name": "B"}]')], {}, [
      ok('[{"id": 7, "name": "B"}]'),
    ]);
    offer(ok('[{"id": 7, "name": "A"}]'));
    await shadow.idle();
    expect(results.map((r) => r.outcome)).toEqual(['equal']);
  });

  it('counts a difference COMPATIBILITY.md describes as intended, naming the deviation', async () => {
    const { shadow, results, replay, offer } = setup([
      {
        status: 200,
        contentType: 'application/json; charset=utf-8',
        text: '{"jsonrpc": "2.0", "id": 1, "error": {"code": 0, "message": "Odoo Server Error", "data": {"name": "odoo.exceptions.AccessDenied", "message": "Access Denied", "arguments": ["Access Denied"], "context": {}, "debug": ""}}}',
      },
    ]);
    offer(ok('[{"id": 7}]'));
    await shadow.idle();
    expect(replay).not.toHaveBeenCalled();
    expect(results.map((r) => [r.outcome, r.deviation])).toEqual([['intended', 'A changed password keeps working for up to 5 s']]);
  });

  it('shadows nothing off the allowlist, refused as AccessDenied, or not sampled', async () => {
    const { shadow, results, post, offer } = setup([]);
    offer(ok('1'), { ...read, modelMethod: 'write' });
    offer(ok('1'), { ...read, error: accessDenied() });
    offer(ok('false'), { service: 'db', method: 'drop' });
    await shadow.idle();
    const unsampled = setup([], { samplePercent: 50 });
    unsampled.offer(ok('[]'));
    expect(post).not.toHaveBeenCalled();
    expect(unsampled.post).not.toHaveBeenCalled();
    expect(results).toEqual([]);
  });

  it('never sends a login the gateway answered False', async () => {
    const { shadow, post, offer, results } = setup([], { methods: [...defaultShadowMethods, 'login'] });
    offer(ok('false'), { service: 'common', method: 'login' });
    await shadow.idle();
    expect(post).not.toHaveBeenCalled();
    expect(results).toEqual([]);
  });

  it('drops and counts a sampled call when the bound is full', async () => {
    const { shadow, results, offer } = setup([legacy('[]')], { maxInFlight: 1 });
    const first = offer(ok('[]'), read, false);
    offer(ok('[]'));
    expect(shadow.inFlight).toBe(1);
    first.run();
    await shadow.idle();
    expect(results.map((r) => r.outcome)).toEqual(['dropped', 'equal']);
  });

  it('counts a legacy call that fails as an error', async () => {
    const { shadow, results, offer } = setup([new Error('upstream refused the connection')]);
    offer(ok('[]'));
    await shadow.idle();
    expect(results.map((r) => r.outcome)).toEqual(['error']);
  });

  it('says once that a service is gone, then stops shadowing it without an error per call', async () => {
    const notFound: LegacyEndpointAnswer = { status: 404, contentType: 'text/html', text: '<h1>Not Found</h1>' };
    const { shadow, results, post, offer, warn } = setup([notFound]);
    offer(ok('[]'));
    await shadow.idle();
    offer(ok('[]'));
    offer(ok('[]'));
    await shadow.idle();
    expect(post).toHaveBeenCalledTimes(1);
    expect(results).toEqual([]);
    expect(shadow.gone()).toEqual([expect.objectContaining({ service: 'object', reason: expect.stringContaining('HTTP 404') })]);
    expect(warn).toHaveBeenCalledTimes(1);
  });
});

describe('compareAnswers()', () => {
  it('finds identical answers equal without parsing them, and typed differences otherwise', async () => {
    const { compareAnswers } = await import('./compare-answers.ts');
    const xml = (v: string) => ({
      status: 200,
      contentType: 'text/xml; charset=utf-8',
      body: `<?xml version="1.0"?>\n<methodResponse>\n<params>\n<param>\n<value>${v}</value>\n</param>\n</params>\n\n</methodResponse>\n`,
    });
    expect(compareAnswers('xmlrpc2', xml('<int>1</int>'), xml('<int>1</int>'))).toEqual([]);
    expect(compareAnswers('xmlrpc2', xml('<int>1</int>'), xml('<int>01</int>'))).toEqual([]);
    expect(compareAnswers('xmlrpc2', xml('<double>1.0</double>'), xml('<int>1</int>'))).toEqual([
      { path: 'result', message: 'expected <int> <int>"1", got <double> <double>"1.0"' },
    ]);
    expect(compareAnswers('xmlrpc2', { ...xml('<int>1</int>'), status: 500 }, xml('<int>1</int>'))).toEqual([
      { path: 'status', message: 'expected HTTP 200, got 500' },
    ]);
  });
});
