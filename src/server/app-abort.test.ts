import { describe, expect, it } from 'vitest';
import { captureLog } from '../../test/support/captured-log.ts';
import { loadConfig } from '../config.ts';
import { createApp } from './app.ts';

const config = loadConfig(['--upstream', 'http://odoo:8069'], {});

/** A body whose stream fails as Node's does when the client closes mid-body (`Error: aborted`). */
function abortedBody(): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(c) {
      c.enqueue(new TextEncoder().encode('<?xml version="1.0"?><methodCall><method'));
    },
    pull(c) {
      c.error(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
    },
  });
}

describe('createApp(): a client that closes mid-body', () => {
  it.each([['/xmlrpc/2/common'], ['/xmlrpc/common'], ['/jsonrpc']])('%s: logs it at info, not as an unhandled error', async (path) => {
    const capture = captureLog();
    const app = createApp({ config, log: capture.log, dispatch: () => Promise.reject(new Error('not reached')) });
    const incoming = { destroyed: true, complete: false, headers: {}, socket: { remoteAddress: '127.0.0.1' } };
    const res = await app.request(
      path,
      { method: 'POST', body: abortedBody(), duplex: 'half', headers: { 'content-type': 'application/json' } },
      { incoming },
    );
    expect(res.status).toBe(400);
    expect(capture.lines.map((l) => [l.level, l.msg, l.path])).toEqual([
      [30, 'client closed the connection before sending its whole request', path],
    ]);
  });

  it('still logs a failure of a complete request as an unhandled error', async () => {
    const capture = captureLog();
    const app = createApp({ config, log: capture.log, dispatch: () => Promise.reject(new Error('not reached')) });
    const incoming = { destroyed: false, complete: true, headers: {}, socket: { remoteAddress: '127.0.0.1' } };
    const res = await app.request('/xmlrpc/2/common', { method: 'POST', body: abortedBody(), duplex: 'half' }, { incoming });
    expect(res.status).toBe(200);
    expect(capture.matching('unhandled error')).toHaveLength(1);
  });
});
