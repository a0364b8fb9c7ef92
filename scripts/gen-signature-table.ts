/**
 * Generates `src/signatures/builtin-table.generated.ts` from `fixtures/odoo-data/_method-table-all.json`
 * (the effective public methods of the 686 models of two real Odoo 19.0 installs, in the compact shape
 * its README describes: a `_shared` ORM table plus each model's own methods) and
 * `fixtures/odoo-data/_method-table.json` (19 models of the demo install, the install the conformance
 * corpus was recorded on). Run: `npx tsx scripts/gen-signature-table.ts`.
 *
 * The module stays as compact as its input: each distinct signature is written once, keyed by the
 * qualname of the function that runs; `_shared` becomes the generic list, and each model lists only the
 * qualnames that differ from it. For the 19 models the demo install names the function that runs
 * where the bigger install has an app's override of the same signature (`BaseModel.write` rather than
 * `UomUom.write`): those are the qualnames Python's TypeError texts show on that install. The
 * generator refuses input it cannot represent exactly.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BuiltinTable, ParamRow, SignatureRow } from '../src/signatures/builtin-table.ts';
import { methodFromQualname } from '../src/signatures/qualname.ts';
import { paramKinds, type ParamKind } from '../src/signatures/signature.ts';

const rootDir = join(dirname(fileURLToPath(import.meta.url)), '..');
export const methodTableAllPath = 'fixtures/odoo-data/_method-table-all.json';
export const methodTablePath = 'fixtures/odoo-data/_method-table.json';
export const generatedTablePath = 'src/signatures/builtin-table.generated.ts';

/** One method entry: params as `[name, kind, default text or null]`, after `self`. */
export interface MethodTableEntry {
  api_model: boolean;
  params: [string, string, string | null][];
  qualname: string;
  /** Odoo marks it `@api.deprecated` but still serves it. */
  deprecated?: boolean;
}
/** `_method-table.json`: every method of each model, written out. */
export type MethodTable = Record<string, Record<string, MethodTableEntry>>;
/** `_method-table-all.json`: a model's table is `_shared`, overlaid by its `methods`, minus `lacks`. */
export interface CompactMethodTable {
  _shared: Record<string, MethodTableEntry>;
  models: Record<string, { methods: Record<string, MethodTableEntry>; lacks?: string[] }>;
}

function signatureRowFrom(entry: MethodTableEntry, where: string): SignatureRow {
  const params = entry.params.map(([name, kind, defaultText]): ParamRow => {
    if (!(paramKinds as readonly string[]).includes(kind)) {
      throw new Error(`${where}: unknown parameter kind ${kind}`);
    }
    if (kind !== 'POSITIONAL_OR_KEYWORD') return [name, defaultText, kind as ParamKind];
    return defaultText === null ? [name] : [name, defaultText];
  });
  return entry.deprecated === true ? [entry.api_model, params, true] : [entry.api_model, params];
}

/** The 19 models' entries replace the compact table's where they are the same signature under another qualname. */
function overlayDemoInstall(all: CompactMethodTable, demo: MethodTable): Map<string, Record<string, MethodTableEntry>> {
  const own = new Map<string, Record<string, MethodTableEntry>>();
  for (const [model, { methods, lacks }] of Object.entries(all.models)) {
    if (lacks !== undefined && lacks.length > 0) {
      throw new Error(`${model}: "lacks" (${lacks.join(', ')}) cannot be represented: a model would inherit the generic method`);
    }
    own.set(model, { ...methods });
  }
  for (const [model, methods] of Object.entries(demo)) {
    const target = own.get(model);
    if (target === undefined) throw new Error(`${model} of ${methodTablePath} is not in ${methodTableAllPath}`);
    for (const [method, entry] of Object.entries(methods)) {
      const merged = target[method] ?? all._shared[method];
      const where = `${model}.${method}`;
      if (merged === undefined) throw new Error(`${where} of ${methodTablePath} is not in ${methodTableAllPath}`);
      if (merged.api_model !== entry.api_model || JSON.stringify(merged.params) !== JSON.stringify(entry.params)) {
        throw new Error(`${where}: the two tables disagree on its signature`);
      }
      if (merged.qualname !== entry.qualname) target[method] = { ...merged, qualname: entry.qualname };
    }
  }
  return own;
}

/** Builds the deduplicated table; throws when the input breaks an assumption the format relies on. */
export function buildBuiltinTable(all: CompactMethodTable, demo: MethodTable): BuiltinTable {
  const signatures: Record<string, SignatureRow> = {};
  const add = (where: string, method: string, entry: MethodTableEntry) => {
    // The format names methods by qualname only.
    if (methodFromQualname(entry.qualname) !== method) throw new Error(`${where}: qualname ${entry.qualname} names another method`);
    const row = signatureRowFrom(entry, where);
    const seen = signatures[entry.qualname];
    if (seen !== undefined && JSON.stringify(seen) !== JSON.stringify(row)) {
      throw new Error(`${where}: ${entry.qualname} has two different signatures in the table`);
    }
    signatures[entry.qualname] = row;
  };
  for (const [method, entry] of Object.entries(all._shared)) add(`_shared.${method}`, method, entry);
  const generic = Object.values(all._shared)
    .map((e) => e.qualname)
    .sort();

  const models: Record<string, string[]> = {};
  const own = overlayDemoInstall(all, demo);
  for (const [model, methods] of [...own].sort(([a], [b]) => (a < b ? -1 : 1))) {
    for (const [method, entry] of Object.entries(methods)) add(`${model}.${method}`, method, entry);
    models[model] = Object.entries(methods)
      .filter(([method, entry]) => all._shared[method]?.qualname !== entry.qualname)
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

function renderSignature(qualname: string, [apiModel, params, deprecated]: SignatureRow): string {
  const tail = deprecated === true ? ', true' : '';
  const oneLine = `    ${tsString(qualname)}: [${apiModel}, [${params.map(renderParam).join(', ')}]${tail}],`;
  if (oneLine.length <= 110) return oneLine;
  const rows = params.map((p) => `        ${renderParam(p)},`);
  const last = deprecated === true ? ['      true,'] : [];
  return [`    ${tsString(qualname)}: [`, `      ${apiModel},`, '      [', ...rows, '      ],', ...last, '    ],'].join('\n');
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

/** The generated module's full text for the two method tables. */
export function renderBuiltinTableModule(all: CompactMethodTable, demo: MethodTable): string {
  const table = buildBuiltinTable(all, demo);
  const pairs =
    Object.values(table.models).length * table.generic.length +
    Object.values(all.models).reduce((n, { methods }) => n + Object.keys(methods).filter((m) => !(m in all._shared)).length, 0);
  const out = [
    '/**',
    ` * GENERATED by scripts/gen-signature-table.ts from ${methodTableAllPath}`,
    ` * and ${methodTablePath} — do not edit; regenerate with \`npx tsx scripts/gen-signature-table.ts\`.`,
    ` * ${Object.keys(table.models).length} models, ${pairs} (model, method) pairs, ` +
      `${Object.keys(table.signatures).length} distinct signatures,`,
    ` * ${table.generic.length} generic methods (the \`base\` model's, which every model has).`,
    ' * Rows: qualname → [apiModel, params] or [apiModel, params, true] for a method Odoo marks deprecated;',
    ' * a param is [name], [name, default] or [name, default, kind].',
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
    if (qualnames.length === 0) out.push(`    ${tsString(model)}: [],`);
    else out.push(`    ${tsString(model)}: [`, ...renderList('      ', qualnames), '    ],');
  }
  out.push('  },', '};', '');
  return out.join('\n');
}

/** Reads `_method-table.json` (19 models, written out) from the repository root. */
export function readMethodTable(): MethodTable {
  return JSON.parse(readFileSync(join(rootDir, methodTablePath), 'utf8')) as MethodTable;
}

/** Reads `_method-table-all.json` (686 models, compact) from the repository root. */
export function readMethodTableAll(): CompactMethodTable {
  return JSON.parse(readFileSync(join(rootDir, methodTableAllPath), 'utf8')) as CompactMethodTable;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const text = renderBuiltinTableModule(readMethodTableAll(), readMethodTable());
  writeFileSync(join(rootDir, generatedTablePath), text);
  console.log(`wrote ${generatedTablePath} (${Buffer.byteLength(text)} bytes)`);
}
