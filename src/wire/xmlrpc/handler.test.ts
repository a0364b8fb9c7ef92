import { describe, expect, it } from 'vitest';
import type { LegacyCall } from '../../call.ts';
import { pythonError } from '../../errors.ts';
import { PyFloat, type Value } from '../../value.ts';
import type { CallOutcome } from '../response.ts';
import { createXmlRpcHandler } from './handler.ts';
import { testCallOrigin } from '../../../test/support/call-origin.ts';

const origin = testCallOrigin({ host: 'h', userAgent: 't', requestId: 'r' });
const request = (method: string, params: string) =>
  new TextEncoder().encode(
    `<?xml version='1.0'?>\n<methodCall>\n<methodName>${method}</methodName>\n<params>\n${params}</params>\n</methodCall>\n`,
  );
const param = (v: string) => `<param>\n<value>${v}</value>\n</param>\n`;

function handlerWith(dispatch: (call: LegacyCall) => Value, strictBase64 = false) {
  const seen: LegacyCall[] = [];
  const outcomes: CallOutcome[] = [];
  const handle = createXmlRpcHandler({
    dispatch: async (call) => {
      seen.push(call);
      return dispatch(call);
    },
    maxDepth: 64,
    marshal: { nullAs: 'fault', bigIntAs: 'fault' },
    strictBase64,
  });
  return {
    seen,
    outcomes,
    run: async (body: Uint8Array, dialect: 'xmlrpc1' | 'xmlrpc2' = 'xmlrpc2') => {
      const res = await handle(dialect, 'object', body, origin, (o) => outcomes.push(o));
      return { ...res, text: new TextDecoder().decode(res.body as Uint8Array) };
    },
  };
}

describe('createXmlRpcHandler()', () => {
  it('sends <base64> as a base64 string', async () => {
    const h = handlerWith(() => true);
    await h.run(request('execute_kw', param('<base64>aGVs\nbG8=</base64>')));
    expect(h.seen[0]?.params[0]).toMatchObject({ base64: 'aGVsbG8=' });
  });

  it('refuses <base64> under --strict-base64 with the TypeError Odoo 19 raises', async () => {
    const h = handlerWith(() => true, true);
    const res = await h.run(
      request('execute_kw', param('<struct><member><name>datas</name><value><base64>aGVsbG8=</base64></value></member></struct>')),
    );
    expect(h.seen).toHaveLength(0);
    expect(res.text).toContain("TypeError: argument should be a bytes-like object or ASCII string, not 'Binary'\n");
  });

  it('answers every outcome with HTTP 200 text/xml', async () => {
    const ok = await handlerWith(() => new PyFloat(2240)).run(request('version', ''));
    expect(ok).toMatchObject({ status: 200, contentType: 'text/xml; charset=utf-8' });
    expect(ok.text).toContain('<double>2240.0</double>');
    const bad = await handlerWith(() => true).run(new TextEncoder().encode('<methodCall>'));
    expect(bad.status).toBe(200);
    expect(bad.text).toContain('xml.parsers.expat.ExpatError: no element found: line 1, column 12\n');
  });

  it("turns a None result into Odoo's marshalling fault, after the call ran", async () => {
    const h = handlerWith(() => null);
    const res = await h.run(request('execute_kw', ''));
    expect(h.seen).toHaveLength(1);
    expect(res.text).toContain('TypeError: cannot marshal None unless allow_none is enabled\n');
    expect(h.outcomes[0]?.error?.name).toBe('builtins.TypeError');
  });

  it('writes faults in the dialect of the endpoint', async () => {
    const h = handlerWith(() => {
      throw pythonError('KeyError', 'foo', "'foo'");
    });
    expect((await h.run(request('m', ''), 'xmlrpc1')).text).toContain('<name>faultCode</name>\n<value><string>foo</string></value>');
    expect((await h.run(request('m', ''), 'xmlrpc2')).text).toContain('<name>faultCode</name>\n<value><int>1</int></value>');
  });
});
