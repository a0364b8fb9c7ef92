/**
 * Generates `src/legacy/identity-checked.generated.ts`: the (model, method) pairs Odoo 19.0 refuses
 * over legacy RPC because the method is wrapped by `@check_identity`
 * (`odoo/addons/base/models/res_users.py`: `if not request: raise UserError(_("This method can only
 * be accessed over HTTP"))`), and that text's translations from base's `.po` files.
 *
 * Run against a 19.0 source tree: `npx tsx scripts/gen-identity-checked.ts /opt/odoo19`.
 * It reads every `.py` file under `odoo/` and `addons/` (tests excluded), takes each function
 * decorated `@check_identity`, names it by its qualname (`ResUsers.api_key_wizard`), and maps that
 * qualname through the built-in signature table to every model where that function is the effective
 * method (a model inheriting it by `_inherit` gets it too: `auth_totp.device` has
 * `ResUsersApikeys.remove`). It refuses to write when the source has something it cannot map exactly:
 * a decorated function whose qualname the table does not give to the model that declares it, or
 * another definition of the same method on a model that gets it (an override the table would name
 * with the same class name).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { builtinTableData } from '../src/signatures/builtin-table.generated.ts';
import { refusalSource } from '../src/legacy/identity-refusal-source.ts';
import { methodFromQualname } from '../src/signatures/qualname.ts';

const rootDir = join(dirname(fileURLToPath(import.meta.url)), '..');
export const generatedPath = 'src/legacy/identity-checked.generated.ts';

/** One Python class as far as the generator needs it. */
export interface PyClass {
  file: string;
  name: string;
  /** `_name`, else the single `_inherit`: the model the class defines or extends. */
  model: string | undefined;
  /** Methods defined in the class body, with whether `@check_identity` decorates them. */
  methods: Map<string, boolean>;
  /** Methods whose own body says `assert request, "<message>"`: the message (`''` without one). */
  assertsRequest: Map<string, string>;
  /** Methods decorated `@assert_log_admin_access` (AccessDenied for a non-admin before their arguments bind). */
  adminChecked: Set<string>;
  /** Methods decorated `@ormcache` (their arguments bind first to the cache key's `<lambda>`). */
  ormcached: Set<string>;
}

function stringList(text: string): string[] {
  return [...text.matchAll(/['"]([^'"]+)['"]/g)].map((m) => m[1] as string);
}

/** Reads the top-level classes of one Python file: their model and their (decorated) methods. */
export function classesOf(file: string, source: string): PyClass[] {
  const classes: PyClass[] = [];
  let current: PyClass | undefined;
  let decorators: string[] = [];
  let inherit: string[] = [];
  let method: string | undefined;
  const finish = () => {
    if (current && current.model === undefined && inherit.length === 1) current.model = inherit[0];
  };
  for (const line of source.split(/\r?\n/)) {
    const cls = /^class (\w+)\s*[(:]/.exec(line);
    if (cls) {
      finish();
      current = {
        file,
        name: cls[1] as string,
        model: undefined,
        methods: new Map(),
        assertsRequest: new Map(),
        adminChecked: new Set(),
        ormcached: new Set(),
      };
      method = undefined;
      inherit = [];
      decorators = [];
      classes.push(current);
      continue;
    }
    if (current === undefined) continue;
    if (/^\S/.test(line) && line.trim() !== '') {
      finish();
      current = undefined;
      continue;
    }
    const attr = /^ {4}(_name|_inherit)\s*=\s*(.*)$/.exec(line);
    if (attr) {
      const values = stringList(attr[2] as string);
      if (attr[1] === '_name' && values.length === 1) current.model = values[0];
      if (attr[1] === '_inherit') inherit = values;
      continue;
    }
    const deco = /^ {4}@([\w.]+)/.exec(line);
    if (deco) {
      decorators.push(deco[1] as string);
      continue;
    }
    const def = /^ {4}def (\w+)\s*\(/.exec(line);
    if (def) {
      const name = def[1] ?? '';
      method = name;
      current.methods.set(name, decorators.includes('check_identity'));
      if (decorators.includes('assert_log_admin_access')) current.adminChecked.add(name);
      if (decorators.some((d) => /(^|\.)ormcache(_context)?$/.test(d))) current.ormcached.add(name);
      decorators = [];
      continue;
    }
    const assertion = /^ {8}assert request(?:\s*,\s*(['"])(.*)\1)?\s*$/.exec(line);
    if (assertion && method !== undefined) current.assertsRequest.set(method, assertion[2] ?? '');
  }
  finish();
  return classes;
}

function pythonFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'tests' && entry.name !== 'node_modules' && !entry.name.startsWith('.')) pythonFiles(path, out);
    } else if (entry.name.endsWith('.py')) out.push(path);
  }
  return out;
}

/** The models of the built-in table whose effective `method` is `qualname`. */
function modelsWithQualname(qualname: string): string[] {
  const method = methodFromQualname(qualname);
  const generic = builtinTableData.generic.includes(qualname);
  return Object.entries(builtinTableData.models)
    .filter(([, qualnames]) => {
      const own = qualnames.find((q) => methodFromQualname(q) === method);
      return own === undefined ? generic : own === qualname;
    })
    .map(([model]) => model)
    .sort();
}

/** `msgid` → `msgstr` of the `odoo-python` entries of one `.po` file, untranslated ones left out. */
export function poTranslation(po: string, msgid: string): string | undefined {
  const unquote = (block: string) =>
    [...block.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1] as string}"`) as string).join('');
  for (const entry of po.replaceAll('\r\n', '\n').split(/\n\s*\n/)) {
    const m = /^msgid ((?:".*"\n?)+)msgstr ((?:".*"\n?)+)/m.exec(entry);
    if (m && unquote(m[1] as string) === msgid && entry.includes('odoo-python')) {
      const text = unquote(m[2] as string);
      return text === '' ? undefined : text;
    }
  }
  return undefined;
}

export interface IdentityChecked {
  /** model → methods, sorted. */
  models: Record<string, string[]>;
  /** The decorated functions, `path:Class.method`. */
  sources: string[];
  /** `.po` file name (without `.po`) → the refusal's translation. */
  translations: Record<string, string>;
  /** model → method → the message of the `assert request` in its body. */
  asserting: Record<string, Record<string, string>>;
  /** model → the public methods decorated `@assert_log_admin_access`, sorted. */
  adminChecked: Record<string, string[]>;
  /** model → the public methods decorated `@ormcache`, sorted. */
  ormcached: Record<string, string[]>;
}

export function buildIdentityChecked(odooRoot: string): IdentityChecked {
  const classes = ['odoo', 'addons'].flatMap((d) =>
    pythonFiles(join(odooRoot, d)).flatMap((f) => classesOf(relative(odooRoot, f), readFileSync(f, 'utf8'))),
  );
  const models: Record<string, Set<string>> = {};
  const sources: string[] = [];
  for (const cls of classes) {
    for (const [method, decorated] of cls.methods) {
      if (!decorated) continue;
      const qualname = `${cls.name}.${method}`;
      sources.push(`${cls.file}:${qualname}`);
      if (cls.model === undefined) throw new Error(`${cls.file}: class ${cls.name} names no model`);
      const mapped = modelsWithQualname(qualname);
      if (!mapped.includes(cls.model)) {
        throw new Error(`${cls.file}: ${qualname} is not ${cls.model}'s ${method} in the built-in table (regenerate it first?)`);
      }
      for (const other of classes) {
        if (other === cls || !other.methods.has(method) || other.methods.get(method) === true) continue;
        if (other.model !== undefined && mapped.includes(other.model)) {
          throw new Error(`${other.file}: ${other.name}.${method} overrides ${qualname} on ${other.model}: decide by hand`);
        }
      }
      for (const model of mapped) (models[model] ??= new Set()).add(method);
    }
  }
  // public methods that assert a request in their own body: AssertionError once their arguments bind
  const asserting: Record<string, Record<string, string>> = {};
  for (const cls of classes) {
    for (const [method, message] of cls.assertsRequest) {
      if (method.startsWith('_') || cls.model === undefined) continue;
      const qualname = `${cls.name}.${method}`;
      sources.push(`${cls.file}:${qualname} (assert request)`);
      const mapped = modelsWithQualname(qualname);
      if (!mapped.includes(cls.model)) throw new Error(`${cls.file}: ${qualname} is not ${cls.model}'s ${method} in the built-in table`);
      for (const model of mapped) (asserting[model] ??= {})[method] = message;
    }
  }
  // @assert_log_admin_access (ir_module.py): `check_and_log(self, *args, **kwargs)` refuses a
  // non-admin before calling the method, so before its arguments bind
  const adminChecked: Record<string, Set<string>> = {};
  for (const cls of classes) {
    for (const method of cls.adminChecked) {
      if (method.startsWith('_') || cls.model === undefined) continue;
      const qualname = `${cls.name}.${method}`;
      sources.push(`${cls.file}:${qualname} (admin access)`);
      const mapped = modelsWithQualname(qualname);
      if (!mapped.includes(cls.model)) throw new Error(`${cls.file}: ${qualname} is not ${cls.model}'s ${method} in the built-in table`);
      for (const model of mapped) (adminChecked[model] ??= new Set()).add(method);
    }
  }
  // @ormcache (odoo/tools/cache.py): `lookup(*args, **kwargs)` first calls the key, a `lambda` with
  // the method's parameters, so a call that does not bind is that lambda's TypeError
  const ormcached: Record<string, Set<string>> = {};
  for (const cls of classes) {
    for (const method of cls.ormcached) {
      if (method.startsWith('_') || cls.model === undefined) continue;
      const qualname = `${cls.name}.${method}`;
      const mapped = modelsWithQualname(qualname);
      if (!mapped.includes(cls.model)) continue; // not the model's effective method (a later override)
      for (const model of mapped) (ormcached[model] ??= new Set()).add(method);
    }
  }
  const translations: Record<string, string> = {};
  const i18n = join(odooRoot, 'odoo/addons/base/i18n');
  for (const file of readdirSync(i18n).sort()) {
    if (!file.endsWith('.po')) continue;
    const text = poTranslation(readFileSync(join(i18n, file), 'utf8'), refusalSource);
    if (text !== undefined) translations[file.slice(0, -3)] = text;
  }
  return {
    models: Object.fromEntries(
      Object.keys(models)
        .sort()
        .map((m) => [m, [...(models[m] as Set<string>)].sort()]),
    ),
    sources: sources.sort(),
    translations,
    asserting: Object.fromEntries(
      Object.keys(asserting)
        .sort()
        .map((m) => [m, asserting[m] as Record<string, string>]),
    ),
    adminChecked: Object.fromEntries(
      Object.keys(adminChecked)
        .sort()
        .map((m) => [m, [...(adminChecked[m] as Set<string>)].sort()]),
    ),
    ormcached: Object.fromEntries(
      Object.keys(ormcached)
        .sort()
        .map((m) => [m, [...(ormcached[m] as Set<string>)].sort()]),
    ),
  };
}

export function renderIdentityChecked(data: IdentityChecked): string {
  const lines = [
    '/**',
    ' * GENERATED by scripts/gen-identity-checked.ts from an Odoo 19.0 source tree — do not edit;',
    ' * regenerate with `npx tsx scripts/gen-identity-checked.ts <odoo-19.0-tree>` (docs/signatures.md).',
    ` * The ${data.sources.length} functions decorated \`@check_identity\`, asserting a request or decorated \`@assert_log_admin_access\`:`,
    ...data.sources.map((s) => ` *   ${s}`),
    ' */',
    '',
    '/** model → the methods legacy RPC refuses with "This method can only be accessed over HTTP". */',
    `export const identityCheckedMethods: Readonly<Record<string, readonly string[]>> = ${JSON.stringify(data.models, null, 2)};`,
    '',
    "/** The refusal's translations, by the `.po` file of base that holds them (`fr`, `es_419`, `pt_BR`…). */",
    `export const identityRefusalTranslations: Readonly<Record<string, string>> = ${JSON.stringify(data.translations, null, 2)};`,
    '',
    '/** model → public method → the message of the `assert request` in its own body (AssertionError once its arguments bind). */',
    `export const requestAssertingMethods: Readonly<Record<string, Readonly<Record<string, string>>>> = ${JSON.stringify(data.asserting, null, 2)};`,
    '',
    '/** model → the public methods `@assert_log_admin_access` wraps: AccessDenied for a non-admin, before their arguments bind. */',
    `export const adminCheckedMethods: Readonly<Record<string, readonly string[]>> = ${JSON.stringify(data.adminChecked, null, 2)};`,
    '',
    "/** model → the public methods `@ormcache` wraps: a call that does not bind is the cache key's `<lambda>()` TypeError. */",
    `export const ormcachedMethods: Readonly<Record<string, readonly string[]>> = ${JSON.stringify(data.ormcached, null, 2)};`,
    '',
  ];
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const odooRoot = process.argv[2];
  if (odooRoot === undefined) throw new Error('usage: npx tsx scripts/gen-identity-checked.ts <odoo-19.0-source-tree>');
  writeFileSync(join(rootDir, generatedPath), renderIdentityChecked(buildIdentityChecked(odooRoot)));
  console.log(`wrote ${generatedPath}`);
}
