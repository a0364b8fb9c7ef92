import { EventEmitter } from 'node:events';
import type { Server, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClientGuard } from './client-guard.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('createClientGuard(): the send-timeout sweep', () => {
  it('runs only while answers are watched: an idle gateway has no timer waking it', () => {
    vi.useFakeTimers();
    const guard = createClientGuard({ sendTimeoutMs: 60_000, maxConnections: 10 });
    const server = new EventEmitter();
    guard.attach(server as unknown as Server);
    expect(vi.getTimerCount()).toBe(0);
    const [a, b] = [0, 1].map(() => Object.assign(new EventEmitter(), { socket: null })) as unknown as ServerResponse[];
    server.emit('request', {}, a);
    server.emit('request', {}, b);
    expect(vi.getTimerCount()).toBe(1);
    a!.emit('close');
    expect(vi.getTimerCount()).toBe(1);
    b!.emit('close');
    expect(vi.getTimerCount()).toBe(0);
    server.emit('request', {}, Object.assign(new EventEmitter(), { socket: null }));
    expect(vi.getTimerCount()).toBe(1);
    guard.close();
    expect(vi.getTimerCount()).toBe(0);
  });
});
