import { describe, expect, it, vi } from 'vitest';
import { pythonError } from '../errors.ts';
import { createPasswordKeys, type PasswordKey, type KeyExchange, type PasswordRequest } from './password-keys.ts';
import { badCredentials, upstreamCooldown } from './refusals.ts';
import { testCallOrigin } from '../../test/support/call-origin.ts';

const origin = testCallOrigin({ database: 'gw' });
const req: PasswordRequest = { login: 'demo', password: 'pw', origin };

function setup(overrides: Partial<KeyExchange> = {}, max = 10) {
  let t = 0;
  let n = 0;
  const entry = (): PasswordKey => ({
    db: 'gw',
    uid: 5,
    login: 'demo',
    key: `key-${++n}`,
    source: 'minted',
    keyId: n,
    expiresAt: t + 1000,
    renewAt: t + 900,
    validatedAt: t,
  });
  const exchange: KeyExchange = {
    obtain: vi.fn(async () => entry()),
    recheck: vi.fn(async () => {}),
    renew: vi.fn(async () => entry()),
    retire: vi.fn(async () => {}),
    renewalFailed: vi.fn(),
    ...overrides,
  };
  const keys = createPasswordKeys({ max, now: () => t, negativeTtlMs: 100, revalidateIntervalMs: 300 }, exchange);
  return { keys, exchange, at: (ms: number) => void (t = ms) };
}

describe('createPasswordKeys()', () => {
  it('resolves 100 concurrent first calls with one resolution, and serves warm calls without any', async () => {
    const { keys, exchange } = setup();
    const got = await Promise.all(Array.from({ length: 100 }, () => keys.get('s', req)));
    await keys.get('s', req);
    expect(new Set(got.map((e) => e.key))).toEqual(new Set(['key-1']));
    expect(exchange.obtain).toHaveBeenCalledTimes(1);
  });

  it('caches refusals for the negative TTL, but never an upstream failure', async () => {
    const refusal = badCredentials();
    const obtain = vi.fn().mockRejectedValueOnce(pythonError('OSError', 'boom')).mockRejectedValue(refusal);
    const { keys, at } = setup({ obtain });
    await expect(keys.get('s', req)).rejects.toThrow('boom');
    await expect(keys.get('s', req)).rejects.toBe(refusal);
    await expect(keys.get('s', req)).rejects.toBe(refusal);
    expect(obtain).toHaveBeenCalledTimes(2);
    at(101);
    await expect(keys.get('s', req)).rejects.toBe(refusal);
    expect(obtain).toHaveBeenCalledTimes(3);
  });

  it('resolves a key again once it expired, without retiring the dead one', async () => {
    const { keys, exchange, at } = setup({}, 10);
    await keys.get('s', req);
    at(400);
    expect((await keys.get('s', req)).key).toBe('key-1');
    at(1000);
    expect((await keys.get('s', req)).key).toBe('key-2');
    expect(exchange.retire).not.toHaveBeenCalled();
  });

  it('serves calls inside the renewal margin with the old key while one renewal runs', async () => {
    const { keys, exchange, at } = setup();
    await keys.get('s', req);
    at(450);
    const during = await Promise.all([keys.get('s', req), keys.get('s', req)]);
    expect(during.map((e) => e.key)).toEqual(['key-1', 'key-1']);
    await keys.settled();
    expect(exchange.renew).toHaveBeenCalledTimes(0); // 450 < renewAt 900
    at(950);
    expect((await keys.get('s', req)).key).toBe('key-1');
    await keys.settled();
    expect(exchange.renew).toHaveBeenCalledTimes(1);
    expect((await keys.get('s', req)).key).toBe('key-2');
  });

  it('re-validates after the interval; a refused password drops and retires the key and is cached', async () => {
    const recheck = vi.fn().mockResolvedValueOnce(undefined).mockRejectedValue(badCredentials());
    const { keys, exchange, at } = setup({ recheck });
    await keys.get('s', req);
    at(149);
    await keys.get('s', req);
    expect(recheck).not.toHaveBeenCalled();
    at(300);
    await keys.get('s', req);
    expect(recheck).toHaveBeenCalledTimes(1);
    at(600);
    await expect(keys.get('s', req)).rejects.toThrow('Access Denied');
    expect(exchange.retire).toHaveBeenCalledWith(expect.objectContaining({ key: 'key-1' }), 'the password no longer opens it');
    await expect(keys.get('s', req)).rejects.toThrow('Access Denied');
    expect(recheck).toHaveBeenCalledTimes(2);
    expect(exchange.obtain).toHaveBeenCalledTimes(1);
  });

  it('retires keys pushed out of a full table and, at close, every live key', async () => {
    const { keys, exchange, at } = setup({}, 1);
    await keys.get('a', req);
    await keys.get('b', req);
    expect(exchange.retire).toHaveBeenCalledWith(expect.objectContaining({ key: 'key-1' }), 'evicted (cache full)');
    at(100);
    await keys.close();
    expect(exchange.retire).toHaveBeenLastCalledWith(expect.objectContaining({ key: 'key-2' }), 'the gateway is shutting down');
    expect(keys.size).toBe(0);
  });

  it('checks in the background once half the bound has passed, so a credential in steady use never waits', async () => {
    let finish: () => void = () => undefined;
    const recheck = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const { keys, at } = setup({ recheck });
    await keys.get('s', req);
    at(150);
    expect((await keys.get('s', req)).key).toBe('key-1'); // served at once, the check runs meanwhile
    expect(recheck).toHaveBeenCalledTimes(1);
    await keys.get('s', req); // one check at a time
    expect(recheck).toHaveBeenCalledTimes(1);
    finish();
    await keys.settled();
    at(449); // 299 after the check: still within the bound, past half of it again
    await keys.get('s', req);
    expect(recheck).toHaveBeenCalledTimes(2);
  });

  it('serves no key whose password was not confirmed within the bound: the call waits, and is refused when the check cannot be made', async () => {
    const recheck = vi.fn(async (): Promise<void> => {
      throw pythonError('OSError', 'upstream away');
    });
    const { keys, exchange, at } = setup({ recheck });
    await keys.get('s', req);
    at(300);
    await expect(keys.get('s', req)).rejects.toThrow('upstream away');
    await expect(keys.get('s', req)).rejects.toThrow('upstream away');
    expect(recheck).toHaveBeenCalledTimes(2);
    expect(exchange.retire).not.toHaveBeenCalled(); // nothing says the password changed
    recheck.mockResolvedValue(undefined);
    expect((await keys.get('s', req)).key).toBe('key-1');
  });

  it('a throttled or cooled-down check is not served either, and does not drop the key', async () => {
    const recheck = vi.fn(async (): Promise<void> => {
      throw upstreamCooldown('Too many login failures, please wait a bit before trying again.');
    });
    const { keys, exchange, at } = setup({ recheck });
    await keys.get('s', req);
    at(300);
    await expect(keys.get('s', req)).rejects.toThrow('Too many login failures');
    expect(exchange.retire).not.toHaveBeenCalled();
    recheck.mockResolvedValue(undefined);
    expect((await keys.get('s', req)).key).toBe('key-1');
  });

  it("never caches Odoo's login cooldown against the credentials: it is about the address", async () => {
    const cooldown = upstreamCooldown('Too many login failures, please wait a bit before trying again.');
    const obtain = vi.fn().mockRejectedValueOnce(cooldown).mockImplementation(setup().exchange.obtain);
    const { keys } = setup({ obtain });
    await expect(keys.get('s', req)).rejects.toBe(cooldown);
    expect((await keys.get('s', req)).key).toBe('key-1');
    expect(obtain).toHaveBeenCalledTimes(2);
  });

  it('removes earlier keys (tidy) after each login with the password: the first resolution, a renewal and a fresh login check, not a session check', async () => {
    const recheck = vi.fn<KeyExchange['recheck']>().mockResolvedValueOnce(undefined).mockResolvedValueOnce('logged-in');
    const tidy = vi.fn(async () => {});
    const { keys, at } = setup({ recheck, tidy });
    await keys.get('s', req);
    expect(tidy).toHaveBeenLastCalledWith(expect.objectContaining({ key: 'key-1' }), req);
    at(300); // a session check
    await keys.get('s', req);
    expect(tidy).toHaveBeenCalledTimes(1);
    at(600); // a fresh login
    await keys.get('s', req);
    expect(tidy).toHaveBeenCalledTimes(2);
    at(901); // inside the renewal margin
    await keys.get('s', req);
    await keys.settled();
    expect(tidy).toHaveBeenLastCalledWith(expect.objectContaining({ key: 'key-2' }), req);
  });

  it("hands the exchange the front's slot for a first resolution and a renewal, so no one names the credentials again", async () => {
    const { keys, exchange, at } = setup();
    const first = await keys.get('slot-from-front', req);
    expect(exchange.obtain).toHaveBeenCalledWith('slot-from-front', req);
    at(901); // inside the renewal margin
    await keys.get('slot-from-front', req);
    await keys.settled();
    expect(exchange.renew).toHaveBeenCalledWith('slot-from-front', first, req);
  });
});
