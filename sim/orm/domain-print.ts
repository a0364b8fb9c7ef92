/**
 * `list(Domain(...))` (odoo/orm/domains.py): a domain as Odoo 19 builds and prints it back. Nested
 * ANDs (and ORs) are flattened, TRUE disappears from an AND (FALSE from an OR) and absorbs an OR
 * (FALSE an AND), `!` on a plain condition becomes the inverse operator, `!!x` is `x`, and TRUE and
 * FALSE print as `[1, '=', 1]` and `[0, '=', 1]`. `read_group` prints its groups' `__domain` so.
 */
import type { Value } from '../../src/value.ts';
import type { DomainNode } from './domain-parse.ts';

const inverse: Record<string, string> = {
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

function nary(kind: 'and' | 'or', children: DomainNode[]): DomainNode {
  const neutral = kind === 'and' ? 'true' : 'false';
  const out: DomainNode[] = [];
  for (const child of children) {
    if (child.kind === 'true' || child.kind === 'false') {
      if (child.kind !== neutral) return child;
    } else if (child.kind === kind) out.push(...child.children);
    else out.push(child);
  }
  if (out.length === 0) return { kind: neutral };
  return out.length === 1 ? (out[0] as DomainNode) : { kind, children: out };
}

function negate(node: DomainNode): DomainNode {
  if (node.kind === 'true') return { kind: 'false' };
  if (node.kind === 'false') return { kind: 'true' };
  if (node.kind === 'not') return node.child;
  if (node.kind === 'cond' && !node.path.includes('.') && inverse[node.op] !== undefined)
    return { ...node, op: inverse[node.op] as string };
  return { kind: 'not', child: node };
}

/** The node as Odoo's Domain constructors leave it. */
function built(node: DomainNode): DomainNode {
  switch (node.kind) {
    case 'and':
    case 'or':
      return nary(node.kind, node.children.map(built));
    case 'not':
      return negate(built(node.child));
    default:
      return node;
  }
}

/** The AND of the domains, printed as `list()` prints it. */
export function andDomainList(domains: DomainNode[]): Value[] {
  const print = (node: DomainNode): Value[] => {
    switch (node.kind) {
      case 'true':
        return [[1, '=', 1]];
      case 'false':
        return [[0, '=', 1]];
      case 'cond':
        return [[node.path, node.op, node.value === null ? false : node.value]];
      case 'not':
        return ['!', ...print(node.child)];
      default:
        return [...Array<Value>(node.children.length - 1).fill(node.kind === 'and' ? '&' : '|'), ...node.children.flatMap(print)];
    }
  };
  return print(nary('and', domains.map(built)));
}
