/**
 * Odoo 19's constraints on the seeded models, over JSON-2: SQL CHECK and UNIQUE
 * constraints as "The operation cannot be completed: …" ValidationErrors, `@api.constrains` methods
 * and overridden writes with their own exceptions. The texts are Odoo 19's (the sources, and the
 * same calls answered by a real Odoo 19.0 over /xmlrpc/2 in English); a refused write leaves nothing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseJson } from '../../src/json/index.ts';
import { PyFloat, type Value } from '../../src/value.ts';
import { type Simulator, startSimulator } from '../index.ts';
import { json2 } from '../test-support.ts';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
beforeEach(() => sim.reset());
afterAll(() => sim.close());

/** The JSON-2 answer: status, and the error's class and message (or the result). */
async function call(
  model: string,
  method: string,
  json: string,
): Promise<{ status: number; name?: string; message?: string; value?: Value }> {
  const a = await json2(sim, model, method, parseJson(json), { key: sim.keyFor('demo', 'admin') });
  if (a.status === 200) return { status: 200, value: a.value as Value };
  const body = a.value as Map<string, Value>;
  return { status: a.status, name: String(body.get('name')), message: String(body.get('message')) };
}

const refused = (status: number, cls: string, message: string) => ({ status, name: `${cls}`, message });
const validation = (message: string) => refused(422, 'odoo.exceptions.ValidationError', message);
const sqlConstraint = (message: string) => validation(`The operation cannot be completed: ${message}`);
const userError = (message: string) => refused(422, 'odoo.exceptions.UserError', message);

async function count(model: string, domain: string): Promise<Value | undefined> {
  return (await call(model, 'search_count', `{"domain": ${domain}, "context": {"active_test": false}}`)).value;
}

describe('res.partner', () => {
  it('refuses a contact without a name (CHECK _check_name), on create and write, and creates nothing', async () => {
    const before = await count('res.partner', '[]');
    expect(await call('res.partner', 'create', '{"vals_list": [{"name": false}]}')).toEqual(sqlConstraint('Contacts require a name'));
    expect(await call('res.partner', 'create', '{"vals_list": [{"email": "nameless@example.com"}]}')).toEqual(
      sqlConstraint('Contacts require a name'),
    );
    expect(await call('res.partner', 'create', '{"vals_list": [{"name": "Named"}, {"email": "second@example.com"}]}')).toEqual(
      sqlConstraint('Contacts require a name'),
    );
    expect(await count('res.partner', '[]')).toBe(before);
    expect(await call('res.partner', 'write', '{"ids": [9], "vals": {"name": false}}')).toEqual(sqlConstraint('Contacts require a name'));
  });

  it('lets an address of another type, an empty name and a NULL type do without a name', async () => {
    expect((await call('res.partner', 'create', '{"vals_list": [{"type": "invoice"}, {"name": ""}, {"type": false}]}')).status).toBe(200);
    const [id] = (await call('res.partner', 'create', '{"vals_list": [{"name": "Tmp"}]}')).value as number[];
    expect((await call('res.partner', 'write', `{"ids": [${id}], "vals": {"name": false, "type": "delivery"}}`)).status).toBe(200);
    expect(await call('res.partner', 'write', `{"ids": [${id}], "vals": {"type": "contact"}}`)).toEqual(
      sqlConstraint('Contacts require a name'),
    );
  });

  it('writes any language code (a method selection) but only a listed address type (a static one)', async () => {
    expect((await call('res.partner', 'write', '{"ids": [9], "vals": {"lang": "qq_QQ"}}')).status).toBe(200);
    expect(await call('res.partner', 'write', '{"ids": [9], "vals": {"type": "bogus"}}')).toEqual(
      refused(500, 'builtins.ValueError', "Wrong value for res.partner.type: 'bogus'"),
    );
  });

  it("keeps a company's own partner in that company (_check_partner_company)", async () => {
    expect(await call('res.partner', 'write', '{"ids": [1], "vals": {"company_id": 2}}')).toEqual(
      validation('The company assigned to this partner does not match the company this partner represents.'),
    );
    expect((await call('res.partner', 'write', '{"ids": [1], "vals": {"company_id": 1}}')).status).toBe(200);
  });
});

describe('the smaller base models', () => {
  it('res.currency: a rounding above 0 (CHECK), and a company currency stays active', async () => {
    expect(await call('res.currency', 'create', '{"vals_list": [{"name": "ZZZ", "symbol": "z", "rounding": -1}]}')).toEqual(
      sqlConstraint('The rounding factor must be greater than 0!'),
    );
    expect(await call('res.currency', 'write', '{"ids": [1], "vals": {"rounding": 0}}')).toEqual(
      sqlConstraint('The rounding factor must be greater than 0!'),
    );
    expect(await call('res.currency', 'write', '{"ids": [1], "vals": {"active": false}}')).toEqual(
      userError('This currency is set on a company and therefore cannot be deactivated.'),
    );
  });

  it('res.company: a unique name', async () => {
    expect(await call('res.company', 'create', '{"vals_list": [{"name": "YourCompany"}]}')).toEqual(
      sqlConstraint('The company name must be unique!'),
    );
  });

  it('uom.uom: a ratio other than 0 (CHECK), and a reference unit unless the ratio is 1', async () => {
    expect(await call('uom.uom', 'write', '{"ids": [2], "vals": {"relative_factor": 0}}')).toEqual(
      sqlConstraint('The conversion ratio for a unit of measure cannot be 0!'),
    );
    expect(await call('uom.uom', 'create', '{"vals_list": [{"name": "Zz", "relative_factor": 2}]}')).toEqual(
      userError('Reference unit of measure is missing.'),
    );
    expect((await call('uom.uom', 'create', '{"vals_list": [{"name": "Zz", "relative_factor": 2, "relative_uom_id": 1}]}')).status).toBe(
      200,
    );
  });

  it('res.lang: a unique URL code (its code when none is given), a fixed code, allowed directives', async () => {
    const [id] = (await call('res.lang', 'create', '{"vals_list": [{"name": "Zlang", "code": "zz_ZZ"}]}')).value as number[];
    expect((await call('res.lang', 'read', `{"ids": [${id}], "fields": ["url_code"]}`)).value).toEqual([
      new Map<string, Value>([
        ['id', id as number],
        ['url_code', 'zz_ZZ'],
      ]),
    ]);
    expect(await call('res.lang', 'create', '{"vals_list": [{"name": "Zlang 2", "code": "zz_YY", "url_code": "zz_ZZ"}]}')).toEqual(
      sqlConstraint('The URL code of the language must be unique!'),
    );
    expect(await call('res.lang', 'write', `{"ids": [${id}], "vals": {"code": "xx_XX"}}`)).toEqual(
      userError('Language code cannot be modified.'),
    );
    expect(await call('res.lang', 'write', `{"ids": [${id}], "vals": {"date_format": "%D"}}`)).toEqual(
      validation(
        'Invalid date/time format directive specified. Please refer to the list of allowed directives, displayed when you edit a language.',
      ),
    );
    expect((await call('res.lang', 'write', `{"ids": [${id}], "vals": {"date_format": "%d.%m.%y"}}`)).status).toBe(200);
  });

  it('res.lang: a language in use stays active, and one language at least stays active', async () => {
    const active = (await call('res.lang', 'search', '{"domain": [["active", "=", true]]}')).value as number[];
    expect(await call('res.lang', 'write', `{"ids": ${JSON.stringify(active)}, "vals": {"active": false}}`)).toEqual(
      userError('Cannot deactivate a language that is currently used by users.'),
    );
    const [zz] = (await call('res.lang', 'create', '{"vals_list": [{"name": "Zlang", "code": "zz_ZZ", "active": true}]}'))
      .value as number[];
    expect((await call('res.partner', 'write', '{"ids": [9], "vals": {"lang": "zz_ZZ"}}')).status).toBe(200);
    expect(await call('res.lang', 'write', `{"ids": [${zz}], "vals": {"active": false}}`)).toEqual(
      userError('Cannot deactivate a language that is currently used by contacts.'),
    );
    // nobody speaks the languages left: deactivating them all is refused by _check_active alone
    const unused = (await call('res.lang', 'search', '{"domain": [["active", "=", true], ["code", "not in", ["en_US", "zz_ZZ"]]]}'))
      .value as number[];
    const en = (await call('res.lang', 'search', '{"domain": [["code", "=", "en_US"]]}')).value as number[];
    expect((await call('res.lang', 'write', `{"ids": ${JSON.stringify(unused)}, "vals": {"active": false}}`)).status).toBe(200);
    expect((await call('res.partner', 'write', '{"ids": [9], "vals": {"lang": false}}')).status).toBe(200);
    expect((await call('res.lang', 'write', `{"ids": [${zz}], "vals": {"active": false}}`)).status).toBe(200);
    const speakers = (await call('res.users', 'search', '{"domain": [["lang", "=", "en_US"]], "context": {"active_test": false}}'))
      .value as number[];
    expect(speakers.length).toBeGreaterThan(0);
    expect(await call('res.lang', 'write', `{"ids": ${JSON.stringify(en)}, "vals": {"active": false}}`)).toEqual(
      userError('Cannot deactivate a language that is currently used by users.'),
    );
    // once no user or contact speaks English, the last active language still cannot go
    expect((await call('res.users', 'write', `{"ids": ${JSON.stringify(speakers)}, "vals": {"lang": "zz_ZZ"}}`)).status).toBe(200);
    const partners = (await call('res.partner', 'search', '{"domain": [["lang", "!=", false]], "context": {"active_test": false}}'))
      .value as number[];
    expect((await call('res.partner', 'write', `{"ids": ${JSON.stringify(partners)}, "vals": {"lang": false}}`)).status).toBe(200);
    expect(await call('res.lang', 'write', `{"ids": ${JSON.stringify(en)}, "vals": {"active": false}}`)).toEqual(
      validation('At least one language must be active.'),
    );
  });

  it('res.country: an address format with known keys only', async () => {
    expect(await call('res.country', 'write', '{"ids": [1], "vals": {"address_format": "%(nope)s"}}')).toEqual(
      userError('The layout contains an invalid format key'),
    );
    expect(await call('res.country', 'write', '{"ids": [1], "vals": {"address_format": "%(city)q"}}')).toEqual(
      userError('The layout contains an invalid format key'),
    );
    expect(await call('res.country', 'write', '{"ids": [1], "vals": {"address_format": "%s %s"}}')).toEqual(
      refused(500, 'builtins.TypeError', 'not enough arguments for format string'),
    );
    expect((await call('res.country', 'write', '{"ids": [1], "vals": {"address_format": "%(city)s %% %(company_name)s"}}')).status).toBe(
      200,
    );
  });

  it("res.users: the default company among the user's companies", async () => {
    expect(await call('res.users', 'write', '{"ids": [6], "vals": {"company_id": 2}}')).toEqual(
      validation('Company My US Company is not in the allowed companies for user Joel Willis (YourCompany).'),
    );
    expect(
      await call('res.users', 'create', '{"vals_list": [{"name": "Zed", "login": "zed", "company_ids": [[6, 0, [1]]], "company_id": 2}]}'),
    ).toEqual(validation('Company My US Company is not in the allowed companies for user Zed (YourCompany).'));
    expect((await call('res.users', 'write', '{"ids": [6], "vals": {"company_ids": [[4, 2]], "company_id": 2}}')).status).toBe(200);
  });

  it('product.product: a barcode on one active product only, listing the holders by id', async () => {
    expect(await call('product.product', 'write', '{"ids": [6], "vals": {"barcode": "2300001000008"}}')).toEqual(
      validation(
        'Barcode(s) already assigned:\n\n- Barcode "2300001000008" already assigned to product(s): [FURN_8888] Office Lamp and [FURN_0001] Desk Organizer\n\n' +
          "Note: products that you don't have access to will not be shown above.",
      ),
    );
    expect((await call('product.product', 'write', '{"ids": [6, 34, 49], "vals": {"barcode": "TRI999"}}')).message).toBe(
      'Barcode(s) already assigned:\n\n- Barcode "TRI999" already assigned to product(s): [FURN_8888] Office Lamp, [FURN_9001] Flipover, and [FURN_0001] Desk Organizer\n\n' +
        "Note: products that you don't have access to will not be shown above.",
    );
  });
});

describe('sale.order.line', () => {
  it('a section or note line has no product, price or quantity (CHECK _non_accountable_null_fields)', async () => {
    const [order] = (await call('sale.order', 'create', '{"vals_list": [{"partner_id": 10}]}')).value as number[];
    const [note] = (
      await call(
        'sale.order.line',
        'create',
        `{"vals_list": [{"order_id": ${order}, "name": "A note", "display_type": "line_note", "product_uom_qty": 2}]}`,
      )
    ).value as number[];
    expect((await call('sale.order.line', 'read', `{"ids": [${note}], "fields": ["product_uom_qty", "price_unit"]}`)).value).toEqual([
      new Map<string, Value>([
        ['id', note as number],
        ['product_uom_qty', new PyFloat(0)],
        ['price_unit', new PyFloat(0)],
      ]),
    ]);
    for (const extra of ['"product_id": 6', '"price_unit": 2']) {
      expect(
        await call(
          'sale.order.line',
          'create',
          `{"vals_list": [{"order_id": ${order}, "name": "x", "display_type": "line_note", ${extra}}]}`,
        ),
      ).toEqual(sqlConstraint('Forbidden values on non-accountable sale order line'));
    }
    // an accountable line without a product passes: its NULL is_downpayment makes the CHECK NULL
    expect((await call('sale.order.line', 'create', `{"vals_list": [{"order_id": ${order}, "name": "no product"}]}`)).status).toBe(200);
  });
});
