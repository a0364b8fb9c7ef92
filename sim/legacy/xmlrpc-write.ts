/**
 * The simulator's own XML-RPC marshaller (Odoo: `addons/rpc/controllers/xmlrpc.py`: the stdlib `Marshaller` under Odoo's
 * `OdooMarshaller(allow_none=False)`, wrapped by Odoo's `dumps`). Independent of the gateway's
 * encoder on purpose (see `xmlrpc-read.ts`). Faults follow Odoo: `addons/rpc/controllers/xmlrpc.py`.
 */
import { PyBinary, PyDateTime, PyDecimal, PyFloat, type Value } from '../../src/value.ts';
import { pythonFloatRepr } from './python-float.ts';

/** What the marshaller refuses, as the Python exception it raises. */
export class MarshalError extends Error {
  constructor(
    readonly pythonName: string,
    message: string,
  ) {
    super(message);
  }
}

const maxInt = 2n ** 31n - 1n;
const minInt = -(2n ** 31n);

/** `escape()` of xmlrpc.client, after Odoo strips the control characters XML cannot carry. */
function text(s: string): string {
  return (
    s
      // eslint-disable-next-line no-control-regex
      .replace(/[\x00-\x08\x0b\x0c\x0e-\x1f]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
  );
}

/** Appends one value in the stdlib's layout: one element per line. */
function dump(v: Value, out: string[], perturb: Perturbation | undefined): void {
  if (v === null) throw new MarshalError('TypeError', 'cannot marshal None unless allow_none is enabled');
  if (typeof v === 'boolean') out.push(`<value><boolean>${v ? 1 : 0}</boolean></value>\n`);
  else if (typeof v === 'number' || typeof v === 'bigint') {
    const n = BigInt(v);
    if (n > maxInt || n < minInt) throw new MarshalError('OverflowError', 'int exceeds XML-RPC limits');
    out.push(`<value><int>${n}</int></value>\n`);
  } else if (typeof v === 'string') out.push(`<value><string>${text(v)}</string></value>\n`);
  else if (v instanceof PyFloat) {
    // the test switch: a float written as an int, the difference a typed client breaks on
    if (perturb === 'double-as-int' && Number.isFinite(v.value)) out.push(`<value><int>${Math.trunc(v.value)}</int></value>\n`);
    else out.push(`<value><double>${pythonFloatRepr(v.value)}</double></value>\n`);
  } else if (v instanceof PyBinary) out.push(`<value><string>${v.base64}</string></value>\n`);
  else if (v instanceof PyDateTime) out.push(`<value><string>${v.odoo}</string></value>\n`);
  else if (v instanceof PyDecimal) out.push(`<value><string>${text(v.text)}</string></value>\n`);
  else if (Array.isArray(v)) {
    out.push('<value><array><data>\n');
    for (const item of v) dump(item, out, perturb);
    out.push('</data></array></value>\n');
  } else {
    out.push('<value><struct>\n');
    for (const [name, item] of v) {
      out.push(`<member>\n<name>${text(name)}</name>\n`);
      dump(item, out, perturb);
      out.push('</member>\n');
    }
    out.push('</struct></value>\n');
  }
}

/** A deliberate change to one answer type (tests prove a difference is detected). */
export type Perturbation = 'double-as-int';

const wrap = (inner: string) => `<?xml version="1.0"?>\n<methodResponse>\n${inner}\n</methodResponse>\n`;

/** A result as Odoo's `dumps((result,))` writes it; throws {@link MarshalError} where Python would. */
export function writeResult(result: Value, perturb?: Perturbation): string {
  const out: string[] = ['<params>\n<param>\n'];
  dump(result, out, perturb);
  out.push('</param>\n</params>\n');
  return wrap(out.join(''));
}

/** A fault: `faultCode` (an int on `/xmlrpc/2`, a string on `/xmlrpc`) and `faultString`. */
export function writeFault(faultCode: number | string, faultString: string): string {
  const out: string[] = ['<fault>\n'];
  dump(
    new Map<string, Value>([
      ['faultCode', faultCode],
      ['faultString', faultString],
    ]),
    out,
    undefined,
  );
  out.push('</fault>\n');
  return wrap(out.join(''));
}
