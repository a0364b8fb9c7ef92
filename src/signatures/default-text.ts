/**
 * The Python source text of a parameter default given as a JSON value (what `/doc-bearer` and the
 * signatures file carry), in the form the built-in table writes it: `None`, `False`, `0`, `'ilike'`.
 */
import { floatRepr } from '../python/float-repr.ts';
import { pyRepr } from '../python/int-text.ts';
import { PyFloat } from '../value.ts';

/**
 * `repr()` of a default: JSON null/booleans/numbers/strings/arrays/objects as Python writes the
 * equivalent `None`/`True`/`0`/`'x'`/`[…]`/`{…}`. Accepts lossless-JSON values (`Map`, `PyFloat`,
 * `bigint`) and plain ones (YAML's objects and numbers). Anything else is shown as `…`.
 */
export function defaultTextFromValue(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'bigint') return String(value);
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : floatRepr(value);
  if (value instanceof PyFloat) return floatRepr(value.value);
  if (typeof value === 'string') return pyRepr(value);
  if (Array.isArray(value)) return `[${value.map(defaultTextFromValue).join(', ')}]`;
  const entries = value instanceof Map ? [...value] : typeof value === 'object' ? Object.entries(value) : undefined;
  if (entries === undefined) return '…';
  return `{${entries.map(([k, v]) => `${pyRepr(String(k))}: ${defaultTextFromValue(v)}`).join(', ')}}`;
}
