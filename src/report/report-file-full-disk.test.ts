/**
 * A save that fails part way (the disk fills up) leaves the saved report as it was and no temporary
 * file behind. The "disk" here is node:fs/promises holding at most `room` bytes per file.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createMigrationReport } from './migration-report.ts';
import { writeReportFile } from './report-file.ts';

const room = 2000;

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const full = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  return {
    ...real,
    // a whole-file write stops where the disk is full
    async writeFile(path: string, data: string, options?: object) {
      await real.writeFile(path, String(data).slice(0, room), options);
      if (String(data).length > room) throw full();
    },
    // so does a file written piece by piece
    async open(path: string, flags?: string, mode?: number) {
      const handle = await real.open(path, flags, mode);
      let written = 0;
      return new Proxy(handle, {
        get(target, name) {
          if (name === 'write') {
            return async (data: string) => {
              const text = String(data);
              if (written + text.length > room) {
                await target.write(text.slice(0, room - written));
                written = room;
                throw full();
              }
              written += text.length;
              return target.write(text);
            };
          }
          const member = Reflect.get(target, name) as unknown;
          return typeof member === 'function' ? (member as (...a: unknown[]) => unknown).bind(target) : member;
        },
      });
    },
  };
});

describe('writeReportFile() on a full disk', () => {
  it('fails with ENOSPC, keeps the saved report and leaves no temporary file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'report-full-'));
    const path = join(dir, 'report.json');
    writeFileSync(path, '{"saved":"before"}');
    const report = createMigrationReport({ maxClients: 100, now: () => 0 });
    for (let i = 0; i < 50; i++)
      report.record({ dialect: 'xmlrpc2', userAgent: `client-${i}`, ip: '10.0.0.1', service: 'common', method: 'version', failed: false });
    await expect(writeReportFile(path, report.snapshot())).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(readdirSync(dir)).toEqual(['report.json']);
    expect(readFileSync(path, 'utf8')).toBe('{"saved":"before"}');
  });
});
