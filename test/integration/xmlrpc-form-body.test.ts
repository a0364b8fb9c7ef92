/**
 * An XML-RPC body sent with a form content type (a gap pinned under #9). werkzeug reads
 * a form body into `request.form` before Odoo's `_xmlrpc` calls `get_data()`, which then finds
 * nothing: a real Odoo 19 answers expat's `no element found` whatever the XML said, and werkzeug's
 * 413 page for a urlencoded body declared longer than Odoo's `max_form_memory_size` (10 MiB).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ databases: ['demo'] });
});
afterAll(() => stack.close());

const versionCall = "<?xml version='1.0'?>\n<methodCall>\n<methodName>version</methodName>\n<params>\n</params>\n</methodCall>\n";

describe('an XML-RPC body with a form content type', () => {
  it.each([
    'application/x-www-form-urlencoded',
    'application/x-www-form-urlencoded; charset=utf-8',
    ' APPLICATION/X-WWW-FORM-URLENCODED ',
    'multipart/form-data',
    'multipart/form-data; boundary=xyz',
  ])('%s: read as empty, expat finds no element (/xmlrpc/2)', async (contentType) => {
    const res = await stack.post('/xmlrpc/2/common', versionCall, contentType);
    expect(res.status).toBe(200);
    expect(res.contentType).toBe('text/xml; charset=utf-8');
    expect(res.text).toContain('<name>faultCode</name>\n<value><int>1</int></value>');
    expect(res.text.trimEnd()).toMatch(/xml\.parsers\.expat\.ExpatError: no element found: line 1, column 0\n<\/string><\/value>/);
  });

  it("answers /xmlrpc (v1) with expat's message as the faultCode", async () => {
    const res = await stack.post('/xmlrpc/common', versionCall, 'application/x-www-form-urlencoded');
    expect(res.text).toContain('<name>faultCode</name>\n<value><string>no element found: line 1, column 0</string></value>');
  });

  it.each(['text/xml', 'text/plain', 'application/x-www-form-urlencodedx', 'multipart/mixed', 'multipart/related; boundary=a'])(
    '%s is no form: the call runs',
    async (contentType) => {
      const res = await stack.post('/xmlrpc/2/common', versionCall, contentType);
      expect(res.text).toContain('<name>server_version</name>');
    },
  );

  it("answers werkzeug's 413 page to a urlencoded body declared longer than 10 MiB, and reads the multipart one as empty", async () => {
    const big = versionCall.replace('<params>', `<params><param><value><string>${'a'.repeat(10 * 2 ** 20)}</string></value></param>`);
    const urlencoded = await stack.post('/xmlrpc/2/common', big, 'application/x-www-form-urlencoded');
    expect(urlencoded.status).toBe(413);
    expect(urlencoded.contentType).toBe('text/html; charset=utf-8');
    expect(urlencoded.text).toBe(
      '<!doctype html>\n<html lang=en>\n<title>413 Request Entity Too Large</title>\n<h1>Request Entity Too Large</h1>\n<p>The data value transmitted exceeds the capacity limit.</p>\n',
    );
    const multipart = await stack.post('/xmlrpc/2/common', big, 'multipart/form-data; boundary=xyz');
    expect(multipart.text).toContain('ExpatError: no element found: line 1, column 0');
  });

  it('calls nothing upstream for a form body', async () => {
    stack.sim.clearLog();
    await stack.post('/xmlrpc/2/common', versionCall.replace('version', 'login'), 'application/x-www-form-urlencoded');
    expect(stack.sim.log).toEqual([]);
  });
});
