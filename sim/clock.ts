/** Odoo's date and datetime text forms (UTC, `YYYY-MM-DD HH:MM:SS`, no `T`, no zone). */

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** `fields.Datetime.to_string`: naive UTC `YYYY-MM-DD HH:MM:SS`. */
export function formatDatetime(d: Date): string {
  return (
    `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
  );
}

/** `fields.Date.to_string`: `YYYY-MM-DD` of the UTC day. */
export function formatDate(d: Date): string {
  return formatDatetime(d).slice(0, 10);
}

/** Parses an Odoo datetime (or date) string as UTC; undefined when it is not one. */
export function parseOdooDatetime(text: string): Date | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2}))?$/.exec(text);
  if (m === null) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0'] = m;
  return new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)));
}
