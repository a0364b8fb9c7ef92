import { describe, expect, it } from 'vitest';
import { LegacyError, upstreamErrorName } from '../errors.ts';
import { observeUpstreamHttp } from './observed-http.ts';
import type { UpstreamHttp } from './pool.ts';
import { createCallValues } from '../call.ts';

const origin = {
  host: '',
  ip: '127.0.0.1',
  proto: 'http',
  userAgent: '',
  requestId: 'r',
  values: createCallValues(),
  signal: new AbortController().signal,
};

describe('observeUpstreamHttp()', () => {
  it('reports each exchange with its path and status, or no status when it failed', async () => {
    const seen: Array<[string, number | undefined]> = [];
    let fail = false;
    const http: UpstreamHttp = {
      url: 'http://odoo:8069',
      async send() {
        if (fail) throw new LegacyError('upstream_unavailable', { name: upstreamErrorName, message: 'refused' });
        return { status: 404, contentType: 'text/html', headers: {}, text: '', elapsedMs: 1 };
      },
      close: async () => undefined,
    };
    const observed = observeUpstreamHttp(http, (path, status, seconds) => {
      expect(seconds).toBeGreaterThanOrEqual(0);
      seen.push([path, status]);
    });
    expect(observed.open).toBeUndefined();
    expect(observed.url).toBe('http://odoo:8069');
    await observed.send({ method: 'POST', path: '/json/2/res.partner/read', headers: {} }, origin);
    fail = true;
    await expect(observed.send({ method: 'GET', path: '/web/version', headers: {} }, origin)).rejects.toThrow('refused');
    expect(seen).toEqual([
      ['/json/2/res.partner/read', 404],
      ['/web/version', undefined],
    ]);
  });
});
