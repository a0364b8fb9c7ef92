import { describe, expect, it, vi } from 'vitest';
import { badCredentials } from './refusals.ts';
import { createKeyTable } from './key-table.ts';
import type { PasswordKey } from './password-key-types.ts';

function setup(withStore: boolean, max = 10, negativeTtlMs = 100) {
  let t = 0;
  const onEvict = vi.fn();
  const table = createKeyTable({ max, now: () => t, negativeTtlMs, withStore, onEvict });
  const entry = (key: string, over: Partial<PasswordKey> = {}): PasswordKey => ({
    db: 'gw',
    uid: 5,
    login: 'demo',
    key,
    source: 'minted',
    keyId: 1,
    expiresAt: 1000,
    renewAt: 900,
    validatedAt: 0,
    ...over,
  });
  return { table, onEvict, entry, at: (ms: number) => void (t = ms) };
}

describe('createKeyTable()', () => {
  it('drops an entry once it expired: dead upstream, to be resolved again', () => {
    const { table, entry, at } = setup(false);
    const e = table.hold('s', entry('k1'), false);
    expect(table.held('s')?.entry).toBe(e);
    at(1000);
    expect(table.held('s')).toBeUndefined();
    expect(table.size).toBe(0);
  });

  it('answers for every key without a store; with one, only for minted keys the store does not hold', () => {
    expect(setup(false).table.answersFor(setup(false).entry('k'))).toBe(true);
    const { table, entry } = setup(true);
    const alone = table.hold('a', entry('k1'), false);
    const stored = table.hold('b', entry('k2'), true);
    const mapped = table.hold('c', entry('k3', { source: 'map' }), false);
    expect([table.answersFor(alone), table.answersFor(stored), table.answersFor(mapped)]).toEqual([true, false, false]);
    // the store took it: no longer this replica's alone
    expect(table.shared(alone)).toBe(true);
    expect(table.answersFor(alone)).toBe(false);
    expect(table.shared(alone)).toBe(false);
  });

  it("keeps this replica's newer confirmation and session when the same key is read again from the store", () => {
    const { table, entry } = setup(true);
    const session = { db: 'gw', cookie: 'c' };
    table.hold('s', entry('k1', { validatedAt: 50, session, loggedInAt: 40 }), true);
    const reread = table.hold('s', entry('k1', { validatedAt: 10 }), true);
    expect(reread).toMatchObject({ validatedAt: 50, session, loggedInAt: 40 });
    // another key (a renewal elsewhere) keeps its own
    expect(table.hold('s', entry('k2', { validatedAt: 10 }), true).validatedAt).toBe(10);
  });

  it('tells whether an entry is still the one held', () => {
    const { table, entry } = setup(false);
    const first = table.hold('s', entry('k1'), false);
    expect(table.current('s', first)).toBe(true);
    table.hold('s', entry('k2'), false);
    expect(table.current('s', first)).toBe(false);
    table.forget('s');
    expect(table.held('s')).toBeUndefined();
  });

  it('caches a refusal for the negative TTL only, and none with a TTL of 0', () => {
    const { table, at } = setup(false);
    const refusal = badCredentials();
    table.refuse('s', refusal);
    expect(table.refusal('s')).toBe(refusal);
    at(100);
    expect(table.refusal('s')).toBeUndefined();
    const none = setup(false, 10, 0).table;
    none.refuse('s', refusal);
    expect(none.refusal('s')).toBeUndefined();
  });

  it('reports entries pushed out by size with whether this replica answers for them, and clears both levels', () => {
    const { table, onEvict, entry } = setup(true, 1);
    const first = table.hold('a', entry('k1'), false);
    table.hold('b', entry('k2'), true);
    expect(onEvict).toHaveBeenCalledWith(first, true);
    table.refuse('c', badCredentials());
    table.clear();
    expect([table.size, table.refusal('c')]).toEqual([0, undefined]);
  });
});
