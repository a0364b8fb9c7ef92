/**
 * The payload of a legacy `db.restore` (docs/architecture.md §3 db): base64 read as Python's `base64.b64decode`
 * reads it, and checked to be a backup — a zip (`PK\x03\x04`) or a pg_dump custom-format file
 * (`PGDMP`) — before anything is created upstream.
 */
import { pythonError } from '../errors.ts';

/** What a backup file starts with. */
export type BackupKind = 'zip' | 'dump';

/**
 * The base64 text Python would decode: characters outside the alphabet dropped (non-validating
 * `b64decode`). Throws binascii.Error where Python does: one data character too many, or missing
 * padding.
 */
export function cleanBase64(text: string): string {
  const kept = /^[A-Za-z0-9+/]*=*$/.test(text) ? text : text.replace(/[^A-Za-z0-9+/=]/g, '');
  const firstPad = kept.indexOf('=');
  const data = firstPad === -1 ? kept : kept.slice(0, firstPad);
  const pads = kept.length - data.length;
  const rest = data.length % 4;
  if (rest === 1) {
    throw pythonError(
      'binascii.Error',
      `Invalid base64-encoded string: number of data characters (${data.length}) cannot be 1 more than a multiple of 4`,
    );
  }
  if (rest !== 0 && pads < 4 - rest) throw pythonError('binascii.Error', 'Incorrect padding');
  return rest === 0 ? data : data + '='.repeat(4 - rest);
}

/** The kind of backup `base64` (cleaned) holds, from its first bytes; undefined for anything else. */
export function backupKindOf(base64: string): BackupKind | undefined {
  const head = Buffer.from(base64.slice(0, 8), 'base64');
  if (head.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) return 'zip';
  if (head.subarray(0, 5).toString('latin1') === 'PGDMP') return 'dump';
  return undefined;
}
