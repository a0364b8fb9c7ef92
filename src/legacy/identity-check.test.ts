import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  buildIdentityChecked,
  classesOf,
  generatedPath,
  poTranslation,
  renderIdentityChecked,
} from '../../scripts/gen-identity-checked.ts';
import { markNonStringNames } from '../value.ts';
import { identityCheckRefusal, identityRefusalText, isIdentityChecked, requestAssertionError } from './identity-check.ts';

describe('isIdentityChecked', () => {
  it.each([
    ['res.users', 'api_key_wizard'],
    ['res.users', 'preference_change_password'],
    ['res.users', 'action_revoke_all_devices'],
    ['res.users', 'action_totp_disable'],
    ['res.users', 'action_totp_enable_wizard'],
    ['res.users', 'revoke_all_devices'],
    ['change.password.own', 'change_password'],
    ['res.users.apikeys', 'remove'],
    ['auth_totp.device', 'remove'],
    ['res.device', 'revoke'],
    ['res.users.apikeys.description', 'make_key'],
  ])('knows %s.%s (issue 45 and the models that inherit it)', (model, method) => {
    expect(isIdentityChecked(model, method)).toBe(true);
  });

  it.each([
    ['res.users', 'change_password'],
    ['phone.blacklist', 'remove'],
    ['res.device.log', 'revoke'],
    ['res.partner', 'api_key_wizard'],
    ['toString', 'constructor'],
  ])('leaves %s.%s alone', (model, method) => {
    expect(isIdentityChecked(model, method)).toBe(false);
  });
});

describe('identityRefusalText', () => {
  it.each([
    [undefined, 'This method can only be accessed over HTTP'],
    ['en_US', 'This method can only be accessed over HTTP'],
    ['fr_FR', 'Cette méthode peut seulement être accédée par HTTP'],
    // fr_BE.po leaves it untranslated: fr.po's stands
    ['fr_BE', 'Cette méthode peut seulement être accédée par HTTP'],
    // the LAC Spanishes read es_419.po after es.po
    ['es_AR', 'Solo se puede acceder a este método mediante HTTP'],
  ])('in %s: %s', (lang, text) => {
    expect(identityRefusalText(lang)).toBe(text);
  });
});

describe('identityCheckRefusal', () => {
  const user = () => Promise.resolve('fr_FR');
  it("answers in the user's language when the context names none", async () => {
    expect((await identityCheckRefusal([[2]], new Map(), user)).message).toBe('Cette méthode peut seulement être accédée par HTTP');
    expect((await identityCheckRefusal([[2]], new Map([['context', new Map([['lang', 'en_US']])]]), user)).message).toBe(
      'This method can only be accessed over HTTP',
    );
  });

  it('ignores any argument after the ids: the wrapper takes *args, **kwargs', async () => {
    expect((await identityCheckRefusal([[2], 1, 2, 3], new Map([['x', 1]]), user)).name).toBe('odoo.exceptions.UserError');
  });

  it('answers keyword names that are no str first', async () => {
    const kwargs = new Map([['1', 2]]);
    markNonStringNames(kwargs);
    expect((await identityCheckRefusal([[2]], kwargs, user)).message).toBe('keywords must be strings');
  });
});

describe('scripts/gen-identity-checked.ts', () => {
  it('reads decorated methods and models from CRLF files, other decorators beside', () => {
    const source = [
      'class A(models.Model):',
      "    _name = 'a.model'",
      "    _inherit = ['mail.thread']",
      '',
      '    @api.readonly',
      '    @check_identity',
      '    def go(self):',
      '        pass',
      '',
      '    def stay(self):',
      '        pass',
      '',
      'class B(models.Model):',
      "    _inherit = 'a.model'",
      '',
      '    def go(self):',
      '        return super().go()',
    ].join('\r\n');
    const [a, b] = classesOf('x.py', source);
    expect(a).toMatchObject({ name: 'A', model: 'a.model' });
    expect([...(a?.methods ?? [])]).toEqual([
      ['go', true],
      ['stay', false],
    ]);
    expect(b).toMatchObject({ name: 'B', model: 'a.model' });
    expect(b?.methods.get('go')).toBe(false);
  });

  it("reads a .po file's python translation, an empty one as none", () => {
    const po = '#. odoo-python\nmsgid "Hi"\nmsgstr ""\n"Sal"\n"ut"\n\n#. odoo-python\nmsgid "Bye"\nmsgstr ""\n';
    expect(poTranslation(po, 'Hi')).toBe('Salut');
    expect(poTranslation(po, 'Bye')).toBeUndefined();
  });

  it.skipIf(!existsSync('/opt/odoo19/odoo/addons/base/models/res_users.py'))(
    'wrote the generated module from the 19.0 tree',
    () => {
      expect(readFileSync(generatedPath, 'utf8')).toBe(renderIdentityChecked(buildIdentityChecked('/opt/odoo19')));
    },
    180_000,
  );
});

describe('requestAssertionError', () => {
  it('knows run_check, which completes an identity check', () => {
    expect(requestAssertionError('res.users.identitycheck', 'run_check')).toMatchObject({
      name: 'builtins.AssertionError',
      message: 'This method can only be accessed over HTTP',
    });
    expect(requestAssertionError('res.users.identitycheck', 'read')).toBeUndefined();
  });
});
