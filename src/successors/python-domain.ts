/**
 * Odoo 19.0's `Domain` (odoo/orm/domains.py) as far as `read_group` uses it: `Domain(list)` parses a
 * prefix-notation domain, `&` flattens n-ary ANDs and drops TRUE, `~` turns a negatable condition
 * into its inverse operator, and `list(domain)` prints it back. No optimisation: `read_group` prints
 * the domain unoptimised. Only domains the upstream has already accepted are parsed here.
 */
import { PyFloat, type Value } from '../value.ts';

export type Domain =
  | { kind: 'bool'; value: boolean }
  | { kind: 'and' | 'or'; children: Domain[] }
  | { kind: 'not'; child: Domain }
  | { kind: 'condition'; field: Value; operator: Value; value: Value };

const TRUE: Domain = { kind: 'bool', value: true };
const FALSE: Domain = { kind: 'bool', value: false };

/** `_INVERSE_OPERATOR`: what `~condition` becomes for a plain field name. */
const inverseOperator: Record<string, string> = {
  'not any': 'any',
  'not any!': 'any!',
  'not in': 'in',
  'not like': 'like',
  'not ilike': 'ilike',
  'not =like': '=like',
  'not =ilike': '=ilike',
  '!=': '=',
  '<>': '=',
  any: 'not any',
  'any!': 'not any!',
  in: 'not in',
  like: 'not like',
  ilike: 'not ilike',
  '=like': 'not =like',
  '=ilike': 'not =ilike',
  '=': '!=',
};

/** A domain the gateway cannot read as Odoo would (the upstream accepted it, so this is a gateway gap). */
export class DomainShapeError extends Error {}

/** Python's `x == n` for an int n: True, 1 and 1.0 are all equal to 1. */
function pyEqualsInt(x: Value, n: number): boolean {
  if (typeof x === 'boolean') return Number(x) === n;
  if (typeof x === 'number') return x === n;
  if (typeof x === 'bigint') return x === BigInt(n);
  return x instanceof PyFloat && x.value === n;
}

function condition(item: Value[]): Domain {
  const [field, operator, value] = item as [Value, Value, Value];
  if (typeof field !== 'string') {
    if (pyEqualsInt(field, 1) && operator === '=' && pyEqualsInt(value, 1)) return TRUE;
    if (pyEqualsInt(field, 0) && operator === '=' && pyEqualsInt(value, 1)) return FALSE;
    throw new DomainShapeError('invalid condition');
  }
  if (typeof operator !== 'string') throw new DomainShapeError('invalid operator');
  // checked(): lower-case operator, None is False
  return { kind: 'condition', field, operator: operator.toLowerCase(), value: value === null ? false : value };
}

/** `DomainNary.apply`: flattens same-kind children; TRUE vanishes from an AND, FALSE absorbs it (dually for OR). */
function nary(kind: 'and' | 'or', items: Domain[]): Domain {
  const zero = kind === 'and';
  const children: Domain[] = [];
  for (const child of items) {
    if (child.kind === 'bool') {
      if (child.value !== zero) return child;
    } else if (child.kind === kind) children.push(...child.children);
    else children.push(child);
  }
  if (children.length === 0) return zero ? TRUE : FALSE;
  if (children.length === 1) return children[0] as Domain;
  return { kind, children };
}

export const and = (items: Domain[]): Domain => nary('and', items);

function invert(d: Domain): Domain {
  if (d.kind === 'bool') return d.value ? FALSE : TRUE;
  if (d.kind === 'not') return d.child;
  if (d.kind === 'condition' && typeof d.field === 'string' && !d.field.includes('.') && typeof d.operator === 'string') {
    const neg = inverseOperator[d.operator];
    if (neg !== undefined) return { ...d, operator: neg };
  }
  return { kind: 'not', child: d };
}

/** `Domain(value)` for a list domain (`[]` and `True` are TRUE, `False` is FALSE). */
export function parseDomain(value: Value): Domain {
  if (value === true) return TRUE;
  if (value === false) return FALSE;
  if (!Array.isArray(value)) throw new DomainShapeError('not a list');
  if (value.length === 0) return TRUE;
  const stack: Domain[] = [];
  const pop = (): Domain => {
    const d = stack.pop();
    if (d === undefined) throw new DomainShapeError('malformed domain');
    return d;
  };
  for (const item of [...value].reverse()) {
    if (Array.isArray(item) && item.length === 3) stack.push(condition(item));
    else if (item === '&') stack.push(nary('and', [pop(), pop()]));
    else if (item === '|') stack.push(nary('or', [pop(), pop()]));
    else if (item === '!') stack.push(invert(pop()));
    else throw new DomainShapeError('invalid item');
  }
  return stack.length === 1 ? (stack[0] as Domain) : nary('and', stack.reverse());
}

/** `list(domain)`: prefix notation, conditions as 3-item lists. */
export function domainList(d: Domain): Value[] {
  switch (d.kind) {
    case 'bool':
      return [d.value ? [1, '=', 1] : [0, '=', 1]];
    case 'not':
      return ['!', ...domainList(d.child)];
    case 'condition':
      return [[d.field, d.operator, d.value]];
    default:
      return [...Array<Value>(d.children.length - 1).fill(d.kind === 'and' ? '&' : '|'), ...d.children.flatMap(domainList)];
  }
}

/** The conditions of a flattened AND, in order (a lone non-AND domain is its own single child). */
export function andChildren(d: Domain): Domain[] {
  if (d.kind === 'and') return d.children;
  if (d.kind === 'bool' && d.value) return [];
  return [d];
}
