/** Reads python-numbers.json (written by gen_python_numbers.py): CPython 3.11's text conversions. */
import { readFileSync } from 'node:fs';

/** Python's result (`ok`, as text) or its exception (class name and `str(e)`). */
export interface PythonAnswer {
  ok?: string;
  error?: string;
  message?: string;
}

/** Each conversion: `[input text, Python answer]` rows (repr: `[text, repr]`). */
export interface PythonNumbers {
  int: [string, PythonAnswer][];
  float: [string, PythonAnswer][];
  repr: [string, string][];
  decimal: [string, PythonAnswer][];
  datetime: [string, PythonAnswer][];
  base64: [string, PythonAnswer][];
}

/** The table, keyed by conversion. */
export function readPythonNumbers(): PythonNumbers {
  return JSON.parse(readFileSync(new URL('./python-numbers.json', import.meta.url), 'utf8')) as PythonNumbers;
}

/** A short printable label for a test title. */
export function label(text: string): string {
  const json = JSON.stringify(text);
  return json.length > 40 ? `${json.slice(0, 37)}…` : json;
}
