import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { captureLog } from '../../../test/support/captured-log.ts';
import { createRouteTable, RoutesFileError, routeChanges } from './route-table.ts';

const file = (text: string) => {
  const path = join(mkdtempSync(join(tmpdir(), 'route-table-')), 'routes.yaml');
  writeFileSync(path, text);
  return path;
};

describe('createRouteTable', () => {
  it('refuses a bad file at start', () => {
    expect(() => createRouteTable(file('routes: 3\n'), 'translate', captureLog().log)).toThrow(RoutesFileError);
  });

  it('swaps the routes whole on a good reload; keeps them on a bad one; a snapshot taken before stays', () => {
    const captured = captureLog();
    const path = file('routes:\n  - name: a\n    match: { login: secret-login }\n    mode: verify\n');
    const table = createRouteTable(path, 'translate', captured.log);
    const before = table.current();
    writeFileSync(path, 'routes:\n  - name: a\n    mode: translate\n  - name: b\n    mode: deny\n');
    expect(table.reload('test')).toEqual({
      ok: true,
      changes: ['"a": verify → translate', '"a": selectors changed (login)', 'added "b" (deny) at position 2'],
    });
    expect(before.rules[0]?.mode).toBe('verify');
    const good = table.current();
    writeFileSync(path, 'routes:\n  - mode: everything\n');
    expect(table.reload('test')).toMatchObject({ ok: false, problems: [expect.stringContaining('line 2')] });
    expect(table.current()).toBe(good);
    expect(JSON.stringify(captured.lines)).not.toContain('secret-login');
    expect(captured.matching('routes file refused')).toHaveLength(1);
  });

  it('names removed and moved rules', () => {
    const r = (name: string) => ({ name, line: 1, match: {}, mode: 'native' as const });
    expect(routeChanges([r('a'), r('b'), r('c')], [r('c'), r('a')])).toEqual([
      '"c": moved from position 3 to 1',
      '"a": moved from position 1 to 2',
      'removed "b" (native)',
    ]);
  });
});
