import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createInFlight } from './in-flight.ts';

/** What the tracker touches of a ServerResponse. */
function fakeResponse(headersSent = false) {
  return Object.assign(new EventEmitter(), { headersSent, shouldKeepAlive: true }) as unknown as ServerResponse & EventEmitter;
}

function fakeSocket() {
  const socket = Object.assign(new EventEmitter(), { destroyed: false, destroy: vi.fn(() => socket.emit('close')) });
  return socket as unknown as Duplex & { destroy: ReturnType<typeof vi.fn> };
}

describe('createInFlight()', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('counts responses until they close, and tunnels until they close', () => {
    const inFlight = createInFlight();
    const a = fakeResponse();
    const tunnel = fakeSocket();
    inFlight.trackResponse(a);
    inFlight.trackTunnel(tunnel);
    expect(inFlight.count).toBe(2);
    a.emit('close');
    tunnel.emit('close');
    expect(inFlight.count).toBe(0);
  });

  it('drains at once when nothing is in flight', async () => {
    const inFlight = createInFlight();
    await expect(inFlight.drain(1000)).resolves.toBe(true);
    expect(inFlight.draining).toBe(true);
  });

  it('waits for in-flight responses within the grace period', async () => {
    const inFlight = createInFlight();
    const a = fakeResponse();
    const b = fakeResponse(true);
    inFlight.trackResponse(a);
    inFlight.trackResponse(b);
    let drained: boolean | undefined;
    void inFlight.drain(30_000).then((d) => (drained = d));
    await vi.advanceTimersByTimeAsync(10_000);
    a.emit('close');
    await vi.advanceTimersByTimeAsync(0);
    expect(drained).toBeUndefined();
    b.emit('close');
    await vi.advanceTimersByTimeAsync(0);
    expect(drained).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('gives up after the grace period', async () => {
    const inFlight = createInFlight();
    inFlight.trackResponse(fakeResponse());
    const drained = inFlight.drain(25_000);
    await vi.advanceTimersByTimeAsync(25_000);
    await expect(drained).resolves.toBe(false);
  });

  it('does not wait for tunnels, and closes them on request', async () => {
    const inFlight = createInFlight();
    const tunnel = fakeSocket();
    inFlight.trackTunnel(tunnel);
    await expect(inFlight.drain(25_000)).resolves.toBe(true);
    inFlight.closeTunnels();
    expect(tunnel.destroy).toHaveBeenCalledTimes(1);
    expect(inFlight.count).toBe(0);
  });

  it('closes keep-alive connections of answers not started yet, and of later requests', () => {
    const inFlight = createInFlight();
    const started = fakeResponse(true);
    const waiting = fakeResponse(false);
    inFlight.trackResponse(started);
    inFlight.trackResponse(waiting);
    void inFlight.drain(1000);
    const late = fakeResponse(false);
    inFlight.trackResponse(late);
    expect([started.shouldKeepAlive, waiting.shouldKeepAlive, late.shouldKeepAlive]).toEqual([true, false, false]);
  });
});

describe('createInFlight(activity)', () => {
  it('tells the activity when the first request starts and when the last one ends, once each', () => {
    const heard: string[] = [];
    const inFlight = createInFlight({ busy: () => heard.push('busy'), idle: () => heard.push('idle') });
    const [a, b] = [new EventEmitter(), new EventEmitter()] as unknown as ServerResponse[];
    inFlight.trackResponse(a!);
    inFlight.trackResponse(b!);
    a!.emit('close');
    expect(heard).toEqual(['busy']);
    b!.emit('close');
    expect(heard).toEqual(['busy', 'idle']);
    inFlight.trackResponse(new EventEmitter() as unknown as ServerResponse);
    expect(heard).toEqual(['busy', 'idle', 'busy']);
  });
});
