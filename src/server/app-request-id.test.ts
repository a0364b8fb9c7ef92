/**
 * Every legacy answer carries the call's request id, the same one the call ran (and logged) with: an
 * inbound `X-Request-Id` when it is short and safe, else a fresh UUID.
 */
import { describe, expect, it } from 'vitest';
import type { CallOrigin } from '../call.ts';
import { captureLog } from '../../test/support/captured-log.ts';
import { loadConfig } from '../config.ts';
import { createApp } from './app.ts';

const config = loadConfig(['--upstream', 'http://odoo:8069'], {});
const xmlCall = "<?xml version='1.0'?>\n<methodCall>\n<methodName>version</methodName>\n<params>\n</params>\n</methodCall>\n";
const jsonCall = JSON.stringify({ jsonrpc: '2.0', method: 'call', params: { service: 'common', method: 'version', args: [] }, id: 1 });

function appSeeingIds() {
  const seen: string[] = [];
  const app = createApp({
    config,
    log: captureLog().log,
    dispatch: async (_call, origin: CallOrigin) => {
      seen.push(origin.requestId);
      return 'ok';
    },
  });
  return { app, seen };
}

describe('createApp(): request ids', () => {
  it.each([
    ['/xmlrpc/2/common', 'text/xml', xmlCall],
    ['/xmlrpc/common', 'text/xml', xmlCall],
    ['/jsonrpc', 'application/json', jsonCall],
  ])('%s: echoes a safe inbound id and runs the call with it', async (path, contentType, body) => {
    const { app, seen } = appSeeingIds();
    const res = await app.request(path, { method: 'POST', body, headers: { 'content-type': contentType, 'x-request-id': 'host:4711.12' } });
    expect(await res.text()).toContain('ok');
    expect(res.headers.get('x-request-id')).toBe('host:4711.12');
    expect(seen).toEqual(['host:4711.12']);
  });

  it.each([[undefined], ['a b'], ['x'.repeat(129)]])('draws a fresh UUID for inbound id %j, answers and logs that one', async (inbound) => {
    const { app, seen } = appSeeingIds();
    const headers: Record<string, string> = { 'content-type': 'text/xml' };
    if (inbound !== undefined) headers['x-request-id'] = inbound;
    const res = await app.request('/xmlrpc/2/common', { method: 'POST', body: xmlCall, headers });
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(seen).toEqual([id]);
  });
});
