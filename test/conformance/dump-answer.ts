/**
 * `db.dump` answers, whose recorded body the corpus truncated (`legacy_decoded_summary` describes
 * it): the gateway's answer must be Odoo's framing around one `<string>` holding base64 of the same
 * kind of file — a zip (`PK\x03\x04`) or a pg_dump custom-format file (`PGDMP`) — and be complete.
 */
import { readFileSync } from 'node:fs';
import type { Difference } from '../../src/cutover/compare/compare.ts';
import { casesUrl, type ConformanceCase } from './load-cases.ts';

/** The recorded summary of a dump's decoded value. */
interface DumpSummary {
  type: string;
  decoded_head_hex: string;
}

function summaryOf(c: ConformanceCase): DumpSummary | undefined {
  const raw = JSON.parse(readFileSync(new URL(c.file, casesUrl), 'utf8')) as { legacy_decoded_summary?: DumpSummary };
  return raw.legacy_decoded_summary;
}

const open = '<value><string>';
const close = '</string></value>\n</param>\n</params>\n\n</methodResponse>\n';

/** The differences between a dump answer and the recorded summary; none for cases without one. */
export function compareDumpAnswer(c: ConformanceCase, body: string): Difference[] {
  const summary = summaryOf(c);
  const legacy = c.legacy;
  if (summary === undefined || legacy === undefined || summary.type !== 'base64 string') return [];
  const framing = legacy.responseBody.slice(0, legacy.responseBody.indexOf(open) + open.length);
  if (!body.startsWith(framing))
    return [{ path: 'body', message: `does not start as recorded: ${JSON.stringify(body.slice(0, framing.length + 20))}` }];
  if (!body.endsWith(close)) return [{ path: 'body', message: `does not end with the closing tags: ${JSON.stringify(body.slice(-80))}` }];
  const base64 = body.slice(framing.length, body.length - close.length);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) return [{ path: 'result', message: 'the string is not base64' }];
  // The file kind: the zip signature (4 bytes) or PGDMP (5 bytes); the rest of the head is the file's own.
  const recordedHead = Buffer.from(summary.decoded_head_hex, 'hex');
  const signature = recordedHead.subarray(0, recordedHead.subarray(0, 5).toString('latin1') === 'PGDMP' ? 5 : 4);
  const head = Buffer.from(base64.slice(0, 8), 'base64');
  if (!head.subarray(0, signature.length).equals(signature)) {
    return [{ path: 'result', message: `expected a file starting ${signature.toString('hex')}, got ${head.toString('hex')}` }];
  }
  return [];
}
