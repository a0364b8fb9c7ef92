/**
 * The one door to Redis (ioredis). Commands never queue while Redis is away and never wait longer
 * than `--redis-timeout`: `attempt` answers `undefined` instead, and the caller goes on with its
 * in-process state (no call fails because Redis is away). The link reconnects by itself;
 * listeners registered with `onUp` hear each (re)connection so they can catch up.
 */
import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from '../log.ts';

/** Lua scripts the shared tables run atomically, by name. */
export type Scripts = Record<string, { keys: number; lua: string }>;

/** What the link reports to metrics. */
export interface RedisLinkEvents {
  /** Redis answered (true) or went away (false). */
  state(up: boolean): void;
  /** A command failed or timed out; the caller went on without Redis. */
  failure(op: string): void;
}

/** A connection to the shared store. */
export interface RedisLink {
  /** True while connected and answering. */
  readonly up: boolean;
  /** The Redis key for `parts` under `--redis-prefix`. */
  key(...parts: string[]): string;
  /**
   * Runs `run` when Redis is up; `undefined` when it is away or the command failed (logged once per
   * outage, counted per operation).
   */
  attempt<T>(op: string, run: (redis: Redis) => Promise<T>): Promise<T | undefined>;
  /** Runs a script registered with {@link RedisLink.define} (inside `attempt`). */
  script(redis: Redis, name: string, keys: string[], args: Array<string | number>): Promise<unknown>;
  /** Registers scripts (once per name). */
  define(scripts: Scripts): void;
  /** Calls `listener` on every connection (the first one included). */
  onUp(listener: () => void): void;
  /** Resolves once connected, or after `ms` (start-up waits a moment for Redis, never for long). */
  ready(ms: number): Promise<boolean>;
  close(): Promise<void>;
}

export interface RedisLinkOptions {
  url: string;
  prefix: string;
  timeoutMs: number;
  log: Logger;
  events?: RedisLinkEvents;
}

/** Timeouts in a row after which Redis counts as away (the link then reconnects). */
export const awayAfterTimeouts = 3;

/** Where the link points, for log lines: the URL without its password. */
export function redisEndpoint(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname.length > 1 ? u.pathname : ''}`;
}

/** Opens the link (connects in the background; the gateway starts whether Redis answers or not). */
export function createRedisLink({ url, prefix, timeoutMs, log, events }: RedisLinkOptions): RedisLink {
  const options: RedisOptions = {
    enableOfflineQueue: false, // a command while disconnected fails at once instead of waiting
    maxRetriesPerRequest: 0,
    commandTimeout: timeoutMs,
    connectTimeout: Math.max(timeoutMs * 4, 1000),
    retryStrategy: (attempt) => Math.min(100 * 2 ** Math.min(attempt, 5), 2000),
    lazyConnect: false,
  };
  const redis = new Redis(url, options);
  const endpoint = redisEndpoint(url);
  const upListeners: Array<() => void> = [];
  const defined = new Set<string>();
  let up = false;
  let warned = false; // one warning per outage (and one for a Redis away at start)
  let closing = false;
  // A Redis that hangs (paused, swapped out, a dead path) does not close the connection: after this
  // many timeouts in a row the link counts it away and reconnects, so the calls meanwhile cost no
  // timeout each; it is up again once Redis answers the reconnection's ready check.
  let timeoutsInARow = 0;
  events?.state(false);

  const down = (why: string) => {
    if (up) events?.state(false);
    up = false;
    if (closing || warned) return;
    warned = true;
    log.warn({ redis: endpoint, why }, 'Redis is away: serving with in-process state until it returns');
  };

  redis.on('ready', () => {
    up = true;
    warned = false;
    events?.state(true);
    log.info({ redis: endpoint }, 'Redis connected: credentials are shared with the other replicas');
    for (const listener of upListeners) listener();
  });
  redis.on('error', (err: Error) => down(err.message));
  redis.on('close', () => down('connection closed'));

  return {
    get up() {
      return up;
    },
    key: (...parts) => prefix + parts.join(':'),
    async attempt(op, run) {
      if (!up) return undefined;
      try {
        const out = await run(redis);
        timeoutsInARow = 0;
        return out;
      } catch (err) {
        events?.failure(op);
        if ((err as Error).message === 'Command timed out' && ++timeoutsInARow >= awayAfterTimeouts && up) {
          down(`${timeoutsInARow} commands timed out in a row`);
          timeoutsInARow = 0;
          redis.disconnect(true);
        }
        log.debug({ redis: endpoint, op, error: (err as Error).message }, 'a Redis command failed; going on without it');
        return undefined;
      }
    },
    script(client, name, keys, args) {
      const command = (client as unknown as Record<string, (...a: Array<string | number>) => Promise<unknown>>)[name];
      if (command === undefined) throw new Error(`Redis script ${name} is not defined`);
      return command.call(client, ...keys, ...args);
    },
    define(scripts) {
      for (const [name, s] of Object.entries(scripts)) {
        if (defined.has(name)) continue;
        redis.defineCommand(name, { numberOfKeys: s.keys, lua: s.lua });
        defined.add(name);
      }
    },
    onUp(listener) {
      upListeners.push(listener);
    },
    ready(ms) {
      if (up) return Promise.resolve(true);
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(up), ms);
        timer.unref();
        redis.once('ready', () => {
          clearTimeout(timer);
          resolve(true);
        });
      });
    },
    async close() {
      closing = true;
      up = false;
      try {
        await redis.quit();
      } catch {
        redis.disconnect();
      }
    },
  };
}
