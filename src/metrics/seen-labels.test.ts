import { describe, expect, it } from 'vitest';
import { createSeenLabels } from './seen-labels.ts';

describe('createSeenLabels()', () => {
  it('names a name once a call naming it succeeded, up to the cap; the rest is "other"', () => {
    const labels = createSeenLabels(2);
    expect(labels.label('a', false)).toBe('other');
    expect(labels.label('a', true)).toBe('a');
    expect(labels.label('a', false)).toBe('a');
    expect(labels.label('b', true)).toBe('b');
    expect(labels.label('c', true)).toBe('other');
    expect(labels.label('', true)).toBe('other');
  });

  it('keeps a name spelled "other" in the bucket of the unknown', () => {
    const labels = createSeenLabels(5);
    expect(labels.label('other', true)).toBe('other');
    expect(labels.label('x', true)).toBe('x');
  });
});
