/**
 * `datetime.strptime(text, "%Y%m%dT%H:%M:%S")`, which `xmlrpc.client` applies to
 * `<dateTime.iso8601>` with `use_datetime=True` (Odoo: `addons/rpc/controllers/xmlrpc.py`), with its ValueError texts.
 */
import { parsePythonInt, pyRepr } from '../../python/int-text.ts';
import { PyDateTime } from '../../value.ts';

/** The format Python matches `<dateTime.iso8601>` against. */
export const xmlRpcDateTimeFormat = '%Y%m%dT%H:%M:%S';

// _strptime's regex for that format: same alternatives in the same order, IGNORECASE, \d = Nd.
const formatRe =
  /^(\p{Nd}{4})(1[0-2]|0[1-9]|[1-9])(3[01]|[12]\p{Nd}|0[1-9]|[1-9]| [1-9])[Tt](2[0-3]|[01]\p{Nd}|\p{Nd}):([0-5]\p{Nd}|\p{Nd}):(6[01]|[0-5]\p{Nd}|\p{Nd})/u;

const monthDays = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * The naive datetime Python reads, as Odoo's `YYYY-MM-DD HH:MM:SS`, or the ValueError message
 * (`time data '…' does not match format '%Y%m%dT%H:%M:%S'`, `unconverted data remains: …`, …).
 */
export function dateTimeFromText(text: string): PyDateTime | { error: string } {
  const m = formatRe.exec(text);
  if (!m) return { error: `time data ${pyRepr(text)} does not match format '${xmlRpcDateTimeFormat}'` };
  if (m[0].length !== text.length) return { error: `unconverted data remains: ${text.slice(m[0].length)}` };
  const [year, month, day, hour, minute, second] = m.slice(1).map((g) => Number(parsePythonInt(g)));
  if (year === 0) return { error: 'year 0 is out of range' };
  const leap = year! % 4 === 0 && (year! % 100 !== 0 || year! % 400 === 0);
  const days = month === 2 && leap ? 29 : monthDays[month! - 1]!;
  if (day! > days) return { error: 'day is out of range for month' };
  if (second! > 59) return { error: 'second must be in 0..59' };
  const two = (n: number) => String(n).padStart(2, '0');
  return new PyDateTime(`${String(year).padStart(4, '0')}-${two(month!)}-${two(day!)} ${two(hour!)}:${two(minute!)}:${two(second!)}`);
}
