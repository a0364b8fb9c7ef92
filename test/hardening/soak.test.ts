/**
 * The soak's short version (part 3): the same traffic and checks as `npm run soak`
 * (test/hardening/soak.ts, 10 minutes, figures in BENCHMARKS.md) for 25 seconds.
 */
import { describe, expect, it } from 'vitest';
import { soakChecks } from './support/soak-report.ts';
import { runSoak } from './support/soak-run.ts';

describe('soak (short)', () => {
  it('25 s of mixed traffic: no unexpected error, RSS within 10 % after warm-up, no descriptor growth, nothing lost', async () => {
    const figures = await runSoak({ seconds: 25, rate: 40, concurrency: 16, warmupSeconds: 5, sampleEveryMs: 1000 });
    expect(soakChecks(figures)).toEqual([]);
    expect(figures.calls).toBeGreaterThan(500);
    expect(Object.keys(figures.callsByKind).sort()).toEqual([
      'fault malformed xml (1)',
      'fault missing record (2)',
      'fault unknown model',
      'fault wrong password (3)',
      'new credentials authenticate',
      'new credentials call',
      'read jsonrpc read',
      'read jsonrpc version',
      'read xmlrpc1 search_count',
      'read xmlrpc2 search_read',
      'write create',
      'write read back',
      'write unlink',
      'write write',
    ]);
  }, 240_000); // 25 s of traffic after a child gateway starts: a loaded machine stretches both
});
