import { describe, expect, it } from 'vitest';
import { notModelled } from '../../sim/index.ts';
import { loadCases, scopeOf } from './load-cases.ts';
import { notModelledCases } from './not-modelled-cases.ts';
import { crossCheckTopics } from './report.ts';

const cases = new Map(loadCases().map((c) => [c.id, c]));

describe('not-modelled-cases.ts', () => {
  it('names each case once, and only cases the runner replays', () => {
    expect(new Set(notModelledCases.map((e) => e.id)).size).toBe(notModelledCases.length);
    for (const e of notModelledCases) {
      const c = cases.get(e.id);
      expect(c, e.id).toBeDefined();
      expect(c && scopeOf(c).kind, e.id).not.toBe('out-of-scope');
      expect(e.reason.length, e.id).toBeGreaterThan(10);
    }
  });

  it('cites a topic of sim/not-modelled.ts for every simulator limitation', () => {
    expect(crossCheckTopics(notModelledCases, notModelled())).toEqual([]);
  });

  it('reports a topic the simulator does not list', () => {
    expect(crossCheckTopics([{ id: 'x', cause: 'simulator', topic: 'telepathy', reason: 'none' }], notModelled())).toEqual([
      'x: topic "telepathy" is not in sim/not-modelled.ts',
    ]);
  });
});
