/**
 * The migration report on disk: one JSON file, written to a temporary file and renamed over the old
 * one (a crash mid-write never leaves half a report), validated when read back. The text is written
 * in batches with the event loop free between them, and a failed write (a full disk) removes the
 * temporary file.
 */
import { open, readFile, rename, rm } from 'node:fs/promises';
import { z } from 'zod';
import type { LazyReportSnapshot, ReportSnapshot } from './migration-report.ts';
import { jsonChunks, paced } from './report-stream.ts';

const isoTime = z.iso.datetime();
const counts = z.record(z.string(), z.number().int().min(0));
const count = z.number().int().min(0);
/** Shadow mode's results of a method. */
const shadowSchema = z.object({
  equal: count,
  intended: count,
  differs: count,
  errors: count,
  dropped: count,
  bound: count.optional(),
  deviations: counts.optional(),
});
const differenceSchema = z.object({
  at: isoTime,
  dialect: z.string(),
  differences: z.array(z.string()),
  gateway: z.string(),
  legacy: z.string(),
});
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
          gatewayFaults: count.optional(),
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

/**
 * Saves `snapshot` at `path` atomically (temporary file, then rename); on failure no temporary file
 * stays. A lazy snapshot's clients are made batch by batch as the text is written, the event loop
 * free between batches.
 */
export async function writeReportFile(path: string, snapshot: LazyReportSnapshot): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    const file = await open(temporary, 'w', 0o640);
    try {
      for await (const batch of paced(jsonChunks(snapshot, ['clients']))) await file.write(batch);
      await file.write('\n');
    } finally {
      await file.close();
    }
    await rename(temporary, path);
  } catch (err) {
    await rm(temporary, { force: true });
    throw err;
  }
}
