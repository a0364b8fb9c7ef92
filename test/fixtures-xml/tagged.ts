/**
 * Test helpers for the expat-parity table (test/fixtures-xml/expat-table.json, written by
 * gen_expat_table.py): decoded values as the table's tagged JSON, and the table's rows.
 */
import { readFileSync } from 'node:fs';
import { floatRepr } from '../../src/python/float-repr.ts';
import { PyBinary, PyDateTime, PyFloat, type Value } from '../../src/value.ts';

/** What Python raised: the traceback's last line and Odoo's exception_to_unicode text. */
export interface PythonErrorOutcome {
  name: string;
  last: string;
  message: string;
}

/** One table row: a request body and what `xmlrpc.client.loads` made of it. */
export interface ExpatRow {
  id: string;
  body: string;
  text?: string;
  ok?: { method: string | null; params: unknown[] };
  error?: PythonErrorOutcome;
}

/** The rows of expat-table.json. */
export function readExpatTable(): ExpatRow[] {
  const url = new URL('./expat-table.json', import.meta.url);
  return (JSON.parse(readFileSync(url, 'utf8')) as { rows: ExpatRow[] }).rows;
}

/** A decoded value in the table's tagged form (`['int', '1']`, `['struct', [[k, v]]]`, ...). */
export function tagged(v: Value): unknown {
  if (v === null) return ['nil'];
  if (typeof v === 'boolean') return ['bool', v];
  if (typeof v === 'number' || typeof v === 'bigint') return ['int', String(v)];
  if (typeof v === 'string') return ['str', v];
  if (v instanceof PyFloat) return ['float', floatRepr(v.value)];
  if (Array.isArray(v)) return ['array', v.map(tagged)];
  if (v instanceof Map) return ['struct', [...v].map(([k, item]) => [k, tagged(item)])];
  if (v instanceof PyDateTime) return ['datetime', v.odoo];
  if (v instanceof PyBinary) return ['binary', Buffer.from(v.base64, 'base64').toString('base64')];
  return ['decimal', v.text];
}
