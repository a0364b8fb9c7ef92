/**
 * The form bodies of the `/web/database/*` routes as werkzeug reads them: urlencoded fields, and
 * `multipart/form-data` fields and files (restore's `backup_file`). Repeated fields keep the first
 * value, as `request.params` does.
 */

/** A parsed form: text fields, and files as bytes. */
export interface ParsedForm {
  fields: Map<string, string>;
  files: Map<string, { filename: string; data: Buffer }>;
}

/** Parses `application/x-www-form-urlencoded` text. */
export function parseUrlencoded(body: string): ParsedForm {
  const fields = new Map<string, string>();
  for (const [k, v] of new URLSearchParams(body)) if (!fields.has(k)) fields.set(k, v);
  return { fields, files: new Map() };
}

function headerParam(header: string, name: string): string | undefined {
  const m = new RegExp(`;\\s*${name}="([^"]*)"`, 'i').exec(header) ?? new RegExp(`;\\s*${name}=([^;\\s]+)`, 'i').exec(header);
  return m?.[1];
}

/** Parses a `multipart/form-data` body with the boundary of its Content-Type; undefined when malformed. */
export function parseMultipart(body: Buffer, contentType: string): ParsedForm | undefined {
  const boundary = headerParam(contentType, 'boundary');
  if (boundary === undefined) return undefined;
  const delimiter = Buffer.from(`--${boundary}`);
  const fields = new Map<string, string>();
  const files = new Map<string, { filename: string; data: Buffer }>();
  let at = body.indexOf(delimiter);
  if (at === -1) return undefined;
  for (;;) {
    at += delimiter.length;
    if (body.subarray(at, at + 2).toString() === '--') break; // closing delimiter
    at += 2; // CRLF after the delimiter
    const headerEnd = body.indexOf('\r\n\r\n', at);
    if (headerEnd === -1) return undefined;
    const headers = body.subarray(at, headerEnd).toString('utf8');
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), headerEnd + 4);
    if (next === -1) return undefined;
    const data = body.subarray(headerEnd + 4, next);
    const disposition = /^content-disposition:(.*)$/im.exec(headers)?.[1] ?? '';
    const name = headerParam(disposition, 'name');
    const filename = headerParam(disposition, 'filename');
    if (name !== undefined) {
      if (filename !== undefined) {
        if (!files.has(name)) files.set(name, { filename, data: Buffer.from(data) });
      } else if (!fields.has(name)) fields.set(name, data.toString('utf8'));
    }
    at = next + 2;
  }
  return { fields, files };
}
