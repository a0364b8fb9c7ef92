import { describe, expect, it } from 'vitest';
import { captureLog } from '../../test/support/captured-log.ts';
import { loadConfig } from '../config.ts';
import { pythonError } from '../errors.ts';
import { StreamedString } from '../value.ts';
import { createApp } from './app.ts';

const config = loadConfig(['--upstream', 'http://odoo:8069'], {});
const dumpCall =
  "<?xml version='1.0'?>\n<methodCall>\n<methodName>dump</methodName>\n<params>\n<param>\n<value><string>admin</string></value>\n</param>\n</params>\n</methodCall>\n";

function appStreaming(fail: boolean) {
  const capture = captureLog();
  const app = createApp({
    config,
    log: capture.log,
    dispatch: async () =>
      new StreamedString(
        (async function* chunks() {
          yield 'UEsD';
          if (fail) throw pythonError('OSError', 'upstream closed the connection');
          yield 'BBQA';
        })(),
      ),
  });
  return { app, capture };
}

describe('createApp(): streamed answers', () => {
  it('sends a streamed string chunked, framed as one <string>', async () => {
    const { app, capture } = appStreaming(false);
    const res = await app.request('/xmlrpc/2/db', { method: 'POST', body: dumpCall, headers: { 'content-type': 'text/xml' } });
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    expect(await res.text()).toBe(
      '<?xml version="1.0"?>\n<methodResponse>\n<params>\n<param>\n<value><string>UEsDBBQA</string></value>\n</param>\n</params>\n\n</methodResponse>\n',
    );
    await afterTheAnswer();
    expect(capture.matching('legacy call')).toMatchObject([{ service: 'db', method: 'dump', outcome: 'ok' }]);
  });

  it('fails the body, never completes it, and logs the cut when the source fails midway', async () => {
    const { app, capture } = appStreaming(true);
    const res = await app.request('/jsonrpc', {
      method: 'POST',
      body: '{"jsonrpc":"2.0","method":"call","params":{"service":"db","method":"dump","args":["admin","gw","zip"]},"id":7}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
    expect(capture.matching('streamed answer cut short')).toMatchObject([{ detail: 'upstream closed the connection' }]);
    await afterTheAnswer();
    expect(capture.matching('legacy call')).toMatchObject([{ service: 'db', method: 'dump', outcome: 'internal', faultCode: 1 }]);
  });
});

/** The access log line is written once the answer is out (app.ts), on the next turn of the event loop. */
function afterTheAnswer(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
