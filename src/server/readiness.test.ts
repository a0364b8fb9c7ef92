import { describe, expect, it } from 'vitest';
import { LegacyError, upstreamErrorName } from '../errors.ts';
import { createReadiness } from './readiness.ts';

describe('createReadiness()', () => {
  it('is ready when the upstream answers', async () => {
    const signals: AbortSignal[] = [];
    const readiness = createReadiness({
      isDraining: () => false,
      checkUpstream: async (signal) => void signals.push(signal),
      timeoutMs: 5000,
    });
    expect(await readiness()).toEqual({ ready: true });
    expect(signals).toHaveLength(1);
  });

  it('is not ready while draining, without asking the upstream', async () => {
    let asked = 0;
    const readiness = createReadiness({ isDraining: () => true, checkUpstream: async () => void asked++, timeoutMs: 5000 });
    expect(await readiness()).toEqual({ ready: false, reason: 'draining: the gateway is shutting down' });
    expect(asked).toBe(0);
  });

  it('is not ready when the upstream fails, naming why', async () => {
    const readiness = createReadiness({
      isDraining: () => false,
      checkUpstream: async () => {
        throw new LegacyError('upstream_unavailable', {
          name: upstreamErrorName,
          message: 'upstream refused the connection (http://odoo:8069, 2 ms)',
        });
      },
      timeoutMs: 5000,
    });
    expect(await readiness()).toEqual({
      ready: false,
      reason: 'upstream unreachable: upstream refused the connection (http://odoo:8069, 2 ms)',
    });
  });
});
