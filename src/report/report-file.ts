/**
 * The migration report on disk: one JSON file, written whole to a temporary file and renamed over
 * the old one (a crash mid-write never leaves half a report), validated when read back.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { z } from 'zod';
import type { ReportSnapshot } from './migration-report.ts';

const isoTime = z.iso.datetime();
const counts = z.record(z.string(), z.number().int().min(0));
const count = z.number().int().min(0);
/** Shadow mode's results of a method (issue #23). */
const shadowSchema = z.object({ equal: count, intended: count, differs: count, errors: count, dropped: count, deviations: counts.optional() });
const differenceSchema = z.object({ at: isoTime, dialect: z.string(), differences: z.array(z.string()), gateway: z.string(), legacy: z.string() });
const reportSchema = z.object({
  version: z.literal(1),
  generatedAt: isoTime,
  dropped: z.object({ anonymousClients: count, authenticatedClients: count, unlistedCalls: count, foldedCalls: count }).optional(),
  clients: z.array(
    z.object({
      userAgent: z.string(),
      ip: z.string(),
      database: z.string().optional(),
      user: z.string().optional(),
      authenticated: z.boolean().optional(),
      firstSeen: isoTime,
      lastSeen: isoTime,
      calls: z.number().int().min(0),
      faults: z.number().int().min(0),
      dialects: counts,
      services: counts,
      methods: z.array(
        z.object({
          service: z.string(),
          method: z.string(),
          model: z.string().optional(),
          modelMethod: z.string().optional(),
          calls: z.number().int().min(0),
          faults: z.number().int().min(0),
          firstSeen: isoTime,
          lastSeen: isoTime,
          json2Body: z.string().optional(),
          shadow: shadowSchema.optional(),
          differences: z.array(differenceSchema).optional(),
        }),
      ),
      unlistedCalls: z.number().int().min(0),
    }),
  ),
});

/**
 * The report saved at `path`, or `undefined` when there is no file yet. Throws an Error naming the
 * file and the first problem when it is not a report this gateway wrote.
 */
export async function readReportFile(path: string): Promise<ReportSnapshot | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error(`${path}: not JSON`);
  }
  const parsed = reportSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${path}: not a migration report (${issue?.path.join('.') || 'top level'}: ${issue?.message ?? 'invalid'})`);
  }
  return parsed.data;
}

/** Saves `snapshot` at `path` atomically (temporary file, then rename). */
export async function writeReportFile(path: string, snapshot: ReportSnapshot): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(snapshot, null, 1)}\n`, { mode: 0o640 });
  await rename(temporary, path);
}
