/**
 * The report in pieces: `jsonChunks` joined parses as `JSON.stringify` of the same value, `paced`
 * hands on batches with the event loop free between them, `sliced` gives a turn after each slice of work.
 */
import { describe, expect, it } from 'vitest';
import { turnCounter } from '../../test/support/turn-counter.ts';
import { batchChars, jsonChunks, paced, sliced } from './report-stream.ts';

describe('jsonChunks()', () => {
  it('writes the value as JSON.stringify does, the listed arrays (or iterables) one element per piece', () => {
    const value = {
      version: 1,
      dropped: { clients: 2 },
      fleet: [{ a: 1 }, { b: [2, 3] }],
      clients: new Set(['x', 'y"z']),
      skipped: undefined,
    };
    const pieces = [...jsonChunks(value, ['fleet', 'clients'])];
    expect(JSON.parse(pieces.join(''))).toEqual({
      version: 1,
      dropped: { clients: 2 },
      fleet: [{ a: 1 }, { b: [2, 3] }],
      clients: ['x', 'y"z'],
    });
    expect(pieces).toContain('{"a":1}');
    expect(pieces).toContain(',"y\\"z"');
    expect([...jsonChunks({}, ['clients'])].join('')).toBe('{}');
    expect(JSON.parse([...jsonChunks({ clients: [] }, ['clients'])].join(''))).toEqual({ clients: [] });
  });
});

describe('paced()', () => {
  it('hands on batches of about batchChars, with a turn of the event loop between them', async () => {
    const pieces = Array.from({ length: 10 }, () => 'x'.repeat(batchChars / 2));
    const counter = turnCounter();
    const batches: string[] = [];
    for await (const b of paced(pieces)) batches.push(b);
    const turns = counter.stop();
    expect(batches.join('')).toBe(pieces.join(''));
    expect(batches).toHaveLength(5);
    expect(turns).toBeGreaterThanOrEqual(4);
  });
});

describe('sliced()', () => {
  it('gives every item in order, with a turn of the event loop after each slice of work', async () => {
    const items = Array.from({ length: 20 }, (_v, i) => i);
    const counter = turnCounter();
    const seen: number[] = [];
    for await (const i of sliced(items, 0)) seen.push(i);
    expect(counter.stop()).toBeGreaterThanOrEqual(19);
    expect(seen).toEqual(items);
  });

  it('runs through without a turn while the slice lasts', async () => {
    const counter = turnCounter();
    const seen: number[] = [];
    for await (const i of sliced([1, 2, 3], 60_000)) seen.push(i);
    expect(counter.stop()).toBe(0);
    expect(seen).toEqual([1, 2, 3]);
  });
});
