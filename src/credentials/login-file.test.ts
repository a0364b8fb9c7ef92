import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../log.ts';
import { openLoginsFile } from './login-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'login-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const log = createLogger('silent');

describe('openLoginsFile()', () => {
  it('keeps logins across a reopen, and tells the logins a uid has in the other databases', async () => {
    const path = join(dir, 'a.json');
    const first = openLoginsFile(path, log, 60_000);
    first.set('gw', 5, 'demo');
    first.set('gw2', 5, 'marc');
    first.set('gw', 2, 'admin');
    await first.flush();
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
      logins: [
        ['gw', '5', 'demo'],
        ['gw2', '5', 'marc'],
        ['gw', '2', 'admin'],
      ],
    });
    const again = openLoginsFile(path, log);
    expect(await again.get('gw', 5)).toBe('demo');
    expect(await again.elsewhere!('gw3', 5)).toEqual(['demo', 'marc']);
    expect(await again.elsewhere!('gw', 5)).toEqual(['marc']);
    expect(await again.elsewhere!('gw', 9)).toEqual([]);
  });

  it('starts with no logins from a file it cannot read', async () => {
    const path = join(dir, 'b.json');
    writeFileSync(path, 'not json');
    const file = openLoginsFile(path, log);
    expect(await file.get('gw', 5)).toBeUndefined();
    expect(await file.elsewhere!('gw', 5)).toEqual([]);
  });
});
