/**
 * The routes file (`--routes-file`, YAML or JSON): which mode serves which calls. Read with the
 * `yaml` package (JSON is YAML too), so every problem names its line; validated with zod. A file
 * that does not validate is refused whole — at start the gateway does not start, on a reload the
 * routes in force stay (`route-table.ts`).
 *
 * ```yaml
 * routes:
 *   - name: erp-sync-verify            # optional; named in logs, the report and deny faults
 *     match:                            # every selector given must match; none: every call
 *       database: demo                  # a name or a list; `*` matches any run of characters
 *       login: [sync@example.com]       # see docs/cutover.md for which calls carry a login
 *       userAgent: '^erp-sync/'         # a regular expression, searched in the User-Agent
 *       source: [10.1.0.0/16, 192.0.2.7] # an address or a CIDR subnet
 *       service: object                 # common, db or object
 *       method: res.partner.*           # model.method for object calls, service.method otherwise
 *     mode: verify                      # native, verify, translate or deny
 * ```
 */
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { LineCounter, parseDocument } from 'yaml';
import { z } from 'zod';
import { routeModes, type RouteMode } from '../../config.ts';

export { routeModes, type RouteMode };

/** What a rule matches; an absent selector matches every call. */
export interface RouteMatch {
  database?: string[];
  login?: string[];
  userAgent?: string;
  source?: string[];
  service?: string[];
  method?: string[];
}

/** One rule of the file, in file order. */
export interface RouteRule {
  /** Its `name`, or `rule <n> (line <l>)`. */
  name: string;
  /** The line the rule starts on. */
  line: number;
  match: RouteMatch;
  mode: RouteMode;
}

const oneOrMany = (item: z.ZodString) =>
  z.union([item, z.array(item).min(1, 'give at least one value')]).transform((v) => (Array.isArray(v) ? v : [v]));

const name = z.string().min(1, 'give a non-empty value');
const regex = z
  .string()
  .min(1)
  .refine(
    (text) => {
      try {
        new RegExp(text);
        return true;
      } catch {
        return false;
      }
    },
    { message: 'not a valid regular expression' },
  );
const source = z.string().refine((text) => isSource(text), { message: 'give an IPv4 or IPv6 address or a CIDR subnet, e.g. 10.1.0.0/16' });
const method = z.string().regex(/^[A-Za-z0-9_.*]+$/, 'give model.method (object calls) or service.method, e.g. res.partner.write');

const matchSchema = z.strictObject({
  database: oneOrMany(name).optional(),
  login: oneOrMany(name).optional(),
  userAgent: regex.optional(),
  source: oneOrMany(source).optional(),
  service: z
    .union([z.enum(['common', 'db', 'object']), z.array(z.enum(['common', 'db', 'object'])).min(1)])
    .transform((v) => (Array.isArray(v) ? v : [v]))
    .optional(),
  method: oneOrMany(method).optional(),
});

const ruleSchema = z.strictObject({
  name: name.optional(),
  match: matchSchema.optional(),
  mode: z.enum(routeModes, { message: `one of ${routeModes.join(', ')}` }),
});

const fileSchema = z.strictObject({ routes: z.array(ruleSchema) });

/** True for an address or a CIDR subnet node:net's BlockList takes. */
function isSource(text: string): boolean {
  const [address, prefix, extra] = text.split('/');
  if (extra !== undefined || address === undefined) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/** The rules of a routes file's text, or its problems (each naming its line). */
export function parseRoutes(text: string, file = 'the routes file'): RouteRule[] | { problems: string[] } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    return {
      problems: doc.errors.map((e) => `${file} line ${lineCounter.linePos(e.pos[0]).line}: ${e.message.split('\n')[0] ?? e.code}`),
    };
  }
  const lineOf = (path: readonly PropertyKey[]): number => {
    for (let n = path.length; n >= 0; n--) {
      const node = doc.getIn(path.slice(0, n) as unknown[], true) as { range?: [number, number, number] } | undefined;
      if (node !== null && typeof node === 'object' && Array.isArray(node.range)) return lineCounter.linePos(node.range[0]).line;
    }
    return 1;
  };
  const parsed = fileSchema.safeParse(doc.toJS() ?? {});
  if (!parsed.success) {
    return {
      problems: parsed.error.issues.map((issue) => {
        const where = issue.path.length === 0 ? '' : ` (${issue.path.join('.')})`;
        if (issue.code === 'unrecognized_keys')
          return `${file} line ${lineOf([...issue.path, issue.keys[0] ?? ''])}${where}: unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}`;
        const missing = issue.path.length > 0 && !doc.hasIn(issue.path as unknown[]);
        return `${file} line ${lineOf(issue.path)}${where}: ${missing ? 'required' : issue.message}`;
      }),
    };
  }
  const rules: RouteRule[] = parsed.data.routes.map((r, i) => {
    const line = lineOf(['routes', i]);
    const match: RouteMatch = {};
    for (const [k, v] of Object.entries(r.match ?? {})) if (v !== undefined) (match as Record<string, unknown>)[k] = v;
    return { name: r.name ?? `rule ${i + 1} (line ${line})`, line, match, mode: r.mode };
  });
  const seen = new Map<string, number>();
  const problems: string[] = [];
  for (const r of rules) {
    const first = seen.get(r.name);
    if (first !== undefined) problems.push(`${file} line ${r.line}: the name ${JSON.stringify(r.name)} is already used on line ${first}`);
    else seen.set(r.name, r.line);
  }
  return problems.length > 0 ? { problems } : rules;
}

/** Reads and validates `path`. */
export function readRoutesFile(path: string): RouteRule[] | { problems: string[] } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    return {
      problems: [`--routes-file ${JSON.stringify(path)}: cannot read the file (${(err as NodeJS.ErrnoException).code ?? 'error'})`],
    };
  }
  return parseRoutes(text, path);
}
