import { describe, expect, it } from 'vitest';
import {
  changedMethods,
  compareSeries,
  methodChangeOf,
  parseSeries,
  removalText,
  removedModels,
  removedServices,
  seriesHas,
} from './odoo-timeline.ts';

describe('odoo-timeline', () => {
  it('orders series as Odoo releases them', () => {
    const order = ['18.0', 'saas-18.4', '19.0', 'saas~19.1', 'saas-19.2', '20.0', 'saas-21.1', '22.0'];
    for (let i = 0; i + 1 < order.length; i++) expect(compareSeries(order[i] as string, order[i + 1] as string)).toBeLessThan(0);
    expect(compareSeries('20.0', '20.0')).toBe(0);
    expect(compareSeries('20.0', 'master')).toBeUndefined();
    expect(parseSeries('saas~19.1')).toEqual([19, 1, true]);
    expect(parseSeries('19.0+e')).toBeUndefined();
  });

  it('says which series already lack a removed service, method or model', () => {
    const db = removedServices.db as NonNullable<(typeof removedServices)['db']>;
    expect(seriesHas('19.0', db)).toBe(false);
    expect(seriesHas('saas-19.1', db)).toBe(true);
    expect(seriesHas('20.0', db)).toBe(true);
    const object = removedServices.object as NonNullable<(typeof removedServices)['object']>;
    expect(seriesHas('21.0', object)).toBe(false);
    expect(seriesHas('saas-21.1', object)).toBe(true);
    const rule = removedModels['ir.rule'] as NonNullable<(typeof removedModels)['ir.rule']>;
    expect(seriesHas('saas-19.4', rule)).toBe(false);
    expect(seriesHas('20.0', rule)).toBe(true);
    expect(seriesHas('unknown', rule)).toBe(false);
    expect(removalText(db)).toBe('Odoo 20.0 and Online saas-19.1');
    expect(removalText(rule)).toBe('Odoo 20.0');
  });

  it('finds a BaseModel change on any model, a model-bound one only on its model', () => {
    expect(methodChangeOf('res.partner', 'read_group')).toBe(changedMethods.read_group);
    expect(methodChangeOf('res.partner', 'search_read')).toBeUndefined();
    expect(methodChangeOf('res.partner', 'constructor')).toBeUndefined();
  });
});
