import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { createUpstreamShares } from './upstream-shares.ts';

const never = new AbortController().signal;
const timeout = () => new DOMException('The operation was aborted due to timeout', 'TimeoutError');

describe('createUpstreamShares()', () => {
  it('a call whose deadline passes while it waits gets a fault naming --call-timeout; one past --queue-timeout, that setting', async () => {
    const shares = createUpstreamShares(
      loadConfig(['--upstream', 'http://127.0.0.1:1', '--upstream-connections', '1', '--queue-timeout', '20'], {}),
    );
    await shares.acquire('call', never, '/json/2/a/light');
    const deadline = new AbortController();
    const waiting = shares.acquire('call', deadline.signal, '/json/2/a/light');
    deadline.abort(timeout());
    await expect(waiting).rejects.toThrow(
      "no upstream connection of its share (--upstream-connections) came free before the call's deadline (--call-timeout",
    );
    await expect(shares.acquire('call', never, '/json/2/a/light')).rejects.toThrow(
      'no upstream connection of its share (--upstream-connections) came free within --queue-timeout',
    );
  });
});
