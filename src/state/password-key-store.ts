/**
 * The shared table of minted keys: one sealed entry per credential slot (`k:<slot>`,
 * expiring with the key), shared refusals (`n:<slot>`), and an index of slots by last use
 * (`keys`) that bounds the store to `--key-cache-size` entries: a write that overfills it removes
 * the least recently used entries and hands them to the writer, the one replica that retires them.
 * Slots are HMACs; values are sealed (see sealed.ts): Redis alone shows no login, key or password.
 */
import type { PasswordKey, SharedPasswordKeys, SharedSlot } from '../credentials/password-keys.ts';
import { refusalFromRecord, refusalRecord, type RefusalRecord } from '../credentials/refusals.ts';
import type { Logger } from '../log.ts';
import type { SharedLocks } from './lock.ts';
import type { RedisLink } from './redis-link.ts';
import type { Replicas } from './replicas.ts';
import type { Sealer } from './sealed.ts';

/** An entry as it is sealed (a uid beyond 2^53 is kept as text). */
interface StoredKey {
  db: string;
  uid: string;
  login: string;
  key: string;
  keyId: number | null;
  expiresAt: number;
  renewAt: number;
  validatedAt: number;
  /** The web session's cookie the password is confirmed in (sealed like the key; absent in older entries). */
  session?: string | null;
}

const scripts = {
  // KEYS: entry, index, refusal; ARGV: sealed, ttl ms, slot, score, max entries, entry key prefix.
  // Stores the entry, clears a shared refusal, and pops the least recently used entries beyond max.
  gatewayKeyWrite: {
    keys: 3,
    lua: `
redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('del', KEYS[3])
redis.call('zadd', KEYS[2], ARGV[4], ARGV[3])
local out = {}
local extra = redis.call('zcard', KEYS[2]) - tonumber(ARGV[5])
if extra > 0 then
  local old = redis.call('zpopmin', KEYS[2], extra)
  for i = 1, #old, 2 do
    local name = ARGV[6] .. old[i]
    local value = redis.call('get', name)
    if value then
      redis.call('del', name)
      table.insert(out, old[i])
      table.insert(out, value)
    end
  end
end
return out`,
  },
  // KEYS: entry, index; ARGV: sealed, ttl ms, slot, score. Stores the entry only where none is.
  gatewayKeyAdd: {
    keys: 2,
    lua: `
if redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then
  redis.call('zadd', KEYS[2], ARGV[4], ARGV[3])
  return 1
end
return 0`,
  },
  // KEYS: entry, index; ARGV: the sealed value read before, slot. Removes the entry if unchanged.
  gatewayKeyRemove: {
    keys: 2,
    lua: `
if redis.call('get', KEYS[1]) == ARGV[1] then
  redis.call('del', KEYS[1])
  redis.call('zrem', KEYS[2], ARGV[2])
  return 1
end
return 0`,
  },
  // KEYS: index; ARGV: entry key prefix, batch size. Pops a batch of entries (slot, sealed, ...).
  gatewayKeyDrain: {
    keys: 1,
    lua: `
local old = redis.call('zpopmin', KEYS[1], tonumber(ARGV[2]))
local out = {}
for i = 1, #old, 2 do
  local name = ARGV[1] .. old[i]
  local value = redis.call('get', name)
  redis.call('del', name)
  if value then
    table.insert(out, old[i])
    table.insert(out, value)
  end
end
return { #old, out }`,
  },
};

export interface PasswordKeyStoreOptions {
  link: RedisLink;
  sealer: Sealer;
  locks: SharedLocks;
  replicas: Replicas;
  /** `--key-cache-size`: entries the store keeps at most. */
  max: number;
  /** The credentials' clock (expiry); index scores use wall time. */
  now: () => number;
  log: Logger;
}

/** Creates the store. */
export function createPasswordKeyStore({ link, sealer, locks, replicas, max, now, log }: PasswordKeyStoreOptions): SharedPasswordKeys {
  link.define(scripts);
  const entryPrefix = link.key('k', '');
  const entryName = (slot: string) => entryPrefix + slot;
  const refusalName = (slot: string) => link.key('n', slot);
  const index = link.key('keys');

  const sealEntry = (slot: string, e: PasswordKey) =>
    sealer.seal(
      entryName(slot),
      JSON.stringify({
        db: e.db,
        uid: String(e.uid),
        login: e.login,
        key: e.key,
        keyId: e.keyId ?? null,
        expiresAt: e.expiresAt,
        renewAt: e.renewAt,
        validatedAt: e.validatedAt,
        session: e.session?.cookie ?? null,
      } satisfies StoredKey),
    );

  function openEntry(slot: string, sealed: string): PasswordKey | undefined {
    const text = sealer.open(entryName(slot), sealed);
    if (text === undefined) {
      log.warn(
        { slot: slot.slice(0, 8) },
        'a shared key entry does not open with this --state-secret (do all replicas share the same secret?); ignoring it',
      );
      return undefined;
    }
    const s = JSON.parse(text) as StoredKey;
    const big = BigInt(s.uid);
    const uid = big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
    return {
      db: s.db,
      uid,
      login: s.login,
      key: s.key,
      source: 'minted',
      keyId: s.keyId ?? undefined,
      expiresAt: s.expiresAt,
      renewAt: s.renewAt,
      validatedAt: s.validatedAt,
      session: typeof s.session === 'string' ? { db: s.db, cookie: s.session } : undefined,
    };
  }

  /** The entries a script answered as (slot, sealed, ...) pairs. */
  const openPairs = (flat: string[]): PasswordKey[] => {
    const out: PasswordKey[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const entry = openEntry(flat[i]!, flat[i + 1]!);
      if (entry !== undefined) out.push(entry);
    }
    return out;
  };

  const ttlOf = (entry: PasswordKey) => Math.max(1, Math.floor(entry.expiresAt - now()));

  /** The raw sealed entry and refusal of a slot (touching the slot's place in the index). */
  const readRaw = (slot: string) =>
    link.attempt('key-read', async (r) => {
      const results = await r.pipeline().get(refusalName(slot)).get(entryName(slot)).zadd(index, 'XX', Date.now(), slot).exec();
      if (results === null) throw new Error('pipeline aborted');
      for (const [err] of results) if (err) throw err;
      return { refusal: results[0]![1] as string | null, entry: results[1]![1] as string | null };
    });

  return {
    async read(slot) {
      const raw = await readRaw(slot);
      if (raw === undefined) return 'unavailable';
      const out: SharedSlot = {};
      if (raw.refusal !== null) {
        const text = sealer.open(refusalName(slot), raw.refusal);
        if (text !== undefined) out.refusal = refusalFromRecord(JSON.parse(text) as RefusalRecord);
      }
      if (raw.entry !== null) {
        const entry = openEntry(slot, raw.entry);
        if (entry !== undefined) out.entry = entry;
      }
      return out;
    },

    async write(slot, entry) {
      const flat = await link.attempt('key-write', (r) =>
        link.script(
          r,
          'gatewayKeyWrite',
          [entryName(slot), index, refusalName(slot)],
          [sealEntry(slot, entry), ttlOf(entry), slot, Date.now(), max, entryPrefix],
        ),
      );
      return flat === undefined ? 'unavailable' : openPairs(flat as string[]);
    },

    async add(slot, entry) {
      const added = await link.attempt('key-add', (r) =>
        link.script(r, 'gatewayKeyAdd', [entryName(slot), index], [sealEntry(slot, entry), ttlOf(entry), slot, Date.now()]),
      );
      if (added === undefined) return 'unavailable';
      return added === 1 ? 'added' : 'taken';
    },

    async remove(slot, key) {
      const raw = await readRaw(slot);
      if (raw === undefined) return 'unavailable';
      if (raw.entry === null || openEntry(slot, raw.entry)?.key !== key) return 'kept';
      const removed = await link.attempt('key-remove', (r) =>
        link.script(r, 'gatewayKeyRemove', [entryName(slot), index], [raw.entry!, slot]),
      );
      if (removed === undefined) return 'unavailable';
      return removed === 1 ? 'removed' : 'kept';
    },

    async refuse(slot, err, ttlMs) {
      const sealed = sealer.seal(refusalName(slot), JSON.stringify(refusalRecord(err)));
      await link.attempt('refusal-write', (r) => r.set(refusalName(slot), sealed, 'PX', Math.max(1, Math.floor(ttlMs))));
    },

    exclusive: (name, wait, run) => locks.exclusive(name, wait, run),

    async leave() {
      const who = await replicas.leave();
      if (who === 'unavailable') {
        log.warn('Redis is away at shutdown: keys in the shared store are left to the other replicas (or to expire)');
        return 'unavailable';
      }
      if (who === 'others') return { last: false };
      const entries: PasswordKey[] = [];
      for (;;) {
        const batch = (await link.attempt('key-drain', (r) => link.script(r, 'gatewayKeyDrain', [index], [entryPrefix, 100]))) as
          [number, string[]] | undefined;
        if (batch === undefined) break;
        entries.push(...openPairs(batch[1]));
        if (batch[0] === 0) break;
      }
      return { last: true, entries };
    },

    onUp: (listener) => link.onUp(listener),
  };
}
