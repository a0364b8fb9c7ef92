/**
 * Every setting, read once at start from CLI flags and environment variables of the same name
 * (`--call-timeout` / `CALL_TIMEOUT`; a flag wins over the variable), validated with one message
 * per bad value. The rest of the gateway receives a frozen, fully defaulted {@link Config}.
 */
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { parseServiceKeys, type ServiceKeys } from './service-keys.ts';

/** One setting: its flag (kebab-case), its variable, its default and why it has that default. */
interface Setting {
  flag: string;
  env: string;
  schema: z.ZodType;
  help: string;
  boolean?: boolean;
  /**
   * What a bad value is told, in the gateway's words (see {@link acceptedText}): what the setting
   * accepts, with an example. Numbers, choices and booleans derive it from their schema.
   */
  accepts?: string;
  /** The example a derived explanation ends with, for settings without a default. */
  example?: string;
  /**
   * The value holds secrets: a bad one is not quoted back (problems say which part is wrong), or
   * quoted through this function, which hides the secret part.
   */
  secret?: boolean | ((raw: string) => string);
}

const durationMs = (min: number) => z.coerce.number().int().min(min);
const boolText = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'yes', 'no', ''])])
  .transform((v) => v === true || v === 'true' || v === '1' || v === 'yes' || v === '');
/** A PEM file holding at least one certificate, read at start so a bad path stops the gateway. */
const pemFile = z
  .string()
  .min(1)
  .superRefine((path, ctx) => {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: `cannot read the file (${(err as NodeJS.ErrnoException).code ?? 'error'})` });
      return;
    }
    if (!text.includes('-----BEGIN CERTIFICATE-----')) ctx.addIssue({ code: 'custom', message: 'the file holds no PEM certificate' });
  });

/**
 * The `_FILE` form of a secret setting (`--state-secret-file` / `STATE_SECRET_FILE`): the path of a
 * file holding the value, as Docker and Kubernetes mount secrets, so the secret is in no
 * environment listing. {@link readSecretFiles} reads it.
 */
function secretFileSetting(flag: string, env: string, secretName: string, what: string): Setting {
  return {
    flag: `${flag}-file`,
    env: `${env}_FILE`,
    schema: z.string().min(1).optional(),
    accepts: `the path of a file holding ${what}, e.g. /run/secrets/${secretName}`,
    help: `File ${what} is read from instead of --${flag} (a Docker or Kubernetes secret, e.g. /run/secrets/${secretName}; one trailing newline ignored). Default none.`,
  };
}

/** Each secret setting's file form (key of the file setting → key of the setting it fills). */
/** A bearer token a client sends the admin port (`--admin-token`, `--routes-token`). */
const bearerToken = z
  .string()
  .min(16)
  .regex(/^[\x21-\x7e]+$/);
const bearerTokenAccepts = '16 or more printable ASCII characters without spaces, e.g. the output of `openssl rand -hex 24`';

export const secretFileForms = {
  adminTokenFile: { key: 'adminToken', what: 'the admin token' },
  serviceKeyFile: { key: 'serviceKey', what: 'the service keys' },
  redisUrlFile: { key: 'redisUrl', what: 'the Redis URL' },
  stateSecretFile: { key: 'stateSecret', what: 'the state secret' },
  routesTokenFile: { key: 'routesToken', what: 'the routes token' },
} as const;

/** The settings table; docs/configuration.md's table mirrors it (a test checks they agree). */
/** How a route serves a call (docs/cutover.md): `--default-mode` and the routes file's `mode`. */
export const routeModes = ['native', 'verify', 'translate', 'deny'] as const;
export type RouteMode = (typeof routeModes)[number];

/**
 * `--shadow-methods` as written: each `+name` to add to the shadow allowlist, each `-name` to
 * remove. The allowlist's own rules (the defaults, the methods never shadowed) apply where the
 * gateway starts its shadow (src/cutover/shadow/policy.ts).
 */
export interface ShadowMethodChanges {
  spec: string;
  /** In the order written: a later change to the same name wins. */
  changes: Array<{ add: boolean; name: string }>;
}

/** A method name as the operator may write it. */
const methodName = /^[A-Za-z][A-Za-z0-9_]*$/;

/** `--shadow-methods` read, or a message saying what is wrong. */
export function parseShadowMethodChanges(spec: string): ShadowMethodChanges | string {
  const changes: ShadowMethodChanges['changes'] = [];
  for (const raw of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const sign = raw[0];
    const name = raw.slice(1);
    if ((sign !== '+' && sign !== '-') || !methodName.test(name)) {
      return `${JSON.stringify(raw)}: name each method with + (add) or - (remove), e.g. "+name_get_custom,-read_group"`;
    }
    changes.push({ add: sign === '+', name });
  }
  return { spec, changes };
}

/** The cap on --login-recheck-interval + --revalidate-interval (see `loginPolicyWindow`). */
export const maxLoginPolicyWindowMs = 900_000;

export const settings = {
  upstream: {
    flag: 'upstream',
    env: 'UPSTREAM_URL',
    schema: z.url({ protocol: /^https?$/ }).default('http://127.0.0.1:8069'),
    accepts: 'an http:// or https:// URL, e.g. https://odoo.example.com',
    help: "Odoo base URL (http or https). Default http://127.0.0.1:8069, Odoo's own default port.",
  },
  upstreamCa: {
    flag: 'upstream-ca',
    env: 'UPSTREAM_CA',
    schema: pemFile.optional(),
    accepts: 'a PEM file holding the CA certificate(s), e.g. /etc/ssl/odoo-ca.pem',
    help: "PEM file of the CA(s) that signed an https upstream's certificate, trusted besides Node's bundled roots (a private CA). Default none.",
  },
  host: {
    flag: 'host',
    env: 'HOST',
    schema: z.string().min(1).default('127.0.0.1'),
    accepts: 'an address to listen on, e.g. 0.0.0.0 (every interface) or 127.0.0.1',
    help: 'Address the client port listens on. Default 127.0.0.1: nothing is exposed until you say so.',
  },
  port: {
    flag: 'port',
    env: 'PORT',
    schema: z.coerce.number().int().min(0).max(65535).default(8070),
    accepts: 'a port number from 0 to 65535 (0: any free port), e.g. 8070',
    help: "Client port (legacy endpoints). Default 8070, next to Odoo's 8069.",
  },
  adminHost: {
    flag: 'admin-host',
    env: 'ADMIN_HOST',
    schema: z.string().min(1).default('127.0.0.1'),
    accepts: 'an address to listen on, e.g. 127.0.0.1 (this machine only) or 0.0.0.0',
    help: 'Address the admin port (/metrics, /readyz, migration report) listens on. Default 127.0.0.1: only local scrapers see it.',
  },
  adminPort: {
    flag: 'admin-port',
    env: 'ADMIN_PORT',
    schema: z.coerce.number().int().min(0).max(65535).default(8071),
    accepts: 'a port number from 0 to 65535 (0: any free port), e.g. 8071',
    help: 'Admin port. Default 8071, next to the client port.',
  },
  adminToken: {
    flag: 'admin-token',
    env: 'ADMIN_TOKEN',
    schema: bearerToken.optional(),
    accepts: bearerTokenAccepts,
    secret: true,
    help: 'Bearer token the admin port requires for /metrics and the migration report (/readyz stays open for probes). Required when --admin-host listens beyond loopback. Default none.',
  },
  adminTokenFile: secretFileSetting('admin-token', 'ADMIN_TOKEN', 'admin_token', 'the admin token'),
  adminOpenWithoutToken: {
    flag: 'admin-open-without-token',
    env: 'ADMIN_OPEN_WITHOUT_TOKEN',
    schema: boolText.default(false),
    boolean: true,
    help: 'Accept that an admin port listening beyond loopback without a token shows /metrics and the migration report (client addresses, user agents, models, methods) to anyone who reaches it. Default false: the gateway refuses to start that way.',
  },
  demo: {
    flag: 'demo',
    env: 'DEMO',
    schema: boolText.default(false),
    boolean: true,
    help: 'Start the embedded Odoo 19 simulator (database "demo") and serve in front of it.',
  },
  demoSeries: {
    flag: 'demo-series',
    env: 'DEMO_SERIES',
    schema: z.enum(['19.0', 'saas-19.1', '20.0']).default('19.0'),
    help: "The Odoo series the --demo simulator plays: 19.0; saas-19.1 for Odoo Online's saas-19.x (no legacy db service, the rewritten database manager, programmatic API keys, no read_group/check_access_rights/toggle_active); or 20.0 (the same, plus the new read_group answering tuples and ir.access instead of ir.model.access/ir.rule). Default 19.0.",
  },
  demoPort: {
    flag: 'demo-port',
    env: 'DEMO_PORT',
    schema: z.coerce.number().int().min(0).max(65535).default(8079),
    accepts: 'a port number from 0 to 65535 (0: any free port), e.g. 8079',
    help: "The --demo simulator's port on 127.0.0.1, to compare the gateway's answers with the simulated Odoo's own. Default 8079 (0: any free port, printed at start).",
  },
  callTimeoutMs: {
    flag: 'call-timeout',
    env: 'CALL_TIMEOUT',
    schema: durationMs(1).default(120_000),
    help: "Milliseconds a legacy call may take upstream. Default 120000, the default of Odoo's limit_time_real, which Odoo shows on no route: set it to yours (an Odoo with a longer limit_time_real, or threaded, finishes calls this cuts).",
  },
  dbTimeoutMs: {
    flag: 'db-timeout',
    env: 'DB_TIMEOUT',
    schema: durationMs(1).default(3_600_000),
    help: 'Milliseconds a db service call (create, duplicate, dump, restore, ...) may take upstream, dump and restore transfers included. Default 3600000 (1 h): creating a database takes ~20 s, big backups much longer.',
  },
  connectTimeoutMs: {
    flag: 'connect-timeout',
    env: 'CONNECT_TIMEOUT',
    schema: durationMs(1).default(10_000),
    help: 'Milliseconds to open a connection to the upstream. Default 10000.',
  },
  upstreamConnections: {
    flag: 'upstream-connections',
    env: 'UPSTREAM_CONNECTIONS',
    schema: z.coerce.number().int().min(1).max(10_000).default(24),
    help:
      "Connections to the upstream ordinary legacy calls use at most (their share; calls beyond wait their turn). Default 24: with every other share and the passthrough, 56 of Odoo's default db_maxconn (64): " +
      'size it below db_maxconn (threaded Odoo) or the worker count (prefork), less what other clients of that Odoo use.',
  },
  keyConnections: {
    flag: 'key-connections',
    env: 'KEY_CONNECTIONS',
    schema: z.coerce.number().int().min(1).max(10_000).default(4),
    help: 'Connections to the upstream key work uses at most (minting a key for a password user, renewing, password checks, retiring), a share of its own so new users are not queued behind ordinary calls. Default 4.',
  },
  dbConnections: {
    flag: 'db-connections',
    env: 'DB_CONNECTIONS',
    schema: z.coerce.number().int().min(1).max(10_000).default(2),
    help: "Connections to the upstream the legacy db service's /web/database/* exchanges (dumps, restores, creations) use at most, a share of their own. Default 2.",
  },
  slowCallMs: {
    flag: 'slow-call',
    env: 'SLOW_CALL',
    schema: durationMs(0).default(2000),
    help: 'Milliseconds after which a legacy call still running moves to the slow lane (while it has room), giving its --upstream-connections share to the next call, and counts as a long call of its model and method; later calls of a method whose recent calls mostly ran long (--slow-call-samples) wait for the slow lane and never take an ordinary connection, until most of them end sooner. So long calls cannot make light ones wait behind them. 0: never (no slow lane). Default 2000.',
  },
  slowCallSamples: {
    flag: 'slow-call-samples',
    env: 'SLOW_CALL_SAMPLES',
    schema: z.coerce.number().int().min(1).max(50).default(3),
    help: 'Calls of a model and method seen before it counts as slow: it is slow while most of its last 2N-1 calls ran past --slow-call (their median did), with at least N of them, and light again once most of them are fast. So one slow moment of a light method does not send its later calls to wait behind the heavy ones. 1: the last call alone decides. Default 3.',
  },
  slowConnections: {
    flag: 'slow-connections',
    env: 'SLOW_CONNECTIONS',
    schema: z.coerce.number().int().min(0).max(10_000).default(8),
    help: 'Legacy calls the slow lane holds at most (each one a connection to the upstream on top of --upstream-connections): calls of methods known slow, which wait for it (at most their --call-timeout) or borrow an ordinary connection beyond --light-reserve, and calls that ran past --slow-call; with the lane full, a call running long keeps its ordinary share. Against a prefork Odoo keep it below its workers. 0: no slow lane. Default 8.',
  },
  lightReserve: {
    flag: 'light-reserve',
    env: 'LIGHT_RESERVE',
    schema: z.coerce.number().int().min(0).max(10_000).optional(),
    help:
      'Connections of --upstream-connections that calls of methods known slow leave free for the others: with the slow lane full, a call known slow borrows an ordinary connection only while more than this many are free and no ordinary call waits, so slow calls use the connections light ones leave idle without taking the last ones. ' +
      'Default: a quarter of --upstream-connections, at least 2 (6 of 24). Against a prefork Odoo, set it to --upstream-connections (no borrowing) unless --slow-connections plus the borrowable connections stay below its workers.',
  },
  queueTimeoutMs: {
    flag: 'queue-timeout',
    env: 'QUEUE_TIMEOUT',
    schema: durationMs(1).default(30_000),
    help: 'Longest wait of a legacy call, key exchange or db transfer for a free connection of its share; past it the call fails with a fault naming this setting. Calls of methods known slow are not bound by it: they wait at most their --call-timeout (Odoo would take that long to answer them anyway), then fail with a fault naming that. Default 30000.',
  },
  passthroughBufferBytes: {
    flag: 'passthrough-buffer',
    env: 'PASSTHROUGH_BUFFER',
    schema: z.coerce
      .number()
      .int()
      .min(0)
      .max(1024 * 1024 * 1024)
      .default(1024 * 1024),
    help: "Passed-through request bodies are read whole before Odoo is contacted (nginx's proxy_request_buffering), so a slow client holds no Odoo worker: up to this many bytes in memory, larger ones in a temporary file in --passthrough-spool-dir (nginx's client_body_buffer_size). Default 1048576 (1 MiB); 0 sends every body to disk.",
  },
  passthroughMaxBodyBytes: {
    flag: 'passthrough-max-body',
    env: 'PASSTHROUGH_MAX_BODY',
    schema: z.coerce
      .number()
      .int()
      .min(0)
      .default(128 * 1024 * 1024),
    help: "Largest passed-through request body in bytes (nginx's client_max_body_size): one declared or found larger gets 413 and its connection is closed. Default 134217728 (128 MiB), Odoo's own limit.",
  },
  passthroughSpoolDir: {
    flag: 'passthrough-spool-dir',
    env: 'PASSTHROUGH_SPOOL_DIR',
    schema: z.string().min(1).default(tmpdir()),
    help: 'Directory of the temporary files that hold passed-through bodies over --passthrough-buffer while they arrive; each is unlinked as soon as it is created, so nothing is left behind. Default: the system temporary directory.',
  },
  passthroughConnections: {
    flag: 'passthrough-connections',
    env: 'PASSTHROUGH_CONNECTIONS',
    schema: z.coerce.number().int().min(1).max(10_000).default(16),
    help: 'Passed-through exchanges (web client, downloads, /web/session/*) in flight to the upstream at most; further ones wait their turn. Default 16.',
  },
  connectAheadMs: {
    flag: 'connect-ahead',
    env: 'CONNECT_AHEAD',
    schema: durationMs(0).max(60_000).default(1000),
    help: 'Milliseconds a connection opened ahead of the next legacy call (Odoo closes each connection after its answer, so every call would wait for a connect) is kept for it before it is closed unused; 0 turns connecting ahead off. Default 1000 (a prefork Odoo drops an idle connection after 2 s).',
  },
  maxBodyBytes: {
    flag: 'max-body',
    env: 'MAX_BODY',
    schema: z.coerce
      .number()
      .int()
      .min(1024)
      .default(128 * 1024 * 1024),
    help: "Largest legacy request body in bytes. Default 134217728 (128 MiB), Odoo's own limit.",
  },
  maxAnswerBytes: {
    flag: 'max-answer',
    env: 'MAX_ANSWER',
    schema: z.coerce
      .number()
      .int()
      .min(1024)
      .default(128 * 1024 * 1024),
    help: "Largest upstream answer to a legacy call in bytes, counted as it arrives; past it the call gets a fault naming this setting. db.dump streams and is not limited. Default 134217728 (128 MiB), --max-body's own.",
  },
  requestTimeoutMs: {
    flag: 'request-timeout',
    env: 'REQUEST_TIMEOUT',
    schema: durationMs(100).default(300_000),
    help: "Milliseconds a client may take to send a whole request (headers within at most 60000) before it gets 408 and its connection is closed, so a slow body (slow-loris) cannot hold a connection forever. Default 300000, Node's own.",
  },
  sendTimeoutMs: {
    flag: 'send-timeout',
    env: 'SEND_TIMEOUT',
    schema: durationMs(100).default(60_000),
    help: "Milliseconds a client may go without taking any of its answer (once the headers are written) before its connection is closed and counted, so clients that never read cannot pile up answers in memory. Default 60000, nginx's send_timeout.",
  },
  maxConnections: {
    flag: 'max-connections',
    env: 'MAX_CONNECTIONS',
    schema: z.coerce.number().int().min(1).max(1_000_000).default(1024),
    help: "Client-port connections open at most; a connection beyond gets 503 (Retry-After: 1) and is closed. Default 1024: keep it below the process's open-file limit (ulimit -n) less the upstream pools.",
  },
  maxDepth: {
    flag: 'max-depth',
    env: 'MAX_DEPTH',
    schema: z.coerce.number().int().min(4).max(10_000).default(256),
    help: 'Deepest array/struct nesting accepted in a request or an upstream answer. Default 256.',
  },
  marshalNone: {
    flag: 'marshal-none',
    env: 'MARSHAL_NONE',
    schema: z.enum(['fault', 'nil', 'false']).default('fault'),
    help: 'XML-RPC answer holding None: "fault" (Odoo\'s TypeError fault), "nil" (<nil/>) or "false".',
  },
  marshalBigInt: {
    flag: 'marshal-big-int',
    env: 'MARSHAL_BIG_INT',
    schema: z.enum(['fault', 'i8']).default('fault'),
    help: 'XML-RPC answer holding an int beyond 32 bits: "fault" (Odoo\'s OverflowError) or "i8".',
  },
  strictBase64: {
    flag: 'strict-base64',
    env: 'STRICT_BASE64',
    schema: boolText.default(false),
    boolean: true,
    help: 'Refuse <base64> values as Odoo 19 does instead of sending them as base64 strings.',
  },
  successors: {
    flag: 'successors',
    env: 'SUCCESSORS',
    schema: z.enum(['auto', 'always', 'off']).default('auto'),
    help: 'Methods a later Odoo removed (read_group, toggle_active, ir.http.get_currencies, check_access_rights, check_access_rule, check_field_access_rights) answered through their successors: "auto" (once the upstream says the method is gone, per database), "always" (every call, to check the translation against 19.0) or "off". Default auto.',
  },
  dbHeaders: {
    flag: 'db-headers',
    env: 'DB_HEADERS',
    schema: z
      .string()
      .default('X-Odoo-Database,X-Service-Database')
      .transform((s) =>
        s
          .split(',')
          .map((h) => h.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.string().regex(/^[A-Za-z0-9-]+$/)).min(1)),
    accepts: 'comma-separated header names (letters, digits and -), e.g. X-Odoo-Database,X-Service-Database',
    help: 'Comma-separated headers that carry the database name upstream.',
  },
  upstreamHost: {
    flag: 'upstream-host',
    env: 'UPSTREAM_HOST',
    schema: z.string().min(1).default('client'),
    accepts: '"client", "upstream", a host name or a template with {db}, e.g. {db}.erp.example.com',
    help: 'Host header sent upstream: "client" (the client\'s own), "upstream", a fixed name, or a template with {db}.',
  },
  trustedProxies: {
    flag: 'trusted-proxies',
    env: 'TRUSTED_PROXIES',
    schema: z
      .string()
      .default('')
      .transform((s) =>
        s
          .split(',')
          .map((h) => h.trim())
          .filter(Boolean),
      ),
    help: 'Comma-separated addresses, subnets (172.16.0.0/12) or "loopback" whose X-Forwarded-For is believed. Default none.',
  },
  keyCacheSize: {
    flag: 'key-cache-size',
    env: 'KEY_CACHE_SIZE',
    schema: z.coerce.number().int().min(1).default(10_000),
    help: 'Credentials remembered at most (one entry per db, user and password). Default 10000.',
  },
  keyCacheTtlMs: {
    flag: 'key-cache-ttl',
    env: 'KEY_CACHE_TTL',
    schema: durationMs(1000).default(900_000),
    help: 'Milliseconds a checked API key is trusted before it is checked again. Default 900000 (15 min).',
  },
  credentialsFile: {
    flag: 'credentials-file',
    env: 'CREDENTIALS_FILE',
    schema: z.string().min(1).optional(),
    accepts: 'the path of a JSON file, e.g. /etc/legacy-rpc-gateway/credentials.json',
    help: 'JSON credential map: (db, login, scrypt hash of the password) → API key, checked before minting; for 2FA users and integrations that must not log in upstream. Default none.',
  },
  keyDurationDays: {
    flag: 'key-duration',
    env: 'KEY_DURATION',
    schema: z
      .enum(['1', '7', '30', '90', '180', '365'], { error: "one of Odoo's key durations: 1, 7, 30, 90, 180 or 365 (days)" })
      .default('1')
      .transform(Number),
    help: 'Days a minted API key lives (Odoo expires it at 00:00 UTC that many days ahead). Default 1: a leaked key dies soon; it is renewed while in use.',
  },
  keyTag: {
    flag: 'key-tag',
    env: 'KEY_TAG',
    schema: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,40}$/, { error: 'letters, digits, ".", "_" or "-", at most 40, e.g. eu-prod' })
      .optional()
      .transform((v) => v ?? ''),
    accepts: 'letters, digits, ".", "_" or "-", at most 40, e.g. eu-prod',
    help: 'Names the keys this gateway mints ("legacy-rpc-gateway (<tag>) for ..." instead of "legacy-rpc-gateway for ..."). At each password login the gateway removes the user\'s older keys it named itself, recognised by a mark under --state-secret (without one, only the running process\'s keys). Default none.',
  },
  keyRenewMarginMs: {
    flag: 'key-renew-margin',
    env: 'KEY_RENEW_MARGIN',
    schema: durationMs(0).default(600_000),
    help: 'Milliseconds before a minted key expires when the next call renews it (the call is served with the old key). Default 600000 (10 min).',
  },
  mintIntervalMs: {
    flag: 'mint-interval',
    env: 'MINT_INTERVAL',
    schema: durationMs(0).default(60_000),
    help: 'Milliseconds over which the same credentials (database, login, password) are traded for API keys at most twice (the key, and one replacement for a key Odoo refused); calls that need another meanwhile are refused, so keys Odoo refuses or that look dead cannot make every call mint one. 0: no bound. Default 60000.',
  },
  revalidateIntervalMs: {
    flag: 'revalidate-interval',
    env: 'REVALIDATE_INTERVAL',
    schema: durationMs(1000)
      .max(maxLoginPolicyWindowMs - 1000)
      .default(5000),
    help: "Bound, in milliseconds, on how long a changed password keeps working: each replica confirms the password behind a key at least this often (by checking the web session minting opened together with the user's write_date, which costs Odoo no password hash; in the background once half of it has passed, so calls in steady use do not wait) and serves no key it could not confirm within it. With --login-recheck-interval at most 900000 in all. Default 5000.",
  },
  loginRecheckIntervalMs: {
    flag: 'login-recheck-interval',
    env: 'LOGIN_RECHECK_INTERVAL',
    schema: durationMs(1000)
      .max(maxLoginPolicyWindowMs - 1000)
      .default(600_000),
    help: 'Bound, in milliseconds, on how long a session check stands in for a real password login: past it the password is confirmed by logging in again, so what Odoo refuses at login without changing the user (an enforced 2FA policy, any rule that allows API keys only on RPC) is refused through the gateway too, within this plus --revalidate-interval, which together are at most 900000 (15 min). Default 600000 (10 min).',
  },
  negativeCacheTtlMs: {
    flag: 'negative-cache-ttl',
    env: 'NEGATIVE_CACHE_TTL',
    schema: durationMs(0).default(60_000),
    help: 'Milliseconds refused credentials are answered without asking the upstream again (a looping bad client makes one login per period). Default 60000.',
  },
  throttleFailures: {
    flag: 'throttle-failures',
    env: 'THROTTLE_FAILURES',
    schema: z.coerce.number().int().min(1).default(5),
    help: "Failed logins per client address, database and login before further attempts are refused. Default 5, like Odoo's own login cooldown.",
  },
  throttleBackoffMs: {
    flag: 'throttle-backoff',
    env: 'THROTTLE_BACKOFF',
    schema: durationMs(1).default(60_000),
    help: "Milliseconds refused after the failures above; doubled for each further failure. Default 60000 (Odoo's cooldown).",
  },
  throttleMaxBackoffMs: {
    flag: 'throttle-max-backoff',
    env: 'THROTTLE_MAX_BACKOFF',
    schema: durationMs(1).default(3_600_000),
    help: 'Longest refusal in milliseconds; failures older than this are forgotten. Default 3600000 (1 h).',
  },
  versionCacheTtlMs: {
    flag: 'version-cache-ttl',
    env: 'VERSION_CACHE_TTL',
    schema: durationMs(0).default(60_000),
    help: 'Milliseconds common.version() answers are reused. Default 60000.',
  },
  serviceKey: {
    flag: 'service-key',
    env: 'SERVICE_KEY',
    schema: z
      .string()
      .transform((text, ctx): ServiceKeys => {
        const keys = parseServiceKeys(text);
        if ('problems' in keys) for (const message of keys.problems) ctx.addIssue({ code: 'custom', message });
        return keys as ServiceKeys;
      })
      .optional(),
    secret: true,
    accepts:
      'Odoo API keys (40 lowercase hex characters each): `db=key` entries separated by commas and/or one bare key, e.g. erp=<key>,erp2=<key>',
    help:
      'API keys the gateway itself uses for look-ups (uid logins, signature discovery, languages): `db=key` entries separated by commas, one per database, ' +
      "and/or one bare key for every other database. Default none: uid logins must be learned from logins, discovery uses the caller's own key.",
  },
  serviceKeyFile: secretFileSetting('service-key', 'SERVICE_KEY', 'service_key', 'the service keys (the --service-key text)'),
  serviceDb: {
    flag: 'service-db',
    env: 'SERVICE_DB',
    schema: z.string().min(1).optional(),
    accepts: 'a database name, e.g. odoo',
    help: 'Database whose service key serves calls that name no database (db.list_lang fallback) and the start-up check of a bare key. Default none.',
  },
  signatureTtlMs: {
    flag: 'signature-ttl',
    env: 'SIGNATURE_TTL',
    schema: durationMs(0).default(300_000),
    help: 'Milliseconds a signature discovered through /doc-bearer is used before it is revalidated (If-None-Match). Default 300000 (5 min).',
  },
  signaturesFile: {
    flag: 'signatures-file',
    env: 'SIGNATURES_FILE',
    schema: z.string().min(1).optional(),
    accepts: 'the path of a JSON or YAML file, e.g. /etc/legacy-rpc-gateway/signatures.yaml',
    help: 'JSON or YAML file declaring or correcting method signatures; it wins over discovery and the built-in table. Default none.',
  },
  redisUrl: {
    flag: 'redis-url',
    env: 'REDIS_URL',
    schema: z.url({ protocol: /^rediss?$/ }).optional(),
    accepts: 'a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379 or rediss://:password@redis.internal:6380/0',
    secret: (raw) => raw.replace(/\/\/[^@/]*@/, '//***@'), // the password a URL may hold
    help: 'Redis that replicas share credentials through (minted keys, uid logins, refusals, throttle counters, migration report counters); needs --state-secret. Default none: all state stays in the process.',
  },
  redisUrlFile: secretFileSetting('redis-url', 'REDIS_URL', 'redis_url', 'the Redis URL (with its password)'),
  stateSecret: {
    flag: 'state-secret',
    env: 'STATE_SECRET',
    schema: z.string().min(32).optional(),
    accepts: '32 or more characters, e.g. the output of `openssl rand -base64 32`',
    secret: true,
    help: 'Secret every replica shares: keys and logins are stored in Redis encrypted (AES-256-GCM) under it, and credential slots are named by HMAC under it. Required with --redis-url. Also without Redis it marks the names of minted keys, so a restarted gateway removes its earlier keys at the next login. Default none.',
  },
  stateSecretFile: secretFileSetting('state-secret', 'STATE_SECRET', 'state_secret', 'the state secret'),
  redisPrefix: {
    flag: 'redis-prefix',
    env: 'REDIS_PREFIX',
    schema: z.string().min(1).max(100).default('legacy-rpc-gateway:'),
    accepts: '1 to 100 characters, e.g. erp1-gateway:',
    help: 'Prefix of every Redis key the gateway writes, so several gateway fleets (one per Odoo) can share one Redis. Default "legacy-rpc-gateway:".',
  },
  redisTimeoutMs: {
    flag: 'redis-timeout',
    env: 'REDIS_TIMEOUT',
    schema: durationMs(10).default(500),
    help: 'Milliseconds a Redis command may take before the gateway goes on with its in-process state (no call fails because Redis is slow or away). Default 500.',
  },
  redisLockTimeoutMs: {
    flag: 'redis-lock-timeout',
    env: 'REDIS_LOCK_TIMEOUT',
    schema: durationMs(100).default(20_000),
    help: 'Milliseconds a replica may hold the lock for minting, renewing or re-checking one credential; a replica that dies holding it blocks the others no longer than this. Default 20000 (a key exchange is 5 upstream requests).',
  },
  redisLocalTtlMs: {
    flag: 'redis-local-ttl',
    env: 'REDIS_LOCAL_TTL',
    schema: durationMs(0).default(5_000),
    help: 'Milliseconds a replica uses its in-process copy of a shared credential before reading Redis again (a renewal or refusal on another replica is seen within this). Default 5000.',
  },
  logLevel: {
    flag: 'log-level',
    env: 'LOG_LEVEL',
    schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    help: 'pino log level. Default info: one line per legacy call.',
  },
  logFormat: {
    flag: 'log-format',
    env: 'LOG_FORMAT',
    schema: z.enum(['auto', 'json', 'pretty']).default('auto'),
    help: 'Log lines as "json" (pino), "pretty" (colored, for people) or "auto": pretty when stdout is a terminal, JSON otherwise.',
  },
  logFlushIntervalMs: {
    flag: 'log-flush-interval',
    env: 'LOG_FLUSH_INTERVAL',
    schema: durationMs(0).default(100),
    help: 'Milliseconds JSON log lines may wait to be written together (a write per 4 KiB or per interval instead of one per line: less CPU per call). 0 writes each line at once. Held lines are written at exit; a SIGKILL loses at most this much. Default 100.',
  },
  reportFile: {
    flag: 'report-file',
    env: 'REPORT_FILE',
    schema: z.string().min(1).optional(),
    accepts: 'the path of a file the gateway may write, e.g. /var/lib/legacy-rpc-gateway/report.json',
    help: 'JSON file the migration report is saved to every minute and at shutdown, and read back at start. Default none: the report lives in memory only.',
  },
  reportShowLogins: {
    flag: 'report-show-logins',
    env: 'REPORT_SHOW_LOGINS',
    schema: boolText.default(false),
    boolean: true,
    help: "Show each client's login in clear beside its pseudonym in the migration report served on the admin port (the logins this process saw since it started, kept in memory only; never in --report-file or Redis). Default false: the report shows only the pseudonym.",
  },
  loginsFile: {
    flag: 'logins-file',
    env: 'LOGINS_FILE',
    schema: z.string().min(1).optional(),
    accepts: 'the path of a file the gateway may write, e.g. /var/lib/legacy-rpc-gateway/logins.json',
    help: 'JSON file that keeps which login each uid has in each database (no password, no key) across restarts, for a gateway without --redis-url (Redis keeps them otherwise). Default none.',
  },
  reportSize: {
    flag: 'report-size',
    env: 'REPORT_SIZE',
    schema: z.coerce.number().int().min(1).max(1_000_000).default(1000),
    help: 'Legacy clients (database, login, User-Agent and address) the migration report keeps; the least recently seen anonymous client leaves first, an authenticated one only when no anonymous one is left. Default 1000.',
  },
  reportMaxBytes: {
    flag: 'report-max-bytes',
    env: 'REPORT_MAX_BYTES',
    schema: z.coerce
      .number()
      .int()
      .min(64 * 1024)
      .max(1024 * 1024 * 1024)
      .default(8 * 1024 * 1024),
    help: "Bound of the migration report's size (its JSON, estimated as it is recorded): anonymous clients leave to make room, then calls to further methods are only counted. Default 8388608 (8 MiB).",
  },
  shadowSample: {
    flag: 'shadow-sample',
    env: 'SHADOW_SAMPLE',
    schema: z.coerce.number().min(0, 'a percentage from 0 to 100').max(100, 'a percentage from 0 to 100').default(0),
    help: "Shadow mode: percent (0-100) of read-only legacy calls also sent, after the client has its answer, to the upstream's own legacy endpoint and compared (the migration report shows the results). Default 0: off.",
  },
  shadowMaxInFlight: {
    flag: 'shadow-max-in-flight',
    env: 'SHADOW_MAX_IN_FLIGHT',
    schema: z.coerce.number().int().min(1).max(1000).default(4),
    help: 'Shadow calls in flight at most; a sampled call finding them all busy is dropped and counted. Default 4.',
  },
  shadowMethods: {
    flag: 'shadow-methods',
    env: 'SHADOW_METHODS',
    schema: z
      .string()
      .default('')
      .transform((spec, ctx): ShadowMethodChanges => {
        const changes = parseShadowMethodChanges(spec);
        if (typeof changes === 'string') {
          ctx.addIssue({ code: 'custom', message: changes });
          return z.NEVER;
        }
        return changes;
      }),
    help: 'Changes to the shadow allowlist (the default shown): comma-separated +method to add and -method to remove, e.g. "+name_get_custom,-read_group". Methods that can change state cannot be added; db functions other than the five shown are never shadowed.',
  },
  routesFile: {
    flag: 'routes-file',
    env: 'ROUTES_FILE',
    // read and validated where the routes are built (src/cutover/routes/route-table.ts), a bad file
    // stopping the start as any bad setting does
    schema: z.string().min(1).optional(),
    accepts: 'the path of a YAML or JSON routes file, e.g. /etc/legacy-rpc-gateway/routes.yaml',
    help: 'YAML or JSON file of route rules: which calls (by database, login, User-Agent pattern, source address or subnet, service, model.method) are served native, verify, translate or deny; first match wins (docs/cutover.md). Validated at start; reloaded on SIGHUP and POST /gateway/routes/reload, a bad file refused with the routes in force kept. Default none: every call in --default-mode.',
  },
  defaultMode: {
    flag: 'default-mode',
    env: 'DEFAULT_MODE',
    schema: z.enum(routeModes).default('translate'),
    help: "Mode of the calls no rule of --routes-file matches: native (Odoo's own legacy endpoint answers), verify (Odoo answers, the gateway translates on the side and compares), translate (the gateway answers through JSON-2) or deny. Default translate.",
  },
  routesToken: {
    flag: 'routes-token',
    env: 'ROUTES_TOKEN',
    schema: bearerToken.optional(),
    accepts: bearerTokenAccepts,
    secret: true,
    help: 'Bearer token POST /gateway/routes/reload on the admin port requires (reloading the routes changes what reaches Odoo, so it has a token of its own). Default none: the endpoint answers 403 and only SIGHUP reloads.',
  },
  routesTokenFile: secretFileSetting('routes-token', 'ROUTES_TOKEN', 'routes_token', 'the routes token'),
  verifySample: {
    flag: 'verify-sample',
    env: 'VERIFY_SAMPLE',
    schema: z.coerce.number().min(0, 'a percentage from 0 to 100').max(100, 'a percentage from 0 to 100').default(100),
    help: 'verify routes: percent (0-100) of the calls Odoo answered that the gateway also checks (read-only calls translated and compared, writes bound without sending). Default 100.',
  },
  verifyMaxInFlight: {
    flag: 'verify-max-in-flight',
    env: 'VERIFY_MAX_IN_FLIGHT',
    schema: z.coerce.number().int().min(1).max(1000).default(4),
    help: 'verify checks in flight at most; a sampled call finding them all busy is dropped and counted, its client answered as always. Default 4.',
  },
  shutdownGraceMs: {
    flag: 'shutdown-grace',
    env: 'SHUTDOWN_GRACE',
    schema: durationMs(0).default(25_000),
    help: "Milliseconds in-flight calls may take to finish after SIGTERM/SIGINT before their connections are closed. Default 25000, inside Kubernetes' 30 s before SIGKILL (give `docker stop` -t 30).",
  },
} satisfies Record<string, Setting>;

type Settings = typeof settings;
/** The validated configuration. */
export type Config = Readonly<{ [K in keyof Settings]: z.output<Settings[K]['schema']> }>;

/** A configuration that did not validate: one line per bad value. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'ConfigError';
  }
}

/**
 * Reads the settings from argv (`--flag value`, `--flag=value`, bare `--flag` for booleans) and env,
 * flags winning. Throws {@link ConfigError} listing every bad value and every unknown flag.
 */
export function loadConfig(argv: readonly string[], env: NodeJS.ProcessEnv = {}): Config {
  const problems: string[] = [];
  const fromFlags = parseFlags(argv, problems);
  const out: Record<string, unknown> = {};
  for (const [key, s] of Object.entries(settings) as [string, Setting][]) {
    const raw = fromFlags.get(s.flag) ?? env[s.env];
    // The library's own explanations ("Too big: expected number to be <=65535") are replaced by
    // what the setting accepts; messages a schema states itself (a file it cannot read) are kept.
    const result = s.schema.safeParse(raw, { error: () => acceptedText(key, s) });
    if (result.success) out[key] = result.data;
    else {
      const why = [...new Set(result.error.issues.map((i) => i.message))].join('; ');
      problems.push(`--${s.flag} / ${s.env}: invalid value${quoted(s, raw)}: ${why}`);
    }
  }
  readSecretFiles(fromFlags, env, out, problems);
  if (out.redisUrl !== undefined && out.stateSecret === undefined && !problems.some((p) => p.startsWith('--state-secret'))) {
    problems.push('--state-secret / STATE_SECRET: required with --redis-url: replicas store keys in Redis encrypted under it');
  }
  adminAccess(out, problems);
  loginPolicyWindow(out, problems);
  const keys = out.serviceKey as ServiceKeys | undefined;
  if (keys !== undefined && typeof out.serviceDb === 'string' && keys.keyFor(out.serviceDb) === undefined) {
    problems.push(
      `--service-db / SERVICE_DB: --service-key has no key for database ${JSON.stringify(out.serviceDb)} (add ${out.serviceDb}=<key>)`,
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(out) as Config;
}

/**
 * What Odoo refuses at login without changing the user (an enforced 2FA policy) is refused through
 * the gateway within --login-recheck-interval + --revalidate-interval: the last check that a session
 * check may stand for a login confirms the key for one more --revalidate-interval. The documented
 * cap (docs/security.md) holds for every combination of the two.
 */
function loginPolicyWindow(out: Record<string, unknown>, problems: string[]): void {
  const recheck = out.loginRecheckIntervalMs;
  const revalidate = out.revalidateIntervalMs;
  if (typeof recheck !== 'number' || typeof revalidate !== 'number' || recheck + revalidate <= maxLoginPolicyWindowMs) return;
  problems.push(
    `--login-recheck-interval / LOGIN_RECHECK_INTERVAL + --revalidate-interval / REVALIDATE_INTERVAL: ${recheck} + ${revalidate} = ${recheck + revalidate} ms, more than ${maxLoginPolicyWindowMs} (15 min): what Odoo refuses at login (an enforced 2FA policy) would keep working through the gateway that long; lower one of them`,
  );
}

/** Loopback spellings an admin port may listen on without a token. */
function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^(?:::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * The secrets given as files (`--admin-token-file`, `--state-secret-file`, ...): each file is read
 * (one trailing newline ignored) and its text validated as its setting's value would be, never
 * quoted back. A secret given both ways is refused.
 */
function readSecretFiles(
  fromFlags: Map<string, string | boolean>,
  env: NodeJS.ProcessEnv,
  out: Record<string, unknown>,
  problems: string[],
): void {
  for (const [fileKey, { key, what }] of Object.entries(secretFileForms) as [
    keyof typeof secretFileForms,
    { key: keyof typeof settings; what: string },
  ][]) {
    const file = out[fileKey] as string | undefined;
    if (file === undefined) continue;
    const fileSetting: Setting = settings[fileKey];
    const target: Setting = settings[key];
    const head = `--${fileSetting.flag} / ${fileSetting.env}`;
    if ((fromFlags.get(target.flag) ?? env[target.env]) !== undefined) {
      problems.push(`${head}: give ${what} once, as --${target.flag} or as --${fileSetting.flag}`);
      continue;
    }
    let text: string;
    try {
      text = readFileSync(file, 'utf8').replace(/\r?\n$/, '');
    } catch (err) {
      problems.push(`${head}: invalid value ${JSON.stringify(file)}: ${unreadableFileText(err)}`);
      continue;
    }
    const result = target.schema.safeParse(text, { error: () => acceptedText(key, target) });
    if (result.success) out[key] = result.data;
    else
      problems.push(
        `${head}: the file ${JSON.stringify(file)} does not hold ${what}: ${[...new Set(result.error.issues.map((i) => i.message))].join('; ')}`,
      );
  }
}

/**
 * Why a secret file could not be read; for a permission refusal, who the gateway runs as, since a
 * mounted secret keeps the host file's owner and mode (make it readable by that user or group).
 */
function unreadableFileText(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code ?? 'error';
  if (code !== 'EACCES' || typeof process.getuid !== 'function' || typeof process.getgid !== 'function')
    return `cannot read the file (${code})`;
  return `cannot read the file (EACCES): the gateway runs as uid ${process.getuid()}, gid ${process.getgid()}; give that group read access (chgrp ${process.getgid()} <file>; chmod 640 <file>)`;
}

/**
 * The refusal to open the admin port beyond loopback without a token (it shows client addresses,
 * user agents, models and methods) unless `--admin-open-without-token` accepts that.
 */
function adminAccess(out: Record<string, unknown>, problems: string[]): void {
  const file = out.adminTokenFile as string | undefined;
  const host = out.adminHost;
  if (
    typeof host === 'string' &&
    !isLoopback(host) &&
    out.adminToken === undefined &&
    file === undefined &&
    out.adminOpenWithoutToken === false &&
    !problems.some((p) => p.startsWith('--admin-token'))
  ) {
    problems.push(
      `--admin-token / ADMIN_TOKEN: required when the admin port listens beyond loopback (--admin-host ${host}): /metrics and the report show client addresses and what they call. ` +
        'Give --admin-token or --admin-token-file (a secret), listen on 127.0.0.1, or accept the risk with --admin-open-without-token',
    );
  }
}

/** The flags in `argv` (node:util's parseArgs reads them), by name; what it cannot take goes to `problems`. */
function parseFlags(argv: readonly string[], problems: string[]): Map<string, string | boolean> {
  const byFlag = new Map<string, Setting>(Object.values(settings).map((s: Setting) => [s.flag, s]));
  const options = Object.fromEntries(
    [...byFlag].map(([flag, s]) => [flag, { type: s.boolean ? ('boolean' as const) : ('string' as const) }]),
  );
  // not strict: every unknown flag and stray argument is reported, not only the first
  const { tokens } = parseArgs({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true });
  const found = new Map<string, string | boolean>();
  const reported = new Set<number>(); // argv indexes already told about (a group of short options is one argument)
  let valueOfUnknown = -1; // the argument after an unknown flag is taken as its value, not reported again
  for (const token of tokens) {
    if (token.index === valueOfUnknown && !(argv[token.index] as string).startsWith('--')) continue;
    if (token.kind !== 'option' || !token.rawName.startsWith('--')) {
      if (!reported.has(token.index)) problems.push(`unexpected argument ${JSON.stringify(argv[token.index])}`);
      reported.add(token.index);
      continue;
    }
    const setting = byFlag.get(token.name);
    if (setting === undefined) {
      problems.push(`unknown flag --${token.name} (see --help)`);
      if (!token.inlineValue) valueOfUnknown = token.index + 1;
      continue;
    }
    if (token.value !== undefined) found.set(token.name, token.value);
    else if (setting.boolean) found.set(token.name, true);
    else problems.push(`--${token.name} needs a value`);
  }
  return found;
}

/**
 * The secret settings `argv` gives as flags (`--service-key`, `--state-secret`, a Redis URL with a
 * password…): a command line is no place for them, since every local user reads it in `ps` and npm
 * echoes its script line into logs. Their environment variables and `_FILE` forms are not.
 */
export function secretsOnCommandLine(argv: readonly string[]): string[] {
  const found = parseFlags(argv, []);
  const out: string[] = [];
  for (const s of Object.values(settings) as Setting[]) {
    const raw = found.get(s.flag);
    if (typeof raw !== 'string' || s.secret === undefined || s.secret === false) continue;
    // a setting whose secret is only part of its value (a URL's password) counts when it has one
    if (typeof s.secret === 'function' && s.secret(raw) === raw) continue;
    out.push(`--${s.flag}`);
  }
  return out;
}

/** The `--help` text: every setting with its variable and default. */
export function helpText(): string {
  const lines = [
    'Usage: legacy-rpc-gateway [--flag value ...]',
    '       legacy-rpc-gateway hash-password < password   (prints the scrypt hash a --credentials-file entry needs)',
    '',
    'Every flag can also be set through the environment variable shown.',
    '',
  ];
  for (const s of Object.values(settings) as Setting[]) {
    lines.push(`  --${s.flag}${s.boolean ? '' : ' <value>'}  (${s.env}, default ${defaultText(s)})`, `      ${s.help}`);
  }
  return lines.join('\n');
}

/** A bad value as a problem quotes it: not at all for a secret, through the setting's own mask where it has one. */
function quoted(s: Setting, raw: unknown): string {
  if (s.secret === true) return '';
  if (typeof s.secret === 'function' && typeof raw === 'string') return ` ${JSON.stringify(s.secret(raw))}`;
  return ` ${JSON.stringify(raw)}`;
}

/**
 * What a setting accepts, with an example: its own `accepts`, or derived from its schema — the range
 * of a number (in milliseconds for `…Ms` settings, bytes for `…Bytes`), the choices of an enum, the
 * spellings of a boolean.
 */
export function acceptedText(key: string, s: Setting): string {
  if (s.accepts !== undefined) return s.accepts;
  const example = s.example ?? defaultText(s);
  if (s.boolean) return 'true or false (also 1/0, yes/no), e.g. true';
  const inner = innerSchema(s.schema);
  if (inner instanceof z.ZodEnum) {
    const options = inner.options.map((o) => `"${String(o)}"`);
    return `one of ${options.slice(0, -1).join(', ')} or ${options.at(-1)}`;
  }
  if (inner instanceof z.ZodNumber) {
    const min = inner.minValue ?? 0;
    const max = inner.maxValue;
    const unit = key.endsWith('Ms') ? ' of milliseconds' : key.endsWith('Bytes') ? ' of bytes' : '';
    const range = max === null || max >= Number.MAX_SAFE_INTEGER ? `from ${min} up` : `from ${min} to ${max}`;
    return `a whole number${unit} ${range}, e.g. ${example}`;
  }
  return `a non-empty value, e.g. ${example}`;
}

/** The schema under `.default()`, `.optional()` and a `.transform()`. */
function innerSchema(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodDefault || schema instanceof z.ZodOptional) return innerSchema(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodPipe) return innerSchema(schema.in as z.ZodType);
  return schema;
}

/** A setting's default as `--help` prints it. */
function defaultText(s: Setting): string {
  const parsed = s.schema.safeParse(undefined);
  if (!parsed.success || parsed.data === undefined) return 'none';
  return Array.isArray(parsed.data) ? parsed.data.join(',') : String(parsed.data);
}
