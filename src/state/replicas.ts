/**
 * Which replicas are alive, so that minted keys are retired by the last replica to stop
 * and by no other: each replica keeps its id in a sorted set scored with an expiry it pushes forward
 * every heartbeat; leaving removes it (and every expired one) and tells whether any remain. A replica
 * killed without leaving counts as alive until its entry expires (3 heartbeats).
 */
import { randomBytes } from 'node:crypto';
import type { RedisLink } from './redis-link.ts';

/** This replica's membership. */
export interface Replicas {
  readonly id: string;
  /** Stops the heartbeat and leaves: `last` when no other replica remains. */
  leave(): Promise<'last' | 'others' | 'unavailable'>;
}

const scripts = {
  // KEYS: the set; ARGV: this replica, now. Leaves, forgets expired replicas, counts the others.
  gatewayReplicaLeave: {
    keys: 1,
    lua: `
redis.call('zrem', KEYS[1], ARGV[1])
redis.call('zremrangebyscore', KEYS[1], '-inf', ARGV[2])
return redis.call('zcard', KEYS[1])`,
  },
};

export function createReplicas(link: RedisLink, { heartbeatMs = 5000 }: { heartbeatMs?: number } = {}): Replicas {
  link.define(scripts);
  const id = `${process.pid}-${randomBytes(6).toString('hex')}`;
  const set = link.key('replicas');
  // the set itself expires with its last member, so a fleet that is gone leaves nothing behind
  const beat = () =>
    void link.attempt('replica-heartbeat', (r) =>
      r
        .multi()
        .zadd(set, Date.now() + 3 * heartbeatMs, id)
        .pexpire(set, 3 * heartbeatMs)
        .exec(),
    );
  link.onUp(beat);
  beat();
  const timer = setInterval(beat, heartbeatMs);
  timer.unref();
  return {
    id,
    async leave() {
      clearInterval(timer);
      const remaining = await link.attempt('replica-leave', (r) => link.script(r, 'gatewayReplicaLeave', [set], [id, Date.now()]));
      if (remaining === undefined) return 'unavailable';
      return remaining === 0 ? 'last' : 'others';
    },
  };
}
