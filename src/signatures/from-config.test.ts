import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import { parseJson } from '../json/index.ts';
import { createLogger } from '../log.ts';
import type { DocBearerAnswer, DocBearerRequest, Upstream } from '../upstream/index.ts';
import { createSignatureResolverFromConfig } from './from-config.ts';
import type { MethodSignature } from './signature.ts';
import { testCallOrigin } from '../../test/support/call-origin.ts';

const key = '0123456789abcdef0123456789abcdef01234567';
const dir = mkdtempSync(join(tmpdir(), 'gw-from-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A pino logger whose JSON lines land in `lines`. */
function capturedLog() {
  const lines: Record<string, unknown>[] = [];
  const out = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { log: createLogger('debug', out), lines, messages: () => lines.map((l) => l.msg) };
}

function upstreamAnswering(doc: object): Pick<Upstream, 'docBearer'> & { docBearer: ReturnType<typeof vi.fn> } {
  const answer: DocBearerAnswer = { status: 'modified', etag: '"e"', body: parseJson(JSON.stringify(doc)) };
  return { docBearer: vi.fn(async (_req: DocBearerRequest) => answer) };
}

const demoDoc = {
  model: 'res.partner',
  methods: { action_gateway_demo: { parameters: { note: {}, flag: { default: false } }, model: 'res.partner' } },
};

describe('createSignatureResolverFromConfig()', () => {
  it("without a service key, discovers with the caller's own key (never without one), and says so once at start", async () => {
    const upstream = upstreamAnswering(demoDoc);
    const { log, lines, messages } = capturedLog();
    const resolver = createSignatureResolverFromConfig(loadConfig([], {}), upstream, log);
    await expect(resolver.resolve('gw', 'res.partner', 'search')).resolves.toMatchObject({ source: 'builtin' });
    await expect(resolver.resolve('gw', 'res.partner', 'action_gateway_demo')).resolves.toBeUndefined();
    expect(upstream.docBearer).not.toHaveBeenCalled();
    const callerKey = 'c'.repeat(40);
    await expect(resolver.resolve('gw', 'res.partner', 'action_gateway_demo', undefined, callerKey)).resolves.toMatchObject({
      source: 'discovered',
    });
    expect(upstream.docBearer).toHaveBeenCalledWith(
      { db: 'gw', key: callerKey, model: 'res.partner', etag: undefined },
      expect.objectContaining({ host: '' }),
    );
    expect(messages()).toEqual([
      "signature discovery through /doc-bearer is on with each caller's own key (no --service-key)",
      'signature discovery is on for this database',
    ]);
    expect(JSON.stringify(lines)).not.toContain(callerKey);
  });

  it("uses each database's own service key, and the caller's key where the database has none", async () => {
    const upstream = upstreamAnswering(demoDoc);
    const other = 'e'.repeat(40);
    const resolver = createSignatureResolverFromConfig(
      loadConfig(['--service-key', `gw=${key},gw2=${other}`], {}),
      upstream,
      capturedLog().log,
    );
    const callerKey = 'c'.repeat(40);
    for (const db of ['gw', 'gw2', 'gw3']) await resolver.resolve(db, 'res.partner', 'action_gateway_demo', undefined, callerKey);
    expect(upstream.docBearer.mock.calls.map(([req]) => [(req as DocBearerRequest).db, (req as DocBearerRequest).key])).toEqual([
      ['gw', key],
      ['gw2', other],
      ['gw3', callerKey],
    ]);
  });

  it('tells a model the built-in table knows from one it has never seen', () => {
    const resolver = createSignatureResolverFromConfig(loadConfig([], {}), upstreamAnswering(demoDoc), capturedLog().log);
    expect(resolver.knowsModel('ir.model.data')).toBe(true);
    expect(resolver.knowsModel('x_custom.model')).toBe(false);
  });

  it('discovers with the service key, and never logs it', async () => {
    const upstream = upstreamAnswering(demoDoc);
    const { log, lines, messages } = capturedLog();
    const resolver = createSignatureResolverFromConfig(loadConfig(['--service-key', key, '--signature-ttl', '1000'], {}), upstream, log);
    await expect(resolver.resolve('gw', 'res.partner', 'action_gateway_demo')).resolves.toMatchObject({
      qualname: 'ResPartner.action_gateway_demo',
      source: 'discovered',
    });
    expect(upstream.docBearer).toHaveBeenCalledWith(
      { db: 'gw', key, model: 'res.partner', etag: undefined },
      expect.objectContaining({ host: '' }),
    );
    expect(messages()).toEqual([
      "signature discovery through /doc-bearer is on: the database's service key, else each caller's own key",
      'signature discovery is on for this database',
    ]);
    expect(lines[0]).toMatchObject({ ttlMs: 1000 });
    expect(JSON.stringify(lines)).not.toContain(key);
  });

  it("gives discovery its own deadline but the calling client's Host", async () => {
    const upstream = upstreamAnswering(demoDoc);
    const resolver = createSignatureResolverFromConfig(loadConfig(['--service-key', key], {}), upstream, capturedLog().log);
    const client = new AbortController();
    const origin = testCallOrigin({
      host: 'erp.example.com',
      ip: '10.1.1.1',
      proto: 'https',
      userAgent: 'py',
      requestId: 'r9',
      signal: client.signal,
    });
    await resolver.resolve('gw', 'res.partner', 'action_gateway_demo', origin);
    const sent = upstream.docBearer.mock.calls[0]![1] as typeof origin;
    expect(sent).toMatchObject({ host: 'erp.example.com', ip: '10.1.1.1', requestId: 'r9' });
    expect(sent.signal).not.toBe(client.signal);
  });

  it('puts the signatures file first: it wins over discovery and the table', async () => {
    const path = join(dir, 'sigs.yaml');
    writeFileSync(
      path,
      'res.partner:\n  action_gateway_demo: {level: model, parameters: {text: {}}}\n  search: {level: model, parameters: {domain: {}}}\n',
    );
    const upstream = upstreamAnswering(demoDoc);
    const { log, lines } = capturedLog();
    const resolver = createSignatureResolverFromConfig(loadConfig(['--service-key', key, '--signatures-file', path], {}), upstream, log);
    for (const method of ['action_gateway_demo', 'search']) {
      await expect(resolver.resolve('gw', 'res.partner', method)).resolves.toMatchObject({ source: 'override' });
    }
    expect(
      ((await resolver.resolve('gw', 'res.partner', 'action_gateway_demo')) as MethodSignature | undefined)?.params.map((p) => p.name),
    ).toEqual(['text']);
    expect(upstream.docBearer).not.toHaveBeenCalled();
    expect(lines[0]).toMatchObject({ msg: 'signatures file loaded', file: path, models: 1, methods: 2 });
  });

  it('refuses to build with a signatures file that does not validate', () => {
    const path = join(dir, 'bad.json');
    writeFileSync(path, '{"res.partner": {"_x": {"level": "record"}}}');
    expect(() =>
      createSignatureResolverFromConfig(loadConfig(['--signatures-file', path], {}), upstreamAnswering({}), capturedLog().log),
    ).toThrow(ConfigError);
  });
});
