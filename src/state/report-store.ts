/**
 * The migration report's counters in Redis, so every replica serves the same report.
 * Each client is one JSON value named by a keyed hash of (User-Agent, address, database, login
 * pseudonym), those four sealed in it (sealed.ts: Redis alone shows neither address nor pseudonym); a sorted
 * set keeps at most `maxClients` of them, scored by last seen plus {@link authenticatedBonus} for an
 * authenticated client, so that the least recently seen anonymous client leaves first and an
 * authenticated one only when no anonymous one is left (counted in a hash of dropped entries). A delta is added by
 * one Lua script (all of it or nothing) with the same rules as the in-process report: counts add up,
 * first seen is the earliest, last seen the latest, at most {@link maxMethodsPerClient} methods per
 * client with the calls to the others counted in `unlistedCalls`.
 */
import { createHash, createHmac } from 'node:crypto';
import {
  maxDifferencesPerMethod,
  maxMethodsPerClient,
  methodReports,
  noneDropped,
  type ClientReport,
  type DroppedCounts,
  type MethodCounts,
  type MethodReport,
} from '../report/migration-report.ts';
import { sliced } from '../report/report-stream.ts';
import type { ReportStore } from '../report/shared-report.ts';
import type { RedisLink } from './redis-link.ts';
import type { Sealer } from './sealed.ts';

/** How long Redis remembers a writer's last sequence number: far beyond any retry of a lost answer. */
export const writerMemoryMs = 24 * 60 * 60 * 1000;

/** Added to an authenticated client's score: beyond any epoch-ms time, so it ranks above every anonymous one. */
export const authenticatedBonus = 2 ** 45;

/**
 * A client's name in Redis: an HMAC under `key` (`reportClientSecret`), so key names stay short
 * whatever the User-Agent holds, and no guessed User-Agent and address can be checked against it.
 */
export function clientIdOf(key: Buffer, userAgent: string, ip: string, database?: string, user?: string): string {
  const parts = database === undefined && user === undefined ? [userAgent, ip] : [userAgent, ip, database ?? null, user ?? null];
  return createHmac('sha256', key).update(JSON.stringify(parts)).digest('base64url').slice(0, 22);
}

const methodIdOf = (m: MethodReport): string =>
  createHash('sha256')
    .update(JSON.stringify([m.service, m.method, m.model, m.modelMethod]))
    .digest('base64url')
    .slice(0, 16);

// KEYS: clients sorted set, writer's last seq, dropped counts (hash). ARGV: client key prefix, maxClients,
// maxMethods, delta (JSON array of clients, times in ms, methods in first-seen order), seq ('' = none),
// writer memory ms, differences kept per method, authenticated bonus.
const mergeLua = `
local seq = tonumber(ARGV[5])
if seq and seq <= tonumber(redis.call('get', KEYS[2]) or '-1') then return 0 end
local maxClients, maxMethods = tonumber(ARGV[2]), tonumber(ARGV[3])
local function valid(c)
  if type(c) ~= 'table' then return false end
  for _, f in ipairs({ 'calls', 'faults', 'firstSeen', 'lastSeen', 'unlistedCalls' }) do
    if type(c[f]) ~= 'number' then return false end
  end
  return type(c.dialects) == 'table' and type(c.services) == 'table' and type(c.methods) == 'table'
end
local function add(into, from) for k, v in pairs(from) do into[k] = (into[k] or 0) + v end end
local maxDifferences = tonumber(ARGV[7]) or 3
-- shadow results: counts add up, the most recent differences stay, the first JSON-2 body stays
local function addShadow(e, m)
  if type(m.shadow) == 'table' then
    local s = type(e.shadow) == 'table' and e.shadow or { equal = 0, intended = 0, differs = 0, errors = 0, dropped = 0 }
    for _, f in ipairs({ 'equal', 'intended', 'differs', 'errors', 'dropped', 'bound' }) do s[f] = (tonumber(s[f]) or 0) + (tonumber(m.shadow[f]) or 0) end
    if type(m.shadow.deviations) == 'table' then
      if type(s.deviations) ~= 'table' then s.deviations = {} end
      add(s.deviations, m.shadow.deviations)
    end
    e.shadow = s
  end
  if type(m.differences) == 'table' and #m.differences > 0 then
    local d = {}
    if type(e.differences) == 'table' then for _, x in ipairs(e.differences) do d[#d + 1] = x end end
    for _, x in ipairs(m.differences) do d[#d + 1] = x end
    table.sort(d, function(a, b) return tostring(a.at) < tostring(b.at) end)
    while #d > maxDifferences do table.remove(d, 1) end
    e.differences = d
  end
  if type(m.json2Body) == 'string' and type(e.json2Body) ~= 'string' then e.json2Body = m.json2Body end
end
for _, d in ipairs(cjson.decode(ARGV[4])) do
  local key = ARGV[1] .. d.id
  local raw = redis.call('get', key)
  local ok, c = false, nil
  if raw then ok, c = pcall(cjson.decode, raw) end
  -- a value that is not a stored client (damaged) starts over rather than failing every later merge
  if not (ok and valid(c)) then
    c = { who = d.who, firstSeen = d.firstSeen, lastSeen = d.lastSeen, calls = 0, faults = 0,
          dialects = {}, services = {}, methods = {}, unlistedCalls = 0 }
  end
  if d.authenticated == true then c.authenticated = true end
  c.calls = c.calls + d.calls
  c.faults = c.faults + d.faults
  c.firstSeen = math.min(c.firstSeen, d.firstSeen)
  c.lastSeen = math.max(c.lastSeen, d.lastSeen)
  add(c.dialects, d.dialects)
  add(c.services, d.services)
  local listed = 0
  for _ in pairs(c.methods) do listed = listed + 1 end
  for _, m in ipairs(d.methods) do
    local e = c.methods[m.id]
    if e then
      e.calls = e.calls + m.calls
      e.faults = e.faults + m.faults
      if m.successorCalls then e.successorCalls = (e.successorCalls or 0) + m.successorCalls end
      if m.gatewayFaults then e.gatewayFaults = (e.gatewayFaults or 0) + m.gatewayFaults end
      e.firstSeen = math.min(e.firstSeen, m.firstSeen)
      e.lastSeen = math.max(e.lastSeen, m.lastSeen)
      addShadow(e, m)
    elseif listed < maxMethods then
      c.methods[m.id] = m
      listed = listed + 1
    else
      c.unlistedCalls = c.unlistedCalls + m.calls
    end
  end
  c.unlistedCalls = c.unlistedCalls + d.unlistedCalls
  redis.call('set', key, cjson.encode(c))
  redis.call('zadd', KEYS[1], c.lastSeen + (c.authenticated == true and tonumber(ARGV[8]) or 0), d.id)
end
local excess = redis.call('zcard', KEYS[1]) - maxClients
if excess > 0 then
  local gone = redis.call('zpopmin', KEYS[1], excess)
  for i = 1, #gone, 2 do
    redis.call('del', ARGV[1] .. gone[i])
    local kind = tonumber(gone[i + 1]) >= tonumber(ARGV[8]) and 'authenticatedClients' or 'anonymousClients'
    redis.call('hincrby', KEYS[3], kind, 1)
  end
end
if seq then redis.call('set', KEYS[2], seq, 'PX', ARGV[6]) end
return 1
`;

// KEYS: clients sorted set, dropped counts. ARGV: client key prefix, maxClients. Authenticated
// clients first, each kind most recently seen first; the dropped counts come first, as flat pairs in JSON,
// then each client's id and value.
const readLua = `
local out = { cjson.encode(redis.call('hgetall', KEYS[2])) }
for _, id in ipairs(redis.call('zrevrange', KEYS[1], 0, tonumber(ARGV[2]) - 1)) do
  local raw = redis.call('get', ARGV[1] .. id)
  if raw then
    out[#out + 1] = id
    out[#out + 1] = raw
  end
end
return out
`;

const scripts = {
  gatewayReportMerge: { keys: 3, lua: mergeLua },
  gatewayReportRead: { keys: 2, lua: readLua },
};

/** Who a client is: its sealed fields. */
type Who = Pick<ClientReport, 'userAgent' | 'ip' | 'database' | 'user'>;

/**
 * A client as stored: who it is sealed in `who`, times in ms, methods by id (cjson writes an empty
 * table as `{}`).
 */
type StoredClient = Omit<ClientReport, keyof Who | 'firstSeen' | 'lastSeen' | 'methods'> & {
  who: string;
  // cjson writes a missing string as nothing and a JSON null as cjson.null: checked when read
  firstSeen: number;
  lastSeen: number;
  methods: Record<string, MethodCounts> | [];
};

const ms = (iso: string): number => Date.parse(iso);
const iso = (t: number): string => new Date(t).toISOString();

/** Seals who a client is and names it; `prefix`: the client keys' prefix (the seal is bound to the key). */
function clientToStored(c: ClientReport, sealer: Sealer, idKey: Buffer, prefix: string) {
  const id = clientIdOf(idKey, c.userAgent, c.ip, c.database, c.user);
  return {
    id,
    // only the value that creates the client is kept (the merge script)
    who: sealer.seal(prefix + id, JSON.stringify([c.userAgent, c.ip, c.database ?? null, c.user ?? null])),
    authenticated: c.authenticated === true,
    firstSeen: ms(c.firstSeen),
    lastSeen: ms(c.lastSeen),
    calls: c.calls,
    faults: c.faults,
    dialects: c.dialects,
    services: c.services,
    unlistedCalls: c.unlistedCalls,
    // first seen first: when the cap is near, the methods called earliest take the free places, as in-process
    methods: c.methods
      .map((m) => ({ id: methodIdOf(m), ...m, firstSeen: ms(m.firstSeen), lastSeen: ms(m.lastSeen) }))
      .sort((a, b) => a.firstSeen - b.firstSeen),
  };
}

/**
 * Who a stored client is, or `undefined` when its seal does not open: another `--state-secret`,
 * damaged, moved from another key, or written in clear by an older version.
 */
function openWho(sealer: Sealer, name: string, who: string): Who | undefined {
  const text = sealer.open(name, who);
  if (text === undefined) return undefined;
  try {
    const [userAgent, ip, database, user] = JSON.parse(text) as unknown[];
    if (typeof userAgent !== 'string' || typeof ip !== 'string') return undefined;
    return {
      userAgent,
      ip,
      ...(typeof database === 'string' ? { database } : {}),
      ...(typeof user === 'string' ? { user } : {}),
    };
  } catch {
    return undefined;
  }
}

function clientFromStored(c: StoredClient, who: Who): ClientReport {
  return {
    ...who,
    ...(c.authenticated === true ? { authenticated: true } : {}),
    firstSeen: iso(c.firstSeen),
    lastSeen: iso(c.lastSeen),
    calls: c.calls,
    faults: c.faults,
    dialects: c.dialects,
    services: c.services,
    methods: methodReports(Object.values(c.methods).map(storedMethod)),
    unlistedCalls: c.unlistedCalls,
  };
}

/** A stored method with its optional shadow fields checked (cjson writes an empty list as `{}`). */
function storedMethod(m: MethodCounts): MethodCounts {
  const { differences, json2Body, shadow, ...counts } = m;
  return {
    ...counts,
    ...(typeof json2Body === 'string' ? { json2Body } : {}),
    ...(typeof shadow === 'object' && shadow !== null ? { shadow } : {}),
    ...(Array.isArray(differences) && differences.length > 0 ? { differences } : {}),
  };
}

/** The dropped counts Redis keeps (clients only: the other counts are each replica's own). */
function droppedOf(raw: string | undefined): DroppedCounts {
  const dropped = noneDropped();
  let pairs: unknown = [];
  try {
    pairs = JSON.parse(raw ?? '[]');
  } catch {
    // a damaged value counts as nothing dropped
  }
  if (!Array.isArray(pairs)) return dropped;
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    const name = pairs[i] as unknown;
    const value = Number(pairs[i + 1]);
    if ((name === 'anonymousClients' || name === 'authenticatedClients') && Number.isInteger(value) && value >= 0) dropped[name] = value;
  }
  return dropped;
}

/** A stored value, or `undefined` when it is not one (damaged, or written by something else). */
function parseStoredClient(raw: string): StoredClient | undefined {
  try {
    const c = JSON.parse(raw) as StoredClient;
    return typeof c === 'object' && c !== null && typeof c.who === 'string' && typeof c.calls === 'number' ? c : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Creates the store on `link`; `maxClients` is `--report-size`, `now` the clock of `generatedAt`;
 * `sealer` and `idKey` come from `--state-secret` (`createSealer`, `reportClientSecret`).
 */
export function createReportStore(
  link: RedisLink,
  { maxClients, sealer, idKey, now = Date.now }: { maxClients: number; sealer: Sealer; idKey: Buffer; now?: () => number },
): ReportStore {
  if (!Number.isInteger(maxClients) || maxClients < 1) throw new Error(`maxClients must be a positive integer, got ${maxClients}`);
  link.define(scripts);
  const clientsKey = link.key('report', 'clients');
  const droppedKey = link.key('report', 'dropped');
  const clientPrefix = link.key('report', 'client', '');

  return {
    async merge(delta, batch) {
      if (delta.clients.length === 0) return true;
      const payload = JSON.stringify(delta.clients.map((c) => clientToStored(c, sealer, idKey, clientPrefix)));
      const writerKey = link.key('report', 'writer', batch?.writer ?? '-');
      const args = [
        clientPrefix,
        maxClients,
        maxMethodsPerClient,
        payload,
        batch?.seq ?? '',
        writerMemoryMs,
        maxDifferencesPerMethod,
        authenticatedBonus,
      ];
      const done = await link.attempt('report-merge', (r) =>
        link.script(r, 'gatewayReportMerge', [clientsKey, writerKey, droppedKey], args),
      );
      return done !== undefined;
    },

    async read() {
      const raws = await link.attempt('report-read', (r) =>
        link.script(r, 'gatewayReportRead', [clientsKey, droppedKey], [clientPrefix, maxClients]),
      );
      if (raws === undefined) return undefined;
      const [droppedRaw, ...flat] = raws as string[];
      const clientRaws: Array<[string, string]> = [];
      for (let i = 0; i + 1 < flat.length; i += 2) clientRaws.push([flat[i] as string, flat[i + 1] as string]);
      const clients: ClientReport[] = [];
      // parsed a few clients at a time, the event loop free between slices (a large shared report)
      for await (const [id, raw] of sliced(clientRaws)) {
        const stored = parseStoredClient(raw);
        // a client whose seal does not open is left out: its counts name no one this replica may show
        const who = stored === undefined ? undefined : openWho(sealer, clientPrefix + id, stored.who);
        if (stored !== undefined && who !== undefined) clients.push(clientFromStored(stored, who));
      }
      // most recently seen first, whatever the kind (the sorted set ranks authenticated ones first);
      // among those last seen together the newest first, as in-process (not by their keyed names)
      clients.sort((a, b) => ms(b.lastSeen) - ms(a.lastSeen) || ms(b.firstSeen) - ms(a.firstSeen));
      return { version: 1, generatedAt: iso(now()), dropped: droppedOf(droppedRaw), clients };
    },
  };
}
