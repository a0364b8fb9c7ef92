/**
 * The bodies `/web/database/*` read (Odoo: `addons/web/controllers/database.py`): `application/x-www-form-urlencoded` forms, and
 * for restore a `multipart/form-data` form built with undici's FormData, the backup as a Blob
 * assembled from its decoded chunks (each chunk copied once, then free to go).
 */
import { FormData } from 'undici';

/** Form fields in the order they are sent. */
export type FormFields = readonly (readonly [string, string])[];

/** The urlencoded body of `fields` (what a browser's form submit sends). */
export function urlencodedForm(fields: FormFields): string {
  return new URLSearchParams(fields.map(([k, v]): [string, string] => [k, v])).toString();
}

/** A file field: its form name, file name, media type and bytes (in chunks). */
export interface FormFile {
  field: string;
  filename: string;
  type: string;
  chunks: Iterable<Uint8Array>;
}

/** The multipart form of `fields` followed by `file`. */
export function multipartForm(fields: FormFields, file: FormFile): FormData {
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  // A Blob of a Blob and a chunk references the first: the decoded chunks are never all held twice.
  let blob = new Blob([], { type: file.type });
  for (const chunk of file.chunks) blob = new Blob([blob, chunk], { type: file.type });
  form.append(file.field, blob, file.filename);
  return form;
}
