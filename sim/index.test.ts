/**
 * The simulator's public surface: options, users and keys per database, the request log, synthetic
 * partners, the not-modelled list and the CLI's argument parsing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Struct, Value } from '../src/value.ts';
import { notModelled, type Simulator, startSimulator } from './index.ts';
import { optionsFromArgs } from './main.ts';
import { json2, rawCall } from './test-support.ts';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ databases: ['one', 'two'], generatedPartners: 250 });
});
afterAll(() => sim.close());

describe('startSimulator()', () => {
  it('listens on a free loopback port', () => {
    expect(sim.port).toBeGreaterThan(0);
    expect(sim.url).toBe(`http://127.0.0.1:${sim.port}`);
    expect(sim.databases()).toEqual(['one', 'two']);
  });

  it.each([
    [{ databases: [] }, /at least one/],
    [{ databases: ['a', 'a'] }, /repeat/],
    [{ generatedPartners: -1 }, /non-negative/],
    [{ port: 70000 }, /0\.\.65535/],
  ])('rejects bad options %j', async (opts, message) => {
    await expect(startSimulator(opts)).rejects.toThrow(message);
  });

  it('gives the same users and keys in every database', () => {
    expect(sim.users('two')).toEqual(sim.users('one'));
    expect(sim.keyFor('two', 'demo')).toBe(sim.keyFor('one', 'demo'));
    expect(() => sim.keyFor('one', 'nobody')).toThrow(/nobody/);
    expect(() => sim.users('three')).toThrow(/unknown database/);
  });

  it('adds synthetic partners for benchmarks', async () => {
    const a = await json2(sim, 'res.partner', 'search_count', new Map([['domain', []]]), { key: sim.keyFor('one', 'admin'), db: 'one' });
    expect(a.text).toBe(String(39 + 250));
    const named = await json2(
      sim,
      'res.partner',
      'search_read',
      new Map<string, Value>([
        ['domain', [['name', '=like', 'Generated Partner%']]],
        ['fields', ['email']],
        ['limit', 1],
        ['order', 'id'],
      ]),
      {
        key: sim.keyFor('one', 'admin'),
        db: 'one',
      },
    );
    expect(named.text).toMatch(/^\[\{"id": \d+, "email": "generated00001@example\.com"\}\]$/);
  });
});

describe('request log', () => {
  it('records method, raw path, lower-cased headers and body', async () => {
    sim.clearLog();
    await rawCall(sim, '/json/2/res.users/context_get?x=1', {
      key: sim.keyFor('one', 'admin'),
      db: 'one',
      body: '{}',
      headers: { 'X-Custom-Header': 'Yes' },
    });
    await rawCall(sim, '/web/version', { method: 'GET' });
    expect(sim.log.length).toBe(2);
    const [first, second] = sim.log;
    expect(first?.method).toBe('POST');
    expect(first?.path).toBe('/json/2/res.users/context_get?x=1');
    expect(first?.headers['x-custom-header']).toBe('Yes');
    expect(first?.headers.authorization).toBe(`bearer ${sim.keyFor('one', 'admin')}`);
    expect(first?.headers['x-odoo-database']).toBe('one');
    expect(first?.body).toBe('{}');
    expect(second).toMatchObject({ method: 'GET', path: '/web/version', body: '' });
    sim.clearLog();
    expect(sim.log).toEqual([]);
  });
});

describe('notModelled()', () => {
  it('lists topics with reasons and every table method without an implementation', () => {
    const list = notModelled();
    for (const entry of list) expect(entry.reason.length).toBeGreaterThan(10);
    const topics = list.map((e) => e.topic);
    expect(topics).toContain('translations');
    expect(topics).toContain('method message_post');
    expect(topics).not.toContain('method search_read');
  });

  it('answers NotImplementedError for every listed method', async () => {
    const a = await json2(sim, 'res.partner', 'get_metadata', new Map([['ids', [9]]]), { key: sim.keyFor('one', 'admin'), db: 'one' });
    expect(a.status).toBe(500);
    expect((a.value as Struct).get('name')).toBe('builtins.NotImplementedError');
  });
});

describe('optionsFromArgs()', () => {
  it('parses the CLI flags', () => {
    expect(optionsFromArgs(['--port', '8069', '--databases', 'a, b', '--generated-partners', '1000'])).toEqual({
      port: 8069,
      databases: ['a', 'b'],
      generatedPartners: 1000,
    });
  });

  it('serves the legacy endpoints when asked (shadow-mode benchmarks)', () => {
    expect(optionsFromArgs(['--legacy-endpoints'])).toEqual({ legacyEndpoints: true });
    expect(optionsFromArgs([])).toEqual({});
  });

  it('takes the generated filestore bytes of every backup', () => {
    expect(optionsFromArgs(['--backup-padding', '1073741824'])).toEqual({ databaseManager: { backupPadding: 1_073_741_824 } });
  });

  it.each([[['--port', 'x']], [['--generated-partners', '-3']], [['--backup-padding', '1e9']], [['--bogus']]])('rejects %j', (argv) => {
    expect(() => optionsFromArgs(argv)).toThrow();
  });
});
