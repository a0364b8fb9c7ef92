/**
 * CPython 3.11's TypeError texts for using a value that is not iterable as a call's arguments, as
 * the legacy services' `dispatch` functions do with `/jsonrpc`'s `args` (null, a number, a bool).
 * 3.12 words the first one `Value after * must be an iterable, not NoneType`; the real Odoo 19 this
 * project is checked against runs on 3.11, as `arityError` assumes too.
 */
import { pyTypeName, type Value } from '../value.ts';

/** `fn(*value)`: `odoo.service.common.exp_version() argument after * must be an iterable, not NoneType`. */
export function starArgsError(qualifiedName: string, value: Value): string {
  return `${qualifiedName}() argument after * must be an iterable, not ${pyTypeName(value)}`;
}

/** `a, b, *rest = value`: `cannot unpack non-iterable NoneType object`. */
export function unpackError(value: Value): string {
  return `cannot unpack non-iterable ${pyTypeName(value)} object`;
}

/** `value[0]`: `'NoneType' object is not subscriptable`. */
export function subscriptError(value: Value): string {
  return `'${pyTypeName(value)}' object is not subscriptable`;
}
