import { tmpdir } from 'node:os';
import { Hono } from 'hono';
import { describe, expect, it, vi } from 'vitest';
import { captureLog } from '../../test/support/captured-log.ts';
import { LegacyError, upstreamErrorName } from '../errors.ts';
import type { PassthroughRequest, PassthroughResponse } from '../upstream/index.ts';
import { passthrough } from './passthrough.ts';

const config = {
  upstreamHost: 'client',
  trustedProxies: [] as string[],
  passthroughBufferBytes: 1024 * 1024,
  passthroughMaxBodyBytes: 128 * 1024 * 1024,
  passthroughSpoolDir: tmpdir(),
};

function streamOf(...chunks: string[]) {
  const cancel = vi.fn();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(new TextEncoder().encode(c));
      controller.close();
    },
    cancel,
  });
  return { body, cancel };
}

/** An app whose passthrough answers with `answer` and remembers what it was asked. */
function appAnswering(answer: (req: PassthroughRequest) => Promise<PassthroughResponse>) {
  const seen: Array<PassthroughRequest & { text: string }> = [];
  const answers: Array<number | undefined> = [];
  const captured = captureLog('debug');
  const app = new Hono();
  app.all(
    '*',
    passthrough({
      async forward(req) {
        let text = '';
        if (req.body instanceof Uint8Array) text = new TextDecoder().decode(req.body);
        else if (req.body !== null) for await (const chunk of req.body) text += new TextDecoder().decode(chunk);
        seen.push({ ...req, text });
        return answer(req);
      },
      config,
      log: captured.log,
      onAnswer: (status) => void answers.push(status),
    }),
  );
  return { app, seen, answers, captured };
}

describe('passthrough()', () => {
  it('forwards method, target, headers and body, and answers with the upstream status, headers and body', async () => {
    const { app, seen, answers } = appAnswering(async () => ({
      status: 200,
      headers: {
        'content-type': 'application/json',
        'set-cookie': ['a=1; Path=/', 'b=2; Path=/'],
        connection: 'keep-alive',
        'keep-alive': 'timeout=5',
      },
      body: streamOf('{"jsonrpc":', '"2.0"}').body,
    }));
    const res = await app.request('/web/session/authenticate?debug=1', {
      method: 'POST',
      headers: {
        host: 'gw.example.com',
        'content-type': 'application/json',
        cookie: 'x=1',
        connection: 'close',
        'x-forwarded-for': '6.6.6.6',
      },
      body: '{"params":{}}',
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('{"jsonrpc":"2.0"}');
    expect(res.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect(res.headers.get('keep-alive')).toBeNull();
    expect(answers).toEqual([200]);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'POST', target: '/web/session/authenticate?debug=1', text: '{"params":{}}' });
    expect(seen[0]?.headers).toEqual({
      'content-type': 'application/json',
      cookie: 'x=1',
      'x-forwarded-for': '127.0.0.1',
      'x-forwarded-proto': 'http',
      'x-forwarded-host': 'gw.example.com',
      host: 'gw.example.com',
    });
  });

  it('passes redirects through without following them', async () => {
    const { app } = appAnswering(async () => ({
      status: 303,
      headers: { location: '/web/login?redirect=%2Fodoo%3F' },
      body: streamOf().body,
    }));
    const res = await app.request('/odoo', { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/web/login?redirect=%2Fodoo%3F');
  });

  it.each([
    ['HEAD', 200],
    ['GET', 204],
    ['GET', 304],
  ])('sends no body for %s answered %i and drops the upstream body', async (method, status) => {
    const upstream = streamOf('ignored');
    const { app, seen } = appAnswering(async () => ({ status, headers: { 'content-length': '7' }, body: upstream.body }));
    const res = await app.request('/web/image', { method });
    expect(res.status).toBe(status);
    expect(res.body).toBeNull();
    expect(upstream.cancel).toHaveBeenCalledTimes(1);
    expect(seen[0]?.body).toBeNull();
  });

  it.each([
    ['upstream_timeout', 504, '504 Gateway Timeout: the Odoo server did not answer in time.\n'],
    ['upstream_unavailable', 502, '502 Bad Gateway: the Odoo server could not be reached.\n'],
  ] as const)('answers %s with %i and logs the detail', async (kind, status, text) => {
    const { app, answers, captured } = appAnswering(async () => {
      throw new LegacyError(kind, { name: upstreamErrorName, message: 'upstream refused the connection (http://odoo:8069, 1 ms)' });
    });
    const res = await app.request('/web/login');
    expect(res.status).toBe(status);
    expect(await res.text()).toBe(text);
    expect(answers).toEqual([undefined]);
    expect(captured.matching('passthrough failed')[0]).toMatchObject({
      method: 'GET',
      path: '/web/login',
      detail: 'upstream refused the connection (http://odoo:8069, 1 ms)',
    });
  });
});
