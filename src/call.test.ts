import { describe, expect, it } from 'vitest';
import { besideCall, callCaller, callDatabase, ownCallOrigin } from './call.ts';

describe('callDatabase()', () => {
  it('reads the database the legacy service named, and keeps it when the caller is named in full', () => {
    const origin = ownCallOrigin('r');
    origin.values.set(callCaller, { database: 'gw' });
    expect(callDatabase(origin)).toBe('gw');
    origin.values.set(callCaller, { database: 'gw', uid: 5 });
    expect(callDatabase(origin)).toBe('gw');
  });

  it('fails loudly where no legacy service named it (never an empty name sent upstream)', () => {
    expect(() => callDatabase(ownCallOrigin('startup'))).toThrow(/call startup: its database is read before a legacy service named it/);
    const named = ownCallOrigin('r');
    named.values.set(callCaller, { database: 'gw' });
    // a call made beside another has values of its own: its service names its database again
    expect(() => callDatabase(besideCall(named, 'shadow', new AbortController().signal))).toThrow(/r-shadow/);
  });
});
