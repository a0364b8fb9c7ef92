/**
 * Generates `src/signatures/builtin-table.generated.ts` from `fixtures/odoo-data/_method-table.json`
 * (the effective methods of 19 Odoo 19.0 models). Run: `npx tsx scripts/gen-signature-table.ts`.
 *
 * Each distinct signature is written once, keyed by the qualname of the function that runs; the
 * methods every model inherits unchanged from `BaseModel`/web's `base` become the generic list, and
 * each model lists only its own qualnames. The generator refuses input it cannot represent exactly.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BuiltinTable, ParamRow, SignatureRow } from '../src/signatures/builtin-table.ts';
import { paramKinds, type ParamKind } from '../src/signatures/signature.ts';

const rootDir = join(dirname(fileURLToPath(import.meta.url)), '..');
export const methodTablePath = 'fixtures/odoo-data/_method-table.json';
export const generatedTablePath = 'src/signatures/builtin-table.generated.ts';

/** One entry of `_method-table.json`: params as `[name, kind, default text or null]`. */
interface MethodTableEntry {
  api_model: boolean;
  params: [string, string, string | null][];
  qualname: string;
}
export type MethodTable = Record<string, Record<string, MethodTableEntry>>;

/** Methods defined on `BaseModel` (odoo/orm/models.py) or web's `base` (addons/web/models/models.py). */
function isBaseQualname(qualname: string, method: string): boolean {
  return qualname === `BaseModel.${method}` || qualname === `Base.${method}`;
}

function signatureRowFrom(entry: MethodTableEntry, where: string): SignatureRow {
  const params = entry.params.map(([name, kind, defaultText]): ParamRow => {
    if (!(paramKinds as readonly string[]).includes(kind)) {
      throw new Error(`${where}: unknown parameter kind ${kind}`);
    }
    if (kind !== 'POSITIONAL_OR_KEYWORD') return [name, defaultText, kind as ParamKind];
    return defaultText === null ? [name] : [name, defaultText];
  });
  return [entry.api_model, params];
}

/** Builds the deduplicated table; throws when the input breaks an assumption the format relies on. */
export function buildBuiltinTable(source: MethodTable): BuiltinTable {
  const signatures: Record<string, SignatureRow> = {};
  const baseQualnames = new Map<string, string>();
  for (const [model, methods] of Object.entries(source)) {
    for (const [method, entry] of Object.entries(methods)) {
      const where = `${model}.${method}`;
      // The format names methods by qualname only.
      if (!entry.qualname.endsWith(`.${method}`)) {
        throw new Error(`${where}: qualname ${entry.qualname} names another method`);
      }
      const row = signatureRowFrom(entry, where);
      const seen = signatures[entry.qualname];
      if (seen !== undefined && JSON.stringify(seen) !== JSON.stringify(row)) {
        throw new Error(`${where}: ${entry.qualname} has two different signatures in the table`);
      }
      signatures[entry.qualname] = row;
      if (isBaseQualname(entry.qualname, method)) {
        const other = baseQualnames.get(method);
        if (other !== undefined && other !== entry.qualname) {
          throw new Error(`${method}: both ${other} and ${entry.qualname} run on plain models`);
        }
        baseQualnames.set(method, entry.qualname);
      }
    }
  }
  const generic = [...baseQualnames.values()].sort();
  const models: Record<string, string[]> = {};
  for (const [model, methods] of Object.entries(source).sort(([a], [b]) => (a < b ? -1 : 1))) {
    for (const method of baseQualnames.keys()) {
      // A model without a generic method would wrongly inherit it on lookup.
      if (!(method in methods)) throw new Error(`${model} lacks the generic method ${method}`);
    }
    models[model] = Object.entries(methods)
      .filter(([method, entry]) => baseQualnames.get(method) !== entry.qualname)
      .map(([, entry]) => entry.qualname)
      .sort();
  }
  const sorted = Object.fromEntries(Object.entries(signatures).sort(([a], [b]) => (a < b ? -1 : 1)));
  return { signatures: sorted, generic, models };
}

function tsString(text: string): string {
  return /['\\\n]/.test(text) ? JSON.stringify(text) : `'${text}'`;
}

function renderParam(row: ParamRow): string {
  return `[${row.map((part) => (part === null || part === undefined ? 'null' : tsString(part))).join(', ')}]`;
}

function renderSignature(qualname: string, [apiModel, params]: SignatureRow): string {
  const oneLine = `    ${tsString(qualname)}: [${apiModel}, [${params.map(renderParam).join(', ')}]],`;
  if (oneLine.length <= 110) return oneLine;
  const rows = params.map((p) => `        ${renderParam(p)},`);
  return [`    ${tsString(qualname)}: [`, `      ${apiModel},`, '      [', ...rows, '      ],', '    ],'].join('\n');
}

function renderList(indent: string, items: readonly string[]): string[] {
  const lines: string[] = [];
  let line = '';
  for (const item of items.map(tsString)) {
    if (line !== '' && indent.length + line.length + item.length + 2 > 110) {
      lines.push(`${indent}${line}`);
      line = '';
    }
    line += line === '' ? `${item},` : ` ${item},`;
  }
  if (line !== '') lines.push(`${indent}${line}`);
  return lines;
}

/** The generated module's full text for a method table. */
export function renderBuiltinTableModule(source: MethodTable): string {
  const table = buildBuiltinTable(source);
  const pairs = Object.values(source).reduce((n, methods) => n + Object.keys(methods).length, 0);
  const out = [
    '/**',
    ` * GENERATED by scripts/gen-signature-table.ts from ${methodTablePath} — do not edit;`,
    ' * regenerate with `npx tsx scripts/gen-signature-table.ts`.',
    ` * ${Object.keys(source).length} models, ${pairs} (model, method) pairs, ` +
      `${Object.keys(table.signatures).length} distinct signatures,`,
    ` * ${table.generic.length} generic methods (BaseModel / web Base, the same on every model).`,
    ' * Rows: qualname → [apiModel, params]; a param is [name], [name, default] or [name, default, kind].',
    ' */',
    "import type { BuiltinTable } from './builtin-table.ts';",
    '',
    'export const builtinTableData: BuiltinTable = {',
    '  signatures: {',
    ...Object.entries(table.signatures).map(([q, row]) => renderSignature(q, row)),
    '  },',
    '  generic: [',
    ...renderList('    ', table.generic),
    '  ],',
    '  models: {',
  ];
  for (const [model, qualnames] of Object.entries(table.models)) {
    out.push(`    ${tsString(model)}: [`, ...renderList('      ', qualnames), '    ],');
  }
  out.push('  },', '};', '');
  return out.join('\n');
}

/** Reads the fixture from the repository root. */
export function readMethodTable(): MethodTable {
  return JSON.parse(readFileSync(join(rootDir, methodTablePath), 'utf8')) as MethodTable;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const text = renderBuiltinTableModule(readMethodTable());
  writeFileSync(join(rootDir, generatedTablePath), text);
  console.log(`wrote ${generatedTablePath} (${Buffer.byteLength(text)} bytes)`);
}
