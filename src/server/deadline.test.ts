import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCallValues, type CallOrigin, type LegacyCall } from '../call.ts';
import { createDeadlines } from './deadline.ts';
import { signalClientPresence } from './client-presence.ts';

const facts = { host: 'h', ip: '127.0.0.1', proto: 'http', userAgent: 'u', requestId: 'r', values: createCallValues() };
const call = (service: string): LegacyCall => ({ dialect: 'xmlrpc2', service, method: 'm', params: [] });

afterEach(() => {
  vi.useRealTimers();
});

describe('createDeadlines()', () => {
  it('gives db calls the db timeout instead of the call timeout', async () => {
    vi.useFakeTimers();
    const deadlines = createDeadlines({ callTimeoutMs: 1_000, dbTimeoutMs: 60_000 });
    let seen: CallOrigin | undefined;
    const dispatch = deadlines.dispatch(async (_call, origin) => {
      seen = origin;
      return true;
    });
    await dispatch(call('db'), deadlines.origin(facts, signalClientPresence(new AbortController().signal)));
    const signal = seen?.signal as AbortSignal;
    await vi.advanceTimersByTimeAsync(59_999);
    expect(signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).name).toBe('TimeoutError');
  });

  it.each(['object', 'common'])('leaves %s calls under the call timeout of their origin', async (service) => {
    const deadlines = createDeadlines({ callTimeoutMs: 1_000, dbTimeoutMs: 60_000 });
    const origin = deadlines.origin(facts, signalClientPresence(new AbortController().signal));
    let seen: CallOrigin | undefined;
    await deadlines.dispatch(async (_call, o) => {
      seen = o;
      return true;
    })(call(service), origin);
    expect(seen).toBe(origin);
  });

  it('aborts a db call at once when the client goes away', async () => {
    const deadlines = createDeadlines({ callTimeoutMs: 1_000, dbTimeoutMs: 60_000 });
    const client = new AbortController();
    let seen: CallOrigin | undefined;
    await deadlines.dispatch(async (_call, origin) => {
      seen = origin;
      return true;
    })(call('db'), deadlines.origin(facts, signalClientPresence(client.signal)));
    client.abort();
    expect(seen?.signal.aborted).toBe(true);
    expect(seen?.requestId).toBe('r');
  });
});
