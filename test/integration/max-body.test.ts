/**
 * A body past `--max-body` (a gap pinned under #9): a client that writes its whole body
 * before reading, as Python's xmlrpc.client and urllib do, must read the fault, not a broken pipe
 * or a reset. The gateway answers at once and discards the rest of the body before closing.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAnswer } from '../hardening/support/raw-request.ts';
import { startStack, type Stack } from '../support/stack.ts';

const maxBody = 2 ** 20;
let stack: Stack;
let port: number;

beforeAll(async () => {
  stack = await startStack({ flags: ['--max-body', String(maxBody)] });
  port = Number(new URL(stack.gateway.url).port);
});
afterAll(() => stack.close());

interface Exchange {
  /** The first socket error, if any (EPIPE, ECONNRESET). */
  error: string | undefined;
  answer: ReturnType<typeof parseAnswer>;
  /** The gateway closed its side cleanly (FIN, not RST). */
  ended: boolean;
}

/** Writes the head and `total` body bytes, waiting for each write to drain, and only then reads. */
function writeAllThenRead(path: string, total: number, chunked: boolean, extraHeaders = ''): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let error: string | undefined;
    let ended = false;
    socket.pause(); // nothing is read until the whole body is written
    socket.on('error', (err: NodeJS.ErrnoException) => (error ??= err.code ?? err.message));
    socket.on('end', () => (ended = true));
    socket.on('close', () => resolve({ error, answer: parseAnswer(Buffer.concat(received), true), ended }));
    socket.on(
      'connect',
      () =>
        void (async () => {
          const framing = chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${total}`;
          socket.write(`POST ${path} HTTP/1.1\r\nHost: gateway\r\nContent-Type: text/xml\r\n${extraHeaders}${framing}\r\n\r\n`);
          const chunk = Buffer.alloc(64 * 1024, 'a');
          for (let sent = 0; sent < total && error === undefined; sent += chunk.length) {
            const data = chunked ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]) : chunk;
            if (!socket.write(data)) await new Promise<void>((r) => socket.once('drain', r).once('close', r));
          }
          if (chunked && error === undefined) socket.write('0\r\n\r\n');
          socket.on('data', (d: Buffer) => received.push(d));
          socket.resume();
        })(),
    );
  });
}

describe('a body past --max-body', () => {
  it.each([
    ['/xmlrpc/2/common', false],
    ['/xmlrpc/2/common', true],
    ['/xmlrpc/common', false],
    ['/jsonrpc', false],
    ['/jsonrpc', true],
  ] as const)('%s (chunked: %s): a client writing 32 MiB before reading gets the fault and a clean close', async (path, chunked) => {
    const { error, answer, ended } = await writeAllThenRead(path, 32 * maxBody, chunked);
    expect(error).toBeUndefined();
    expect(answer.complete).toBe(true);
    expect(answer.status).toBe(200);
    expect(answer.headers.connection).toBe('close');
    expect(answer.body.toString()).toContain(`413 Request Entity Too Large: the request body exceeds ${maxBody} bytes (--max-body)`);
    expect(ended).toBe(true);
  });

  it('still answers a body within the cap on the same kind of client', async () => {
    const { error, answer } = await writeAllThenRead('/xmlrpc/2/common', maxBody / 2, false, 'Connection: close\r\n');
    expect(error).toBeUndefined();
    // half a MiB of 'a' is not XML: expat's fault, not the cap's
    expect(answer.body.toString()).toContain('ExpatError');
  });
});
