/**
 * Keeps the migration report on disk (`--report-file`): read back at start, saved every minute
 * when it changed and once more at shutdown. Without a file nothing is read or written.
 */
import { rename } from 'node:fs/promises';
import type { Logger } from '../log.ts';
import type { LazyReportSnapshot, MigrationReport, ReportSnapshot } from './migration-report.ts';
import { readReportFile, writeReportFile } from './report-file.ts';

/** How often a changed report is saved. */
export const reportSaveIntervalMs = 60_000;

/** The file's readers and writers (tests replace them). */
export interface ReportStorage {
  read(path: string): Promise<ReportSnapshot | undefined>;
  /** Writes a snapshot whose clients are made as they are read (a whole snapshot is one too). */
  write(path: string, snapshot: LazyReportSnapshot): Promise<void>;
  /** Moves an unreadable file aside so the next save does not silently replace it. */
  moveAside(path: string, to: string): Promise<void>;
}

const fileStorage: ReportStorage = { read: readReportFile, write: writeReportFile, moveAside: rename };

/** Loading, periodic saving and the final save. */
export interface ReportPersistence {
  /** Restores the saved report; an unreadable file is logged and moved to `<file>.unreadable`. Never rejects. */
  load(): Promise<void>;
  /** Starts saving every {@link reportSaveIntervalMs} (the timer does not keep the process alive). */
  start(): void;
  /** Stops the timer and saves once more if the report changed (shutdown). Never rejects. */
  stop(): Promise<void>;
}

/** Creates the persistence of `report` in `file` (`undefined`: in memory only). */
export function createReportPersistence(options: {
  report: MigrationReport;
  file: string | undefined;
  log: Logger;
  storage?: ReportStorage;
}): ReportPersistence {
  const { report, file, log, storage = fileStorage } = options;
  let saved = report.revision;
  let timer: ReturnType<typeof setInterval> | undefined;
  let saving: Promise<void> = Promise.resolve();

  /** Saves when the report moved since the last save; one save at a time. */
  function save(): Promise<void> {
    saving = saving.then(async () => {
      if (file === undefined || report.revision === saved) return;
      const revision = report.revision;
      try {
        // each client is read as it is written: the event loop runs between batches, and a call
        // recorded meanwhile moves the revision, so the next save writes it
        await storage.write(file, report.snapshotLazily());
        saved = revision;
      } catch (err) {
        log.warn({ file, error: (err as NodeJS.ErrnoException).code ?? (err as Error).message }, 'could not save the migration report');
      }
    });
    return saving;
  }

  return {
    async load() {
      if (file === undefined) return;
      try {
        const snapshot = await storage.read(file);
        if (snapshot === undefined) return;
        report.restore(snapshot);
        saved = report.revision;
        log.info({ file, clients: report.size }, 'migration report loaded');
      } catch (err) {
        const aside = `${file}.unreadable`;
        log.warn({ file, movedTo: aside, error: (err as Error).message }, 'could not read the migration report; starting an empty one');
        await storage.moveAside(file, aside).catch(() => undefined);
      }
    },
    start() {
      if (file === undefined || timer !== undefined) return;
      timer = setInterval(() => void save(), reportSaveIntervalMs);
      timer.unref();
    },
    async stop() {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      await save();
    },
  };
}
