/**
 * Locks across replicas: `SET NX PX` with a random token, released only by its holder
 * (compare-and-delete). A replica that dies holding a lock blocks the others no longer than the
 * lock's timeout: Redis drops the key by itself.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Exclusive } from '../credentials/password-key-types.ts';
import type { RedisLink } from './redis-link.ts';

/** Locks by name. */
export interface SharedLocks {
  /**
   * Runs `run` holding lock `name`. When another replica holds it: without `wait`, answers `held`
   * at once; with `wait`, waits until that replica lets go (or its lock times out), then answers
   * `held`, so the caller reads what the other replica stored.
   */
  exclusive<T>(name: string, wait: boolean, run: () => Promise<T>): Promise<Exclusive<T>>;
}

const scripts = {
  gatewayUnlock: {
    keys: 1,
    lua: "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0",
  },
};

/** Creates the locks; `timeoutMs` is `--redis-lock-timeout`. */
export function createSharedLocks(link: RedisLink, { timeoutMs }: { timeoutMs: number }): SharedLocks {
  link.define(scripts);

  /** Polls until `key` is gone: true, or false when Redis went away meanwhile. */
  async function waitForRelease(key: string): Promise<boolean> {
    const deadline = Date.now() + timeoutMs + 1000;
    let pause = 5;
    while (Date.now() < deadline) {
      await sleep(pause);
      pause = Math.min(pause * 2, 100);
      const exists = await link.attempt('lock-wait', (r) => r.exists(key));
      if (exists === undefined) return false;
      if (exists === 0) return true;
    }
    return true;
  }

  return {
    async exclusive(name, wait, run) {
      const key = link.key('lock', name);
      const token = randomBytes(16).toString('base64url');
      const taken = await link.attempt('lock', (r) => r.set(key, token, 'PX', timeoutMs, 'NX'));
      if (taken === undefined) return { ran: false, why: 'unavailable' };
      if (taken !== 'OK') {
        if (wait && !(await waitForRelease(key))) return { ran: false, why: 'unavailable' };
        return { ran: false, why: 'held' };
      }
      try {
        return { ran: true, value: await run() };
      } finally {
        await link.attempt('unlock', (r) => link.script(r, 'gatewayUnlock', [key], [token]));
      }
    },
  };
}
