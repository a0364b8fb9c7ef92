/**
 * Domain parsing (odoo/orm/domains.py): prefix `&`, `|`, `!` with an implicit AND between the
 * remaining terms, `[field, operator, value]` conditions with the operator lower-cased and checked,
 * `(1, '=', 1)` / `(0, '=', 1)` as true/false. Field names are checked later, against a model.
 */
import type { Value } from '../../src/value.ts';
import { typeError, valueError } from '../errors.ts';
import { pyRepr } from '../python-repr.ts';

export type DomainNode =
  | { kind: 'true' }
  | { kind: 'false' }
  | { kind: 'and' | 'or'; children: DomainNode[] }
  | { kind: 'not'; child: DomainNode }
  | { kind: 'cond'; path: string; op: string; value: Value };

/** Odoo 19's condition operators. */
export const conditionOperators = new Set([
  '=',
  '!=',
  '<',
  '>',
  '<=',
  '>=',
  '=?',
  'in',
  'not in',
  'like',
  'not like',
  'ilike',
  'not ilike',
  '=like',
  'not =like',
  '=ilike',
  'not =ilike',
  'child_of',
  'parent_of',
  'any',
  'not any',
  'any!',
  'not any!',
]);

/** Negative operators and the positive operator they complement. */
export const positiveOf: Record<string, string> = {
  '!=': '=',
  'not in': 'in',
  'not like': 'like',
  'not ilike': 'ilike',
  'not =like': '=like',
  'not =ilike': '=ilike',
  'not any': 'any',
  'not any!': 'any!',
};

/** `(field, operator, value)` as Python prints it in error messages. */
export function conditionRepr(path: Value, op: Value, value: Value): string {
  return `(${pyRepr(path)}, ${pyRepr(op)}, ${pyRepr(value)})`;
}

function parseCondition(term: Value[]): DomainNode {
  const [path, op, value] = term as [Value, Value, Value];
  if (op === '=' && value === 1 && (path === 1 || path === 0)) return { kind: path === 1 ? 'true' : 'false' };
  if (typeof path !== 'string' || path === '') {
    throw typeError(`Empty field name in condition ${conditionRepr(path, op, value)}`);
  }
  const lowered = typeof op === 'string' ? op.toLowerCase() : op;
  if (typeof lowered !== 'string' || !conditionOperators.has(lowered)) {
    throw valueError(`Invalid operator in condition ${conditionRepr(path, lowered, value)}`);
  }
  return { kind: 'cond', path, op: lowered, value };
}

function and(children: DomainNode[]): DomainNode {
  if (children.length === 0) return { kind: 'true' };
  return children.length === 1 ? (children[0] as DomainNode) : { kind: 'and', children };
}

/** Parses a domain value; `null` is the empty domain. Throws Odoo's ValueError/TypeError. */
export function parseDomain(domain: Value): DomainNode {
  if (domain === null || domain === false) return { kind: 'true' };
  if (!Array.isArray(domain)) throw valueError(`Invalid domain: ${pyRepr(domain)}`);
  const stack: DomainNode[] = [];
  for (let i = domain.length - 1; i >= 0; i--) {
    const item = domain[i] as Value;
    if (item === '&' || item === '|') {
      const a = stack.pop();
      const b = stack.pop();
      if (a === undefined || b === undefined) throw valueError(`Domain ${pyRepr(domain)}: missing operand for '${item}'`);
      stack.push({ kind: item === '&' ? 'and' : 'or', children: [a, b] });
    } else if (item === '!') {
      const a = stack.pop();
      if (a === undefined) throw valueError(`Domain ${pyRepr(domain)}: missing operand for '!'`);
      stack.push({ kind: 'not', child: a });
    } else if (Array.isArray(item) && item.length === 3) {
      stack.push(parseCondition(item));
    } else {
      throw valueError(`Invalid domain term ${pyRepr(item)} in domain ${pyRepr(domain)}`);
    }
  }
  return and(stack.reverse());
}

/** True when a condition anywhere in the domain names `field` (it disables the implicit active filter). */
export function mentionsField(node: DomainNode, field: string): boolean {
  switch (node.kind) {
    case 'cond':
      return node.path === field;
    case 'and':
    case 'or':
      return node.children.some((c) => mentionsField(c, field));
    case 'not':
      return mentionsField(node.child, field);
    default:
      return false;
  }
}
