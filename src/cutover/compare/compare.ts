/**
 * The comparison rules of docs/architecture.md §9: XML-RPC answers as tagged values compared exactly plus the body
 * byte for byte once volatile values and tracebacks are masked; JSON answers losslessly (int vs float,
 * member order); volatile values by shape; fault 1 / internal v1 faults / JSON-RPC `data.debug` from
 * the exception line to the end; every other fault text whole.
 */
import { parseJson } from '../../json/index.ts';
import { PyFloat, type Value } from '../../value.ts';
import { parseTaggedResponse, renderTagged, type Tagged, type TaggedScalar } from './xmlrpc-tagged.ts';

/** One mismatch: where (a path from the answer's root) and what. */
export interface Difference {
  path: string;
  message: string;
}

/** Maps a recorded record id to the id the same record has in this run (see `id-map.ts`). */
export type IdLookup = (recorded: bigint) => bigint | undefined;

/** How values are compared; every field is optional. */
export interface ValueCompareOptions {
  /**
   * Paths compared by shape only (type, length, int vs list): `''` is the whole value, `ids`, `context.default_key`,
   * `[0].id`. A path covers everything below it.
   */
  volatilePaths?: readonly string[];
  /** Struct member names compared by shape wherever they occur (default: `create_date`, `write_date`). */
  shapeMembers?: ReadonlySet<string>;
  /** Paths whose string is compared by {@link exceptionTail} (tracebacks). */
  tailPaths?: readonly string[];
  /** Recorded ids of records created during the run, mapped to this run's ids. */
  mapId?: IdLookup;
  /** Compare object members as sets (upstream request bodies); default false: order matters. */
  ignoreMemberOrder?: boolean;
  /**
   * XML-RPC: once the values agree, compare the raw bodies byte for byte (after masking); default
   * true. Shadow mode compares values only.
   */
  bytes?: boolean;
}

/** The dates Odoo stamps on every write: never equal between two servers, so compared by shape. */
export const defaultShapeMembers: ReadonlySet<string> = new Set(['create_date', 'write_date']);

/**
 * The part of a Python traceback that a gateway can reproduce: from the exception line (`<name>:
 * <message>`, the first unindented line after the last frame) to the end, trailing newlines included.
 * Text without frames is returned from its last `Traceback (most recent call last):` header, else from
 * its last `<name>: ` line, else whole.
 */
export function exceptionTail(text: string): string {
  const lines = text.split('\n');
  let lastFrame = -1;
  let lastHeader = -1;
  lines.forEach((line, i) => {
    if (/^\s+File "/.test(line)) lastFrame = i;
    if (line === 'Traceback (most recent call last):') lastHeader = i;
  });
  let start = 0;
  if (lastFrame >= 0) {
    start = lastFrame + 1;
    while (start < lines.length && /^\s/.test(lines[start] ?? '')) start++;
  } else if (lastHeader >= 0) {
    start = lastHeader + 1;
  } else {
    for (let i = lines.length - 1; i >= 0; i--) {
      if (/^[A-Za-z_][\w.]*: /.test(lines[i] ?? '')) {
        start = i;
        break;
      }
    }
  }
  return lines.slice(start).join('\n');
}

const short = (text: string, max = 160): string => {
  const json = JSON.stringify(text);
  return json.length > max ? `${json.slice(0, max)}…` : json;
};

const childPath = (path: string, name: string): string => (path === '' ? name : `${path}.${name}`);
const itemPath = (path: string, i: number): string => `${path}[${i}]`;
const display = (root: string, path: string): string => (path === '' ? root : path.startsWith('[') ? root + path : `${root}.${path}`);

function covers(paths: readonly string[] | undefined, path: string): boolean {
  return (paths ?? []).some((p) => p === path || p === '' || path.startsWith(`${p}.`) || path.startsWith(`${p}[`));
}

// ---------------------------------------------------------------------------------------------
// XML-RPC

const intTags = new Set(['int', 'i1', 'i2', 'i4', 'i8', 'biginteger']);

function parseIntText(text: string): bigint | undefined {
  try {
    return BigInt(text.trim());
  } catch {
    return undefined;
  }
}

interface XmlContext {
  options: ValueCompareOptions;
  root: string;
  differences: Difference[];
  /** Source spans to mask in each body before the byte comparison. */
  masks: { expected: [number, number][]; actual: [number, number][] };
}

function maskBoth(ctx: XmlContext, e: Tagged, a: Tagged): void {
  ctx.masks.expected.push(e.span);
  ctx.masks.actual.push(a.span);
}

function tagLabel(v: Tagged): string {
  return v.kind === 'scalar' && v.untyped ? 'untyped value' : `<${v.tag}>`;
}

function compareTagged(e: Tagged, a: Tagged, path: string, shape: boolean, ctx: XmlContext): void {
  const { options } = ctx;
  const lastName = /(?:^|\.)([^.[\]]+)$/.exec(path)?.[1];
  const byShape =
    shape || covers(options.volatilePaths, path) || (lastName !== undefined && (options.shapeMembers ?? defaultShapeMembers).has(lastName));
  const where = display(ctx.root, path);
  if (e.tag !== a.tag || (e.kind === 'scalar' && a.kind === 'scalar' && e.untyped !== a.untyped)) {
    ctx.differences.push({ path: where, message: `expected ${tagLabel(e)} ${renderTagged(e)}, got ${tagLabel(a)} ${renderTagged(a)}` });
    return;
  }
  if (e.kind === 'scalar' && a.kind === 'scalar') {
    compareScalar(e, a, path, byShape, ctx);
    return;
  }
  if (e.kind === 'array' && a.kind === 'array') {
    if (e.items.length !== a.items.length) {
      ctx.differences.push({
        path: where,
        message: `expected ${e.items.length} items, got ${a.items.length}: expected ${renderTagged(e)}, got ${renderTagged(a)}`,
      });
    }
    const n = Math.min(e.items.length, a.items.length);
    for (let i = 0; i < n; i++) compareTagged(e.items[i] as Tagged, a.items[i] as Tagged, itemPath(path, i), byShape, ctx);
    return;
  }
  if (e.kind === 'struct' && a.kind === 'struct') {
    const eNames = e.members.map((m) => m.name);
    const aNames = a.members.map((m) => m.name);
    if (eNames.join('\u0000') !== aNames.join('\u0000')) {
      ctx.differences.push({ path: where, message: `expected members ${JSON.stringify(eNames)}, got ${JSON.stringify(aNames)}` });
      const actualByName = new Map(a.members.map((m) => [m.name, m.value]));
      for (const m of e.members) {
        const other = actualByName.get(m.name);
        if (other !== undefined) compareTagged(m.value, other, childPath(path, m.name), byShape, ctx);
      }
      return;
    }
    e.members.forEach((m, i) => compareTagged(m.value, (a.members[i] as { value: Tagged }).value, childPath(path, m.name), byShape, ctx));
  }
}

function compareScalar(e: TaggedScalar, a: TaggedScalar, path: string, byShape: boolean, ctx: XmlContext): void {
  const where = display(ctx.root, path);
  if (covers(ctx.options.tailPaths, path)) {
    if (exceptionTail(e.text) !== exceptionTail(a.text)) {
      ctx.differences.push({
        path: where,
        message: `exception differs: expected ${short(exceptionTail(e.text), 400)}, got ${short(exceptionTail(a.text), 400)}`,
      });
    }
    maskBoth(ctx, e, a);
    return;
  }
  if (byShape) {
    // Type is already equal; strings must also keep their length (a date stays a date).
    if (e.tag === 'string' && e.text.length !== a.text.length) {
      ctx.differences.push({
        path: where,
        message: `volatile string: expected length ${e.text.length} (${short(e.text)}), got length ${a.text.length} (${short(a.text)})`,
      });
    }
    maskBoth(ctx, e, a);
    return;
  }
  if (intTags.has(e.tag)) {
    const ev = parseIntText(e.text);
    const av = parseIntText(a.text);
    if (ev !== undefined && ev === av) return;
    if (ev !== undefined && av !== undefined && ctx.options.mapId?.(ev) === av) {
      maskBoth(ctx, e, a);
      return;
    }
    ctx.differences.push({ path: where, message: `expected <${e.tag}>${e.text}, got <${a.tag}>${a.text}` });
    return;
  }
  if (e.text !== a.text)
    ctx.differences.push({ path: where, message: `expected <${e.tag}>${short(e.text)}, got <${a.tag}>${short(a.text)}` });
}

/** How a fault's faultString is compared, from the recorded faultCode (docs/architecture.md §2 faults). */
export function faultStringRule(faultCode: Tagged): 'whole' | 'tail' {
  if (faultCode.kind !== 'scalar') return 'whole';
  if (intTags.has(faultCode.tag)) return parseIntText(faultCode.text) === 1n ? 'tail' : 'whole';
  // v1: `warning -- <Kind>` and `AccessDenied` carry fixed texts; anything else is an exception text
  // whose faultString is the traceback.
  if (faultCode.text.startsWith('warning -- ') || faultCode.text === 'AccessDenied') return 'whole';
  return 'tail';
}

function applyMasks(text: string, spans: [number, number][]): string {
  const sorted = [...spans].sort((x, y) => x[0] - y[0]);
  let out = '';
  let pos = 0;
  for (const [start, end] of sorted) {
    if (start < pos) continue; // nested in a span already masked
    out += `${text.slice(pos, start)}\u2039masked\u203a`;
    pos = end;
  }
  return out + text.slice(pos);
}

function firstLineDifference(expected: string, actual: string): string {
  const el = expected.split('\n');
  const al = actual.split('\n');
  for (let i = 0; i < Math.max(el.length, al.length); i++) {
    if (el[i] !== al[i]) return `line ${i + 1}: expected ${short(el[i] ?? '<end of body>')}, got ${short(al[i] ?? '<end of body>')}`;
  }
  return 'bodies differ';
}

/**
 * Compares two XML-RPC `methodResponse` bodies: tagged values first (with `options`, rooted at the
 * result or the fault struct), then — when those agree — the raw bodies byte for byte after masking
 * volatile values, mapped ids and traceback faultStrings. An unparsable body is one difference.
 */
export function compareXmlrpcBodies(expected: string, actual: string, options: ValueCompareOptions = {}): Difference[] {
  let e;
  let a;
  try {
    e = parseTaggedResponse(expected);
  } catch (err) {
    return [{ path: 'body', message: `recorded body is not XML-RPC: ${(err as Error).message}` }];
  }
  try {
    a = parseTaggedResponse(actual);
  } catch (err) {
    return [{ path: 'body', message: `answer is not an XML-RPC methodResponse: ${(err as Error).message}; body ${short(actual, 300)}` }];
  }
  const ctx: XmlContext = { options, root: 'result', differences: [], masks: { expected: [], actual: [] } };
  if (e.kind !== a.kind) {
    const show = (r: typeof e) =>
      r.kind === 'fault' ? `fault ${renderTagged(r.fault)}` : `result ${r.params.map((p) => renderTagged(p)).join(', ')}`;
    return [{ path: 'body', message: `expected ${show(e)}, got ${show(a)}` }];
  }
  if (e.kind === 'params' && a.kind === 'params') {
    if (e.params.length !== a.params.length)
      ctx.differences.push({ path: 'params', message: `expected ${e.params.length} params, got ${a.params.length}` });
    e.params.forEach((p, i) => {
      const other = a.params[i];
      if (other !== undefined) compareTagged(p, other, i === 0 ? '' : `[param ${i}]`, false, ctx);
    });
  } else if (e.kind === 'fault' && a.kind === 'fault') {
    ctx.root = 'fault';
    const code = e.fault.kind === 'struct' ? e.fault.members.find((m) => m.name === 'faultCode')?.value : undefined;
    const rule = code === undefined ? 'whole' : faultStringRule(code);
    const faultOptions: ValueCompareOptions = {
      ...options,
      // The whole-value volatile marker applies to results; a fault keeps its exact rules.
      volatilePaths: (options.volatilePaths ?? []).filter((p) => p !== ''),
      tailPaths: rule === 'tail' ? ['faultString'] : [],
    };
    compareTagged(e.fault, a.fault, '', false, { ...ctx, options: faultOptions });
  }
  if (ctx.differences.length > 0 || options.bytes === false) return ctx.differences;
  const maskedExpected = applyMasks(expected, ctx.masks.expected);
  const maskedActual = applyMasks(actual, ctx.masks.actual);
  if (maskedExpected !== maskedActual) {
    return [{ path: 'body', message: `same values, different bytes: ${firstLineDifference(maskedExpected, maskedActual)}` }];
  }
  return [];
}

// ---------------------------------------------------------------------------------------------
// JSON

type JsonKind = 'null' | 'bool' | 'int' | 'float' | 'string' | 'array' | 'object' | 'other';

function jsonKind(v: Value): JsonKind {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number' || typeof v === 'bigint') return 'int';
  if (typeof v === 'string') return 'string';
  if (v instanceof PyFloat) return 'float';
  if (Array.isArray(v)) return 'array';
  if (v instanceof Map) return 'object';
  return 'other';
}

/** A short, typed rendering of a lossless JSON value for diffs (floats keep their `.0`). */
export function renderJson(v: Value, max = 160): string {
  const render = (x: Value): string => {
    switch (jsonKind(x)) {
      case 'null':
        return 'null';
      case 'float': {
        const n = (x as PyFloat).value;
        return Number.isInteger(n) ? `${n}.0` : String(n);
      }
      case 'int':
      case 'bool':
        return String(x);
      case 'string':
        return JSON.stringify(x);
      case 'array':
        return `[${(x as Value[]).map(render).join(', ')}]`;
      case 'object':
        return `{${[...(x as Map<string, Value>)].map(([k, val]) => `${JSON.stringify(k)}: ${render(val)}`).join(', ')}}`;
      default:
        return String(x);
    }
  };
  const text = render(v);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * Compares two lossless JSON values (int vs float, object member order unless
 * `ignoreMemberOrder`) under `options`; `root` names the value in messages.
 */
export function compareJsonValues(expected: Value, actual: Value, options: ValueCompareOptions = {}, root = 'body'): Difference[] {
  const differences: Difference[] = [];
  const walk = (e: Value, a: Value, path: string, shape: boolean): void => {
    const lastName = /(?:^|\.)([^.[\]]+)$/.exec(path)?.[1];
    const byShape =
      shape ||
      covers(options.volatilePaths, path) ||
      (lastName !== undefined && (options.shapeMembers ?? defaultShapeMembers).has(lastName));
    const where = display(root, path);
    const ek = jsonKind(e);
    const ak = jsonKind(a);
    if (ek !== ak) {
      const typed = (k: JsonKind, v: Value) => (k === 'null' ? 'null' : `${k} ${renderJson(v)}`);
      differences.push({ path: where, message: `expected ${typed(ek, e)}, got ${typed(ak, a)}` });
      return;
    }
    switch (ek) {
      case 'string': {
        const es = e as string;
        const as = a as string;
        if (covers(options.tailPaths, path)) {
          if (exceptionTail(es) !== exceptionTail(as)) {
            differences.push({
              path: where,
              message: `exception differs: expected ${short(exceptionTail(es), 400)}, got ${short(exceptionTail(as), 400)}`,
            });
          }
        } else if (byShape) {
          if (es.length !== as.length)
            differences.push({
              path: where,
              message: `volatile string: expected length ${es.length} (${short(es)}), got length ${as.length} (${short(as)})`,
            });
        } else if (es !== as) {
          differences.push({ path: where, message: `expected ${short(es)}, got ${short(as)}` });
        }
        return;
      }
      case 'int': {
        if (byShape) return;
        const ev = BigInt(e as number | bigint);
        const av = BigInt(a as number | bigint);
        if (ev !== av && options.mapId?.(ev) !== av) differences.push({ path: where, message: `expected ${ev}, got ${av}` });
        return;
      }
      case 'float': {
        if (byShape) return;
        const ev = (e as PyFloat).value;
        const av = (a as PyFloat).value;
        if (!Object.is(ev, av)) differences.push({ path: where, message: `expected ${renderJson(e)}, got ${renderJson(a)}` });
        return;
      }
      case 'bool':
        if (!byShape && e !== a) differences.push({ path: where, message: `expected ${String(e)}, got ${String(a)}` });
        return;
      case 'array': {
        const ea = e as Value[];
        const aa = a as Value[];
        if (ea.length !== aa.length)
          differences.push({
            path: where,
            message: `expected ${ea.length} items, got ${aa.length}: expected ${renderJson(e)}, got ${renderJson(a)}`,
          });
        for (let i = 0; i < Math.min(ea.length, aa.length); i++) walk(ea[i] as Value, aa[i] as Value, itemPath(path, i), byShape);
        return;
      }
      case 'object': {
        const em = e as Map<string, Value>;
        const am = a as Map<string, Value>;
        const ek2 = [...em.keys()];
        const ak2 = [...am.keys()];
        const sameSet = ek2.length === ak2.length && ek2.every((k) => am.has(k));
        const sameOrder = sameSet && ek2.every((k, i) => ak2[i] === k);
        if (!sameSet || (!sameOrder && !options.ignoreMemberOrder)) {
          differences.push({ path: where, message: `expected members ${JSON.stringify(ek2)}, got ${JSON.stringify(ak2)}` });
        }
        for (const [k, v] of em) if (am.has(k)) walk(v, am.get(k) as Value, childPath(path, k), byShape);
        return;
      }
      default:
        if (e !== a) differences.push({ path: where, message: `expected ${String(e)}, got ${String(a)}` });
    }
  };
  walk(expected, actual, '', false);
  return differences;
}

/** Parses JSON text losslessly; `undefined` when it is not JSON. */
export function parseJsonText(text: string): Value | undefined {
  try {
    return parseJson(text);
  } catch {
    return undefined;
  }
}

/**
 * Compares two `/jsonrpc` answer bodies losslessly: the envelope exactly, `result` under `options`
 * (a whole-value volatile marker applies to `result`), `error.data.debug` by {@link exceptionTail}.
 */
export function compareJsonrpcBodies(expected: string, actual: string, options: ValueCompareOptions = {}): Difference[] {
  const e = parseJsonText(expected);
  if (e === undefined) return [{ path: 'body', message: 'recorded body is not JSON' }];
  const a = parseJsonText(actual);
  if (a === undefined) return [{ path: 'body', message: `answer is not JSON: ${short(actual, 300)}` }];
  const volatilePaths = (options.volatilePaths ?? []).map((p) => (p === '' ? 'result' : `result.${p}`));
  return compareJsonValues(e, a, { ...options, volatilePaths, tailPaths: ['error.data.debug'] }, 'envelope');
}

/** Compares an HTTP status and content type, which every case checks. */
export function compareHttp(
  expected: { status: number; contentType: string },
  actual: { status: number; contentType: string },
): Difference[] {
  const out: Difference[] = [];
  if (expected.status !== actual.status) out.push({ path: 'status', message: `expected HTTP ${expected.status}, got ${actual.status}` });
  if (expected.contentType !== actual.contentType) {
    out.push({
      path: 'content-type',
      message: `expected ${JSON.stringify(expected.contentType)}, got ${JSON.stringify(actual.contentType)}`,
    });
  }
  return out;
}
