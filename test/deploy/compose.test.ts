/**
 * The compose examples in deploy/ (shown in docs/deployment.md) keep data and secrets: parsed with
 * the yaml package and checked for volumes on PostgreSQL and Odoo's filestore, restart policies,
 * healthchecks behind every `depends_on` condition, secrets as files readable by the gateway's
 * user, gateway variables the gateway knows, and a service key the gateway cannot start without (so
 * its password logins leave Odoo's web.base.url as it is, docs/first-run.md). When a Compose CLI is installed (docker-compose or
 * `docker compose`), `config -q` validates them against the Compose schema too.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ConfigError, loadConfig, secretFileForms, settings } from '../../src/config.ts';

interface Service {
  image?: string;
  build?: unknown;
  restart?: string;
  environment?: Record<string, string>;
  secrets?: (string | { source: string; target?: string; uid?: string; gid?: string; mode?: number })[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: { test: string[] };
}
interface ComposeFile {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
  secrets?: Record<string, { file: string }>;
}

const deploy = new URL('../../deploy/', import.meta.url);
const files = ['compose.yaml', 'compose.replicas.yaml'] as const;
// YAML 1.1 as Compose reads it: `mode: 0440` is octal
const load = (name: string) => parse(readFileSync(new URL(name, deploy), 'utf8'), { version: '1.1' }) as ComposeFile;

/** Variables the gateway reads besides its settings: Node's own and OpenTelemetry's. */
const otherGatewayVariables = /^(NODE_[A-Z_]+|OTEL_[A-Z_]+)$/;
/** Variables that would hold a secret in plain environment. */
const secretValues = new Set([...Object.values(secretFileForms).map((f) => settings[f.key].env), 'POSTGRES_PASSWORD', 'PASSWORD']);
const gatewayEnvs = new Set(Object.values(settings).map((s) => s.env));

describe.each(files)('deploy/%s', (name) => {
  const compose = load(name);
  const services = Object.entries(compose.services);
  const secretName = (s: NonNullable<Service['secrets']>[number]) => (typeof s === 'string' ? s : s.source);

  it('restarts every service and checks its health', () => {
    for (const [service, def] of services) {
      expect(def.restart, service).toBe('unless-stopped');
      expect(def.healthcheck?.test.length ?? 0, service).toBeGreaterThan(0);
    }
  });

  it('starts each service once what it depends on is healthy', () => {
    for (const [service, def] of services) {
      expect(Array.isArray(def.depends_on), `${service}: depends_on without conditions`).toBe(false);
      for (const [dependency, { condition }] of Object.entries(def.depends_on ?? {})) {
        expect(condition, `${service} → ${dependency}`).toBe('service_healthy');
        expect(compose.services[dependency]?.healthcheck, `${dependency} has no healthcheck`).toBeDefined();
      }
    }
    expect(Object.keys((compose.services.gateway?.depends_on ?? {}) as object)).toContain('odoo');
    expect(Object.keys((compose.services.odoo?.depends_on ?? {}) as object)).toContain('db');
  });

  it("keeps PostgreSQL's data and Odoo's filestore in named volumes", () => {
    const named = Object.keys(compose.volumes ?? {});
    const volumeOn = (service: string, path: string) =>
      compose.services[service]?.volumes?.find((v) => v.split(':')[1] === path)?.split(':')[0];
    const pg = volumeOn('db', '/var/lib/postgresql/data');
    const filestore = volumeOn('odoo', '/var/lib/odoo');
    expect(pg !== undefined && named.includes(pg)).toBe(true);
    expect(filestore !== undefined && named.includes(filestore)).toBe(true);
  });

  it('gives secrets as files only: no secret in the environment, each _FILE a declared secret readable by the gateway user', () => {
    for (const [service, def] of services) {
      const env = def.environment ?? {};
      for (const key of Object.keys(env)) expect(secretValues.has(key), `${service}: ${key} in plain environment`).toBe(false);
      for (const [key, value] of Object.entries(env).filter(([k]) => k.endsWith('_FILE'))) {
        const secret = /^\/run\/secrets\/([\w.-]+)$/.exec(value)?.[1];
        expect(secret, `${service}: ${key}`).toBeDefined();
        expect((def.secrets ?? []).map(secretName), `${service}: ${key}`).toContain(secret);
        expect(compose.secrets?.[secret!]?.file, `secret ${secret}`).toMatch(/^\.\/secrets\//);
      }
    }
    const gateway = compose.services.gateway!;
    expect(gateway.environment?.ADMIN_TOKEN_FILE).toBe('/run/secrets/admin_token');
    for (const secret of gateway.secrets ?? []) {
      // the image runs as node (uid and gid 1000)
      expect(secret, 'gateway secrets in long form').toMatchObject({ uid: '1000', gid: '1000', mode: 0o440 });
    }
  });

  it('gives the gateway a service key: its logins leave web.base.url as it is and uid-only calls find their login', () => {
    const gateway = compose.services.gateway!;
    expect(gateway.environment?.SERVICE_KEY_FILE).toBe('/run/secrets/service_key');
    expect((gateway.secrets ?? []).map(secretName)).toContain('service_key');
    expect(compose.secrets?.service_key?.file).toBe('./secrets/service_key');
  });

  it("makes every secret's file in the steps its header gives", () => {
    const header = readFileSync(new URL(name, deploy), 'utf8').split('\nservices:')[0]!;
    for (const secret of Object.keys(compose.secrets ?? {})) expect(header, secret).toMatch(new RegExp(`(>|touch) secrets/${secret}\\b`));
  });

  it('the gateway refuses to start with its environment here while the service key file is missing, empty or holds no key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'compose-secrets-'));
    try {
      const env = Object.fromEntries(
        Object.entries(compose.services.gateway?.environment ?? {}).map(([k, v]) => [k, v.replace(/^\/run\/secrets\//, `${dir}/`)]),
      );
      writeFileSync(join(dir, 'admin_token'), `${'ab'.repeat(24)}\n`);
      writeFileSync(join(dir, 'state_secret'), `${Buffer.alloc(32, 7).toString('base64')}\n`);
      writeFileSync(join(dir, 'redis_url'), 'redis://:pw@redis:6379/0\n');
      const start = () => loadConfig([], env);
      expect(start, 'no file').toThrow(ConfigError);
      for (const text of ['', '\n', 'erp=\n', 'erp=not-a-key\n']) {
        writeFileSync(join(dir, 'service_key'), text);
        expect(start, JSON.stringify(text)).toThrow(ConfigError);
      }
      writeFileSync(join(dir, 'service_key'), `erp=${'0123456789'.repeat(4)}\n`);
      expect(start().serviceKey?.databases).toEqual(['erp']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('sets only variables the gateway knows', () => {
    for (const key of Object.keys(compose.services.gateway?.environment ?? {})) {
      expect(gatewayEnvs.has(key) || otherGatewayVariables.test(key), key).toBe(true);
    }
  });

  const cli = composeCli();
  it.runIf(cli !== undefined)('passes the Compose CLI validation (config -q)', () => {
    const [command, ...args] = cli!;
    expect(() =>
      execFileSync(command!, [...args, '-f', new URL(name, deploy).pathname, 'config', '-q'], { stdio: 'pipe', timeout: 60_000 }),
    ).not.toThrow();
  });
});

describe('docs/deployment.md', () => {
  it('shows every deploy file as it is', () => {
    const doc = readFileSync(new URL('../../docs/deployment.md', import.meta.url), 'utf8');
    for (const name of [...files, 'nginx.conf']) expect(doc, name).toContain(readFileSync(new URL(name, deploy), 'utf8'));
  });
});

describe('deploy/compose.replicas.yaml', () => {
  const compose = load('compose.replicas.yaml');

  it('shares one Redis and one state secret between the replicas, behind nginx', () => {
    const gateway = compose.services.gateway!;
    expect(gateway.environment).toMatchObject({ REDIS_URL_FILE: '/run/secrets/redis_url', STATE_SECRET_FILE: '/run/secrets/state_secret' });
    expect(Object.keys(gateway.depends_on as object)).toEqual(expect.arrayContaining(['odoo', 'redis']));
    const lb = compose.services.lb!;
    expect(lb.volumes).toContain('./nginx.conf:/etc/nginx/conf.d/default.conf:ro');
    const nginx = readFileSync(new URL('nginx.conf', deploy), 'utf8');
    expect(nginx).toMatch(/server gateway:8070;/);
    expect(nginx).toMatch(/proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;/);
  });
});

/** docker-compose, or `docker compose` when the plugin answers; `undefined` when neither does. */
function composeCli(): string[] | undefined {
  for (const candidate of [['docker-compose'], ['docker', 'compose']]) {
    try {
      execFileSync(candidate[0]!, [...candidate.slice(1), 'version'], { stdio: 'pipe', timeout: 30_000 });
      return candidate;
    } catch {
      // not installed
    }
  }
  return undefined;
}
