/**
 * `Expect: 100-continue` with a declared length over `--max-body` gets the size fault at once, in
 * the caller's dialect, without `100 Continue`: the client never uploads the body. Within the limit,
 * and on passed-through paths (no limit there), the client is invited as before.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ databases: ['gw'], flags: ['--max-body', '100000'] });
});
afterAll(() => stack.close());

/**
 * Sends only the head of a request with `Expect: 100-continue` and collects what arrives for
 * `waitMs` (or until the connection closes). With `body`, it is sent after a `100 Continue`.
 */
function expectContinue(path: string, contentType: string, length: number, body?: string, waitMs = 1500): Promise<string> {
  const { hostname, port } = new URL(stack.gateway.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: ${contentType}\r\nContent-Length: ${length}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
      );
    });
    let text = '';
    let sent = false;
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(text);
    }, waitMs);
    socket.on('data', (c: Buffer) => {
      text += c.toString('utf8');
      if (body !== undefined && !sent && text.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) {
        sent = true;
        socket.write(body);
      }
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(text);
    });
    socket.on('error', reject);
  });
}

const declared = 200 * 1024 * 1024;

describe('Expect: 100-continue', () => {
  it('an XML-RPC call declaring a body over --max-body gets the fault at once, no 100 Continue', async () => {
    const answer = await expectContinue('/xmlrpc/2/common', 'text/xml', declared);
    expect(answer.startsWith('HTTP/1.1 200 OK\r\n')).toBe(true);
    expect(answer).not.toContain('100 Continue');
    expect(answer).toContain('<name>faultString</name>');
    expect(answer).toContain('413 Request Entity Too Large: the request body exceeds 100000 bytes (--max-body)');
  });

  it('a JSON-RPC call declaring a body over --max-body gets the error at once, no 100 Continue', async () => {
    const answer = await expectContinue('/jsonrpc', 'application/json', declared);
    expect(answer.startsWith('HTTP/1.1 200 OK\r\n')).toBe(true);
    const json = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { error: { data: { name: string; message: string } } };
    expect(json.error.data).toMatchObject({
      name: 'werkzeug.exceptions.RequestEntityTooLarge',
      message: expect.stringContaining('--max-body'),
    });
  });

  it('a call within the limit is invited and answered', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', method: 'call', params: { service: 'common', method: 'version', args: [] }, id: 1 });
    const answer = await expectContinue('/jsonrpc', 'application/json', Buffer.byteLength(body), body);
    expect(answer.startsWith('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n')).toBe(true);
    expect(answer).toContain('"server_version"');
  });

  it('a passed-through path is invited whatever its length (--max-body is for legacy calls)', async () => {
    const answer = await expectContinue('/web/binary/upload', 'application/octet-stream', declared, undefined, 300);
    expect(answer.startsWith('HTTP/1.1 100 Continue\r\n')).toBe(true);
  });
});
