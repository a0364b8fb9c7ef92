import { describe, expect, it } from 'vitest';
import { parseRoutes } from './routes-file.ts';

describe('parseRoutes', () => {
  it('reads YAML rules with their lines and default names', () => {
    const rules = parseRoutes(
      'routes:\n  - name: erp\n    match:\n      database: demo\n      source: [10.0.0.0/8, "::1"]\n    mode: verify\n  - mode: translate\n',
    );
    expect(rules).toEqual([
      { name: 'erp', line: 2, match: { database: ['demo'], source: ['10.0.0.0/8', '::1'] }, mode: 'verify' },
      { name: 'rule 2 (line 7)', line: 7, match: {}, mode: 'translate' },
    ]);
  });

  it('reads JSON the same way', () => {
    expect(parseRoutes('{"routes": [{"match": {"service": "db"}, "mode": "native"}]}')).toEqual([
      { name: 'rule 1 (line 1)', line: 1, match: { service: ['db'] }, mode: 'native' },
    ]);
  });

  it('names the line of each problem', () => {
    const out = parseRoutes(
      'routes:\n  - name: a\n    mode: verify\n  - match:\n      source: 10.0.0.0/33\n      userAgent: "("\n      color: red\n    mode: nope\n  - name: a\n    mode: deny\n',
      'routes.yaml',
    );
    expect(out).toEqual({
      problems: [
        'routes.yaml line 6 (routes.1.match.userAgent): not a valid regular expression',
        'routes.yaml line 5 (routes.1.match.source): give an IPv4 or IPv6 address or a CIDR subnet, e.g. 10.1.0.0/16',
        'routes.yaml line 7 (routes.1.match): unknown key color',
        'routes.yaml line 8 (routes.1.mode): one of native, verify, translate, deny',
      ],
    });
  });

  it('refuses a duplicate name, bad YAML and a missing mode, naming the line', () => {
    expect(parseRoutes('routes:\n  - name: a\n    mode: deny\n  - name: a\n    mode: native\n', 'f')).toEqual({
      problems: ['f line 4: the name "a" is already used on line 2'],
    });
    expect(parseRoutes('routes:\n  - mode: [deny\n', 'f')).toMatchObject({ problems: [expect.stringMatching(/^f line \d+: /)] });
    expect(parseRoutes('routes:\n  - name: x\n', 'f')).toEqual({ problems: ['f line 2 (routes.0.mode): required'] });
  });
});
