/**
 * The key store's databases: each Odoo database has its own `res_users_apikeys` table, so a key made
 * in one database is neither valid, listed nor removable in another; the keys seeded at start (and
 * those a test adds) are in every database, and a duplicate holds its source's keys.
 */
import { describe, expect, it } from 'vitest';
import { KeyStore } from './key-store.ts';

const now = () => new Date(Date.UTC(2026, 10, 21, 12, 0, 0));

describe('KeyStore databases', () => {
  it("keeps a key made in one database out of another's checks, lists and removals", () => {
    const keys = new KeyStore(now, () => ['gw', 'gw2']);
    const seeded = keys.add({ uid: 2, name: 'seeded' });
    const made = keys.add({ uid: 2, name: 'made in gw', db: 'gw' });
    expect(keys.check(made.key, 'rpc', 'gw')).toBe(2);
    expect(keys.check(made.key, 'rpc', 'gw2')).toBeUndefined();
    expect(keys.check(seeded.key, 'rpc', 'gw2')).toBe(2);
    expect(keys.list('gw2').map((k) => k.name)).toEqual(['seeded']);
    expect(keys.list('gw').map((k) => k.name)).toEqual(['seeded', 'made in gw']);
    // gw2 cannot remove gw's key; removing the seeded key there leaves gw's copy
    expect(keys.remove(made.id, 'gw2')).toBe(false);
    expect(keys.remove(seeded.id, 'gw2')).toBe(true);
    expect(keys.check(seeded.key, 'rpc', 'gw2')).toBeUndefined();
    expect(keys.check(seeded.key, 'rpc', 'gw')).toBe(2);
    expect(keys.check(made.key, 'rpc', 'gw')).toBe(2);
  });

  it('copies the keys of a duplicated database, which then go their own ways', () => {
    const keys = new KeyStore(now, () => ['gw', 'copy']);
    const made = keys.add({ uid: 2, name: 'made in gw', db: 'gw' });
    const seeded = keys.add({ uid: 2, name: 'seeded' });
    keys.remove(seeded.id, 'gw');
    keys.copyDatabase('gw', 'copy');
    expect(keys.list('copy').map((k) => k.name)).toEqual(['made in gw']);
    expect(keys.remove(made.id, 'gw')).toBe(true);
    expect(keys.check(made.key, 'rpc', 'gw')).toBeUndefined();
    expect(keys.check(made.key, 'rpc', 'copy')).toBe(2);
    expect(keys.remove(made.id, 'copy')).toBe(true);
    expect(keys.find(made.key)).toBeUndefined(); // in no database any more
  });

  it('forgets the keys made in a dropped database, and a database made again under its name starts as a new one', () => {
    const keys = new KeyStore(now, () => ['gw', 'copy']);
    const seeded = keys.add({ uid: 2, name: 'seeded' });
    const onlyThere = keys.add({ uid: 2, name: 'made in copy', db: 'copy' });
    const shared = keys.add({ uid: 2, name: 'made in gw', db: 'gw' });
    keys.copyDatabase('gw', 'copy');
    keys.remove(seeded.id, 'copy');
    keys.dropDatabase('copy');
    expect(keys.find(onlyThere.key)).toBeUndefined();
    expect(keys.check(shared.key, 'rpc', 'gw')).toBe(2);
    expect(keys.check(shared.key, 'rpc', 'copy')).toBeUndefined();
    expect(keys.check(seeded.key, 'rpc', 'copy')).toBe(2); // as in any new database of the simulator
  });

  it('forgets a key removed from every database that held it', () => {
    const keys = new KeyStore(now, () => ['gw', 'gw2']);
    const seeded = keys.add({ uid: 2, name: 'seeded' });
    keys.remove(seeded.id, 'gw');
    expect(keys.find(seeded.key)).toBeDefined();
    keys.remove(seeded.id, 'gw2');
    expect(keys.find(seeded.key)).toBeUndefined();
  });
});
