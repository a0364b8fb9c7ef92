import { describe, expect, it } from 'vitest';
import { methodLabel, serviceLabel, statusClassLabel, upstreamRouteLabel } from './labels.ts';

describe('serviceLabel()', () => {
  it.each([
    ['common', 'common'],
    ['db', 'db'],
    ['object', 'object'],
    ['report', 'other'],
    ['', 'other'],
    ['__proto__', 'other'],
  ])('%j → %j', (service, label) => {
    expect(serviceLabel(service)).toBe(label);
  });
});

describe('methodLabel()', () => {
  it.each([
    ['object', 'execute_kw', 'search_read', 'search_read'],
    ['object', 'execute', 'write', 'write'],
    ['object', 'execute_kw', 'action_send_card', 'other'],
    ['object', 'execute_kw', undefined, 'other'],
    ['object', 'execute_kw', 'x'.repeat(10_000), 'other'],
    ['common', 'authenticate', undefined, 'authenticate'],
    ['common', 'execute_kw', undefined, 'other'],
    ['db', 'dump', undefined, 'dump'],
    ['db', 'list', 'search', 'list'],
    ['report', 'render_report', undefined, 'other'],
    ['constructor', 'toString', undefined, 'other'],
  ])('%s.%s (%s) → %s', (service, method, modelMethod, label) => {
    expect(methodLabel(service, method, modelMethod)).toBe(label);
  });
});

describe('upstreamRouteLabel()', () => {
  it.each([
    ['/json/2/res.partner/search_read', 'json2'],
    ['/web/session/authenticate', 'web_session'],
    ['/web/dataset/call_kw/res.users.apikeys.description/make_key', 'call_kw'],
    ['/web/database/list', 'web_database'],
    ['/web/webclient/version_info', 'version'],
    ['/web/version', 'version'],
    ['/web/health', 'health'],
    ['/doc-bearer/res.partner.json', 'doc_bearer'],
    ['/odoo', 'other'],
  ])('%s → %s', (path, label) => {
    expect(upstreamRouteLabel(path)).toBe(label);
  });
});

describe('statusClassLabel()', () => {
  it.each([
    [200, '2xx'],
    [303, '3xx'],
    [404, '4xx'],
    [502, '5xx'],
    [undefined, 'error'],
  ])('%s → %s', (status, label) => {
    expect(statusClassLabel(status)).toBe(label);
  });
});
