import { describe, expect, it } from 'vitest';
import { compareBreaks, createBreaksTable, createVerdicts, methodsNamedPerBreak, seriesText } from './verdicts.ts';
import { changedMethods, removedModels, removedServices } from '../odoo-timeline.ts';

// what src/successors/ serves in this tree (src/server/gateway.ts passes successorMethodNames)
const gateway = createVerdicts({ successorMethods: ['read_group', 'toggle_active', 'get_currencies', 'check_access_rights'] });
const object = (model: string, modelMethod: string) => ({ service: 'object', method: 'execute_kw', model, modelMethod });
const dbList = { service: 'db', method: 'list' };
const readGroup = object('res.partner', 'read_group');
const ruleRead = object('ir.rule', 'search_read');
const copyTranslations = object('res.partner', 'copy_translations');
const searchRead = object('res.partner', 'search_read');

describe('a method’s dated verdict', () => {
  it('db.list: natively gone in Odoo 20.0 and Online saas-19.1, served by the gateway over the database manager', () => {
    const v = gateway.of(dbList);
    expect(v.removals).toEqual([
      {
        what: 'service',
        name: 'db',
        kind: 'removed',
        onPremise: '20.0',
        online: 'saas-19.1',
        source: removedServices.db?.source,
        gatewayServes: true,
        through: '/web/database/*',
        text: 'the db service is gone in Odoo 20.0 and Online saas-19.1',
      },
    ]);
    expect(v.native).toEqual({ onPremise: '20.0', online: 'saas-19.1' });
    expect(v.gateway).toBeUndefined();
    expect(v.line).toBe('natively gone in Odoo 20.0 and Online saas-19.1; the gateway serves it there over /web/database/*');
  });

  it('res.partner.read_group: the method’s removal comes before the object service’s, and the gateway serves it through its successor', () => {
    const v = gateway.of(readGroup);
    expect(v.removals.map((r) => [r.what, r.name, r.onPremise, r.online, r.gatewayServes, r.through])).toEqual([
      ['method', 'read_group', '20.0', 'saas-19.1', true, 'formatted_read_group'],
      ['service', 'object', '22.0', 'saas-21.1', true, undefined],
    ]);
    expect(v.removals[0]).toMatchObject({
      kind: 'redefined',
      replacement: 'formatted_read_group',
      source: changedMethods.read_group?.source,
    });
    expect(v.removals[0]?.text).toBe(
      'read_group was removed in Odoo 20.0 and Online saas-19.1, and Odoo 20.0 reuses the name for another method: use formatted_read_group',
    );
    expect(v.line).toBe('natively gone in Odoo 20.0 and Online saas-19.1; the gateway serves it there through formatted_read_group');
  });

  it('without the successor (--successors off) read_group breaks through the gateway too', () => {
    const v = createVerdicts({ successorMethods: [] }).of(readGroup);
    expect(v.gateway).toEqual({ onPremise: '20.0', online: 'saas-19.1' });
    expect(v.line).toBe(
      'natively gone in Odoo 20.0 and Online saas-19.1; it breaks through the gateway too (read_group was removed in Odoo 20.0 and Online saas-19.1, and Odoo 20.0 reuses the name for another method: use formatted_read_group)',
    );
  });

  it('ir.rule.search_read and ir.model.access.read: gone in Odoo 20.0 (no Online date), not served: the model became ir.access', () => {
    const v = gateway.of(ruleRead);
    expect(v.removals[0]).toMatchObject({
      what: 'model',
      name: 'ir.rule',
      onPremise: '20.0',
      replacement: 'ir.access',
      source: removedModels['ir.rule']?.source,
      gatewayServes: false,
    });
    expect(v.removals[0]).not.toHaveProperty('online');
    expect(v.native).toEqual({ onPremise: '20.0' });
    expect(v.gateway).toEqual({ onPremise: '20.0' });
    expect(v.line).toBe('natively gone in Odoo 20.0; it breaks through the gateway too (ir.rule was replaced by ir.access in Odoo 20.0)');
    expect(gateway.of(object('ir.model.access', 'read')).gatewayText).toBe(
      'it breaks through the gateway too (ir.model.access was replaced by ir.access in Odoo 20.0)',
    );
  });

  it('copy_translations has no successor: it breaks through the gateway too', () => {
    const v = gateway.of(copyTranslations);
    expect(v.removals[0]).toMatchObject({ what: 'method', name: 'copy_translations', gatewayServes: false, replacement: 'copy' });
    expect(v.line).toBe(
      'natively gone in Odoo 20.0 and Online saas-19.1; it breaks through the gateway too (copy_translations was removed in Odoo 20.0 and Online saas-19.1: use copy)',
    );
  });

  it('a served method on a removed model still breaks: the model decides', () => {
    const v = gateway.of(object('ir.rule', 'toggle_active'));
    expect(v.removals.map((r) => [r.name, r.gatewayServes])).toEqual([
      ['toggle_active', true],
      ['ir.rule', false],
      ['object', true],
    ]);
    expect(v.native).toEqual({ onPremise: '20.0', online: 'saas-19.1' });
    expect(v.gateway).toEqual({ onPremise: '20.0' });
  });

  it('search_read and common.version: only their service’s removal, which the gateway serves', () => {
    expect(gateway.of(searchRead).line).toBe('natively gone in Odoo 22.0 and Online saas-21.1; the gateway serves it there');
    expect(gateway.of({ service: 'common', method: 'version' }).removals.map((r) => r.name)).toEqual(['common']);
    // a model-bound successor counts on its model only, and get_currencies has no dated removal
    expect(gateway.of(object('ir.http', 'get_currencies')).removals.map((r) => r.name)).toEqual(['object']);
  });

  it('a service Odoo never had gets no date', () => {
    const v = gateway.of({ service: 'other', method: 'x' });
    expect(v).toEqual({ removals: [], line: 'no dated removal concerns it' });
  });

  it('is made once per method name', () => {
    const verdicts = createVerdicts();
    expect(verdicts.of(object('res.partner', 'read_group'))).toBe(verdicts.of(object('res.partner', 'read_group')));
    expect(verdicts.of(object('res.partner', 'read_group'))).not.toBe(verdicts.of(object('sale.order', 'read_group')));
  });
});

describe('a client’s dated verdict', () => {
  it('db.list, read_group, ir.rule.search_read, copy_translations: breaks natively on 20.0, and on 20.0 even through the gateway', () => {
    const v = gateway.client([searchRead, dbList, readGroup, ruleRead, copyTranslations]);
    expect(v.native).toEqual({
      onPremise: '20.0',
      online: 'saas-19.1',
      methods: ['db.list', 'res.partner.read_group', 'ir.rule.search_read', 'res.partner.copy_translations'],
      methodCount: 4,
    });
    expect(v.gateway).toEqual({
      onPremise: '20.0',
      online: 'saas-19.1',
      methods: ['ir.rule.search_read', 'res.partner.copy_translations'],
      methodCount: 2,
    });
    expect(v.line).toBe(
      'Breaks natively on Odoo 20.0 / Online saas-19.1 (db.list, res.partner.read_group, ir.rule.search_read, res.partner.copy_translations); ' +
        'breaks on Odoo 20.0 / Online saas-19.1 even through the gateway: ir.rule.search_read (ir.rule was replaced by ir.access in Odoo 20.0), ' +
        'res.partner.copy_translations (copy_translations was removed in Odoo 20.0 and Online saas-19.1: use copy).',
    );
  });

  it('a client of ir.rule alone breaks on Odoo 20.0, with no Online date claimed', () => {
    expect(gateway.client([searchRead, ruleRead]).line).toBe(
      'Breaks natively on Odoo 20.0 (ir.rule.search_read); breaks on Odoo 20.0 even through the gateway: ir.rule.search_read (ir.rule was replaced by ir.access in Odoo 20.0).',
    );
  });

  it('db.list and read_group: breaks natively on 20.0, works there through the gateway', () => {
    const v = gateway.client([dbList, readGroup]);
    expect(v.gateway).toBeUndefined();
    expect(v.line).toBe(
      'Breaks natively on Odoo 20.0 / Online saas-19.1 (db.list, res.partner.read_group); through the gateway: works on Odoo 20.0 / Online saas-19.1 and later (res.partner.read_group through formatted_read_group).',
    );
  });

  it('search_read alone: works natively until Odoo 22.0 / Online saas-21.1, the gateway serves it after', () => {
    const v = gateway.client([searchRead, { service: 'common', method: 'login' }]);
    expect(v).toEqual({
      native: { onPremise: '22.0', online: 'saas-21.1', methods: ['res.partner.search_read', 'common.login'], methodCount: 2 },
      line: 'Works natively until Odoo 22.0 / Online saas-21.1; the gateway serves it after.',
    });
  });

  it('db alone: works natively until Odoo 20.0 / Online saas-19.1', () => {
    expect(gateway.client([dbList, { service: 'db', method: 'server_version' }]).line).toBe(
      'Works natively until Odoo 20.0 / Online saas-19.1; the gateway serves it after.',
    );
  });

  it('takes the earliest series whatever the order of the methods', () => {
    expect(gateway.client([readGroup, searchRead]).native?.methods).toEqual(['res.partner.read_group']);
    expect(gateway.client([searchRead, readGroup]).native?.methods).toEqual(['res.partner.read_group']);
  });

  it(`names ${methodsNamedPerBreak} methods per series and counts the others`, () => {
    const methods = Array.from({ length: 8 }, (_, i) => object(`x.model${i}`, 'copy_translations'));
    const v = gateway.client(methods);
    expect(v.native?.methods).toHaveLength(methodsNamedPerBreak);
    expect(v.native?.methodCount).toBe(8);
    expect(v.line).toMatch(/\(x\.model0\.copy_translations, .*, x\.model4\.copy_translations and 3 more\);/);
    // the gateway's half names each cause once, after the methods it concerns
    expect(v.line).toMatch(
      /even through the gateway: x\.model0\.copy_translations, .*, x\.model4\.copy_translations \(copy_translations was removed in Odoo 20\.0 and Online saas-19\.1: use copy\) and 3 more\.$/,
    );
  });

  it('says so when nothing is dated', () => {
    expect(gateway.client([{ service: 'other', method: 'x' }])).toEqual({ line: 'No dated removal concerns its calls.' });
    expect(gateway.client([])).toEqual({ line: 'No dated removal concerns its calls.' });
  });
});

describe('the fleet-wide summary', () => {
  it('counts per series the clients that break there, naming those that break even through the gateway', () => {
    const table = createBreaksTable();
    table.add('sync', gateway.client([searchRead]));
    table.add('rules', gateway.client([ruleRead]));
    table.add('backup', gateway.client([dbList]));
    table.add('nothing', gateway.client([{ service: 'other', method: 'x' }]));
    expect(table.rows()).toEqual([
      { onPremise: '20.0', online: 'saas-19.1', natively: 2, throughGateway: 1, clients: ['rules'] },
      { onPremise: '22.0', online: 'saas-21.1', natively: 1, throughGateway: 0, clients: [] },
    ]);
  });
});

describe('series', () => {
  it('orders breaks by major, then Online series, an undated one after', () => {
    expect(compareBreaks({ onPremise: '20.0' }, { onPremise: '22.0', online: 'saas-21.1' })).toBeLessThan(0);
    expect(compareBreaks({ onPremise: '20.0', online: 'saas-19.1' }, { onPremise: '20.0' })).toBeLessThan(0);
    expect(compareBreaks({ onPremise: '20.0' }, { onPremise: '20.0' })).toBe(0);
    expect(seriesText({ onPremise: '20.0', online: 'saas-19.1' })).toBe('Odoo 20.0 / Online saas-19.1');
    expect(seriesText({ onPremise: '20.0' })).toBe('Odoo 20.0');
  });
});
