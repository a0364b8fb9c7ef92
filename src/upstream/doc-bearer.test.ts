import { describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config.ts';
import { LegacyError } from '../errors.ts';
import { fetchDocBearer } from './doc-bearer.ts';
import type { UpstreamHttp, UpstreamRequest, UpstreamResponse } from './pool.ts';
import { testCallOrigin } from '../../test/support/call-origin.ts';

const config = loadConfig(['--upstream', 'http://odoo.test:8069'], {});
const origin = testCallOrigin({ host: 'erp.example.com', ip: '10.0.0.9', proto: 'https', userAgent: 'py/3', requestId: 'r1' });
const key = 'a'.repeat(40);

function httpAnswering(res: Partial<UpstreamResponse>) {
  const send = vi.fn(async (_req: UpstreamRequest) => ({ status: 200, contentType: '', headers: {}, text: '', elapsedMs: 3, ...res }));
  const http: UpstreamHttp = { url: 'http://odoo.test:8069', send, close: async () => {} };
  return { http, send };
}

describe('fetchDocBearer()', () => {
  it('GETs the model document with the bearer key, the database headers and If-None-Match', async () => {
    const { http, send } = httpAnswering({ status: 304 });
    await expect(fetchDocBearer(http, config, { db: 'gw', key, model: 'res.partner', etag: '"e1"' }, origin)).resolves.toEqual({
      status: 'not-modified',
    });
    const request = send.mock.calls[0]![0];
    expect(request).toMatchObject({ method: 'GET', path: '/doc-bearer/res.partner.json' });
    expect(request.body).toBeUndefined();
    expect(request.headers).toMatchObject({
      authorization: `bearer ${key}`,
      'x-odoo-database': 'gw',
      'x-service-database': 'gw',
      'if-none-match': '"e1"',
      host: 'erp.example.com',
      'x-forwarded-for': '10.0.0.9',
    });
  });

  it('sends no If-None-Match without an ETag, and answers the parsed document with its ETag', async () => {
    const { http, send } = httpAnswering({
      status: 200,
      contentType: 'application/json; charset=utf-8',
      headers: { etag: '"e2"' },
      text: '{"model": "res.partner", "methods": {}}',
    });
    const answer = await fetchDocBearer(http, config, { db: 'gw', key, model: 'res.partner' }, origin);
    expect(send.mock.calls[0]![0].headers).not.toHaveProperty('if-none-match');
    expect(answer).toEqual({
      status: 'modified',
      etag: '"e2"',
      body: new Map<string, unknown>([
        ['model', 'res.partner'],
        ['methods', new Map()],
      ]),
    });
  });

  it('escapes the model name in the path', async () => {
    const { http, send } = httpAnswering({ status: 304 });
    await fetchDocBearer(http, config, { db: 'gw', key, model: 'a/b?c', etag: '"x"' }, origin);
    expect(send.mock.calls[0]![0].path).toBe('/doc-bearer/a%2Fb%3Fc.json');
  });

  it.each([
    [403, 'odoo.exceptions.AccessError', 'access_error'],
    [401, 'werkzeug.exceptions.Unauthorized', 'internal'],
    [404, 'werkzeug.exceptions.NotFound', 'internal'],
  ])("rejects a %i answer with the upstream's error (%s)", async (status, name, kind) => {
    const text = JSON.stringify({ name, message: 'm', arguments: ['m'], context: {}, debug: '' });
    const { http } = httpAnswering({ status, contentType: 'application/json; charset=utf-8', text });
    const err = await fetchDocBearer(http, config, { db: 'gw', key, model: 'res.partner' }, origin).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LegacyError);
    expect(err).toMatchObject({ name, kind });
  });
});
