import { describe, expect, it } from 'vitest';
import { captureLog } from '../../../test/support/captured-log.ts';
import { viewAnswer } from './answer-view.ts';
import { createGoneServices, goneReason } from './legacy-gone.ts';

const traceback = (line: string) =>
  `Traceback (most recent call last):\n  File "/odoo/http/router.py", line 120, in dispatch_rpc\n    raise ValueError(f"Invalid service name: {service_name}")\n${line}\n`;
const xmlFault = (code: number, text: string) =>
  `<?xml version='1.0'?>\n<methodResponse>\n<fault>\n<value><struct>\n<member>\n<name>faultCode</name>\n<value><int>${code}</int></value>\n</member>\n<member>\n<name>faultString</name>\n<value><string>${text}</string></value>\n</member>\n</struct></value>\n</fault>\n</methodResponse>\n`;
const jsonError = (name: string, message: string, debug: string) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    error: { code: 200, message: 'Odoo Server Error', data: { name, debug, message, arguments: [message], context: {} } },
  });

describe('goneReason()', () => {
  it('recognises the ValueError of saas-19.1+ for a removed service, on XML-RPC and JSON-RPC', () => {
    const xml = viewAnswer('xmlrpc2', xmlFault(1, traceback('ValueError: Invalid service name: db')));
    expect(goneReason('db', '/xmlrpc/2/db', 200, xml)).toContain('ValueError: Invalid service name: db');
    const json = viewAnswer(
      'jsonrpc',
      jsonError('builtins.ValueError', 'Invalid service name: db', traceback('ValueError: Invalid service name: db')),
    );
    expect(goneReason('db', '/jsonrpc', 200, json)).toContain('as Odoo saas-19.1 and later answer');
  });

  it('recognises a KeyError for the service and a 404 (no rpc module, or hidden behind rpc.use_deprecated_services)', () => {
    expect(goneReason('db', '/xmlrpc/2/db', 200, viewAnswer('xmlrpc2', xmlFault(1, traceback("KeyError: 'db'"))))).toContain(
      "KeyError: 'db'",
    );
    expect(goneReason('object', '/jsonrpc', 404, { kind: 'other' })).toContain('rpc.use_deprecated_services');
  });

  it('leaves every other answer alone: another service named, other ValueErrors, results, AccessDenied', () => {
    expect(
      goneReason('common', '/xmlrpc/2/common', 200, viewAnswer('xmlrpc2', xmlFault(1, traceback('ValueError: Invalid service name: db')))),
    ).toBeUndefined();
    expect(
      goneReason(
        'object',
        '/xmlrpc/2/object',
        200,
        viewAnswer('xmlrpc2', xmlFault(1, traceback("ValueError: Invalid field 'x' on model 'res.partner'"))),
      ),
    ).toBeUndefined();
    expect(goneReason('db', '/xmlrpc/2/db', 200, { kind: 'result', value: ['gw'] })).toBeUndefined();
    expect(goneReason('db', '/xmlrpc/2/db', 200, viewAnswer('xmlrpc2', xmlFault(3, 'Access Denied')))).toBeUndefined();
  });
});

describe('createGoneServices()', () => {
  it('says once that a service is gone, and remembers it', () => {
    const log = captureLog('info');
    const gone = createGoneServices(log.log, () => 0);
    gone.mark('db', 'why');
    gone.mark('db', 'why again');
    expect(gone.has('db')).toBe(true);
    expect(gone.list()).toEqual([{ service: 'db', since: '1970-01-01T00:00:00.000Z', reason: 'why' }]);
    expect(log.matching('shadow mode stops for the legacy db service')).toHaveLength(1);
  });
});
