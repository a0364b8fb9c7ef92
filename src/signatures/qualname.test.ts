import { describe, expect, it } from 'vitest';
import { classNameFromModel, qualnameFromModel } from './qualname.ts';

describe('classNameFromModel()', () => {
  it.each([
    ['res.partner', 'ResPartner'],
    ['res.users.apikeys.description', 'ResUsersApikeysDescription'],
    ['sale.order.line', 'SaleOrderLine'],
    ['x_custom.model', 'XCustomModel'],
    ['mail.thread', 'MailThread'],
    ['core', 'BaseModel'],
    ['base', 'Base'],
  ])('names the class of %s %s', (model, name) => {
    expect(classNameFromModel(model)).toBe(name);
  });
});

describe('qualnameFromModel()', () => {
  it('joins the class and the method as __qualname__ does', () => {
    expect(qualnameFromModel('res.partner', 'action_gateway_demo')).toBe('ResPartner.action_gateway_demo');
    expect(qualnameFromModel('core', 'search')).toBe('BaseModel.search');
  });
});
