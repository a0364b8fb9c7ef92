import { once } from 'node:events';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAfterTheAnswer, closesAfterAnswer, closingAnswerComplete } from './closing-answer.ts';

describe('closingAnswerComplete()', () => {
  it('errors made in the same tick carry no frames; the limit is back on the next tick', async () => {
    const limit = Error.stackTraceLimit;
    closingAnswerComplete();
    closingAnswerComplete(); // twice in a tick: still restored to the original, not to 0
    expect(new Error('reset').stack).toBe('Error: reset');
    await new Promise((resolve) => process.nextTick(resolve));
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error('later').stack?.split('\n').length).toBeGreaterThan(1);
  });
});

describe('closeAfterTheAnswer()', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((s) => s.resume()).listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => server.close());

  const watchedSocket = async (): Promise<Socket> => {
    const socket = closeAfterTheAnswer(connect(port, '127.0.0.1'));
    await once(socket, 'connect');
    socket.on('error', () => undefined); // destroy(err) emits it; undici listens in the gateway
    return socket;
  };
  const reset = () => Object.assign(new Error('reset'), { code: 'UND_ERR_INFO' });

  it("puts undici's reset destroy, asked for as a closing answer completes, after the promise continuations", async () => {
    const socket = await watchedSocket();
    closingAnswerComplete();
    expect(socket.destroy(reset())).toBe(socket);
    expect(socket.destroyed).toBe(false);
    await Promise.resolve(); // a continuation carrying the answer on still finds it open
    expect(socket.destroyed).toBe(false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(socket.destroyed).toBe(true);
    await once(socket, 'close');
  });

  it('destroys at once outside that tick, and for any other error within it', async () => {
    const later = await watchedSocket();
    await new Promise((resolve) => setImmediate(resolve));
    later.destroy(reset());
    expect(later.destroyed).toBe(true);

    const failed = await watchedSocket();
    closingAnswerComplete();
    failed.destroy(new Error('headers timeout'));
    expect(failed.destroyed).toBe(true);

    const plain = await watchedSocket();
    closingAnswerComplete();
    plain.destroy();
    expect(plain.destroyed).toBe(true);
  });
});

describe('closesAfterAnswer()', () => {
  it.each([
    [{ connection: 'close' }, true],
    [{ connection: 'Close' }, true],
    [{ connection: 'keep-alive, close' }, true],
    [{ connection: ['keep-alive', 'close'] }, true],
    [{ connection: 'keep-alive' }, false],
    [{ connection: 'closed' }, false],
    [{}, false],
  ])('%o → %s', (headers, closes) => {
    expect(closesAfterAnswer(headers)).toBe(closes);
  });
});
