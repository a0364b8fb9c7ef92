/**
 * Reads the operator's signatures file (`--signatures-file`, JSON or YAML) once at start. Every
 * mistake — unreadable file, syntax, duplicate keys, wrong shapes — is reported together, one line
 * each, as a {@link ConfigError}, so the gateway does not start with a half-read file.
 */
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parseDocument } from 'yaml';
import { ConfigError } from '../config.ts';
import { validateOverrides, type OverrideTable } from './validate-overrides.ts';

const settingName = '--signatures-file / SIGNATURES_FILE';

/** The file's text parsed to plain data, or its syntax problems (with line and column). */
function parseOverridesText(text: string): { tree: unknown; problems: string[] } {
  // JSON is YAML 1.2; parsing both with `yaml` also catches JSON's silently duplicated keys.
  const doc = parseDocument(text, { uniqueKeys: true });
  const problems = doc.errors.map((e) => e.message.split('\n')[0] as string);
  return { tree: problems.length === 0 ? doc.toJS() : undefined, problems };
}

/**
 * Loads and validates `path` (`.json`, `.yaml` or `.yml`). Returns the declared signatures; throws
 * a ConfigError whose lines each start with the setting and the path.
 */
export function loadOverridesFile(path: string): OverrideTable {
  const fail = (problems: string[]): never => {
    throw new ConfigError(problems.map((p) => `${settingName}: ${path}: ${p}`));
  };
  const extension = extname(path).toLowerCase();
  if (!['.json', '.yaml', '.yml'].includes(extension)) fail(['the file name must end in .json, .yaml or .yml']);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return fail([`cannot read the file${code === undefined ? '' : ` (${code})`}`]);
  }
  const parsed = parseOverridesText(text);
  if (parsed.problems.length > 0) fail(parsed.problems);
  const { table, problems } = validateOverrides(parsed.tree);
  if (problems.length > 0) fail(problems);
  return table;
}
