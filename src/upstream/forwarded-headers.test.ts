import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { forwardedHeaders } from './forwarded-headers.ts';

const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const origin = {
  host: 'erp.example',
  ip: '10.0.0.7',
  proto: 'https',
  userAgent: '',
  requestId: 'r-1',
  signal: new AbortController().signal,
};

describe('forwardedHeaders', () => {
  const config = loadConfig(['--upstream', 'http://odoo:8069']);

  it('names the gateway with the version of package.json, and the legacy client after it', () => {
    expect(forwardedHeaders(config, origin, 'gw')['user-agent']).toBe(`legacy-rpc-gateway/${version}`);
    expect(forwardedHeaders(config, { ...origin, userAgent: 'Python-xmlrpc/3.11' }, 'gw')['user-agent']).toBe(
      `legacy-rpc-gateway/${version} (Python-xmlrpc/3.11)`,
    );
  });

  it('forwards the client address, scheme, host and request id', () => {
    expect(forwardedHeaders(config, origin, 'gw')).toMatchObject({
      'x-forwarded-for': '10.0.0.7',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'erp.example',
      'x-request-id': 'r-1',
    });
  });
});
