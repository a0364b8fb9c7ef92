/** `percentFormat()` against CPython's own `format % mapping`, on chosen and generated formats. */
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { percentFormat } from './python-format.ts';

const keys = new Set(['city', 'zip', 'state_code']);

/** What Python says for each format: 'ok' or the exception class. */
function python(formats: string[]): string[] {
  const script = [
    'import json, sys',
    'd = {k: 1 for k in json.loads(sys.argv[1])}',
    'out = []',
    'for f in json.load(sys.stdin):',
    '    try:',
    '        f % d; out.append("ok")',
    '    except Exception as e:',
    '        out.append(type(e).__name__)',
    'print(json.dumps(out))',
  ].join('\n');
  const r = spawnSync('python3', ['-c', script, JSON.stringify([...keys])], { input: JSON.stringify(formats), encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as string[];
}

const ours = (f: string) => {
  const o = percentFormat(f, keys);
  return o.ok ? 'ok' : o.error;
};

describe('percentFormat()', () => {
  const chosen = [
    '%(street)s',
    '%(city)s %(zip)s',
    '%(city)s\n%(state_code)s %(zip)s',
    '%s',
    '%s %s',
    '%(city)s %s',
    '%s %(city)s',
    '%(city)*d',
    '%*d',
    '%(city)5.2f',
    '%(city)ld',
    '%(city)%',
    '%%',
    '%(ci(t)y)s',
    '%(nope)s',
    '%(city)',
    '%',
    '%q',
    '%(city)q',
    '%-(city)s',
    '%(city)-5s',
    '%.*f',
    '%5',
    '%(city)5',
    '% d',
    '%(city)#x',
    '%c',
    '%(city)c',
    '%r %r',
    '%(city)r%(zip)s',
    '%5%',
    '%-%',
    '%(city',
    'plain text',
    '100%% sure',
    '%(zip)é',
    '😀%(city)q',
  ];

  it('agrees with Python on chosen formats', () => {
    expect(chosen.map(ours)).toEqual(python(chosen));
  });

  it('names the exception as Python does', () => {
    expect(percentFormat('%(nope)s', keys)).toEqual({ ok: false, error: 'KeyError', message: "'nope'" });
    expect(percentFormat('😀%(city)q', keys)).toEqual({
      ok: false,
      error: 'ValueError',
      message: "unsupported format character 'q' (0x71) at index 8",
    });
    expect(percentFormat('%(city)', keys)).toEqual({ ok: false, error: 'ValueError', message: 'incomplete format' });
    expect(percentFormat('%s %s', keys)).toEqual({ ok: false, error: 'TypeError', message: 'not enough arguments for format string' });
  });

  it('agrees with Python on generated formats', () => {
    const piece = fc.constantFrom(
      '%',
      '(',
      ')',
      'city',
      'zip',
      'nope',
      's',
      'd',
      'c',
      'r',
      'q',
      '*',
      '.',
      '5',
      '-',
      ' ',
      '#',
      'l',
      'x',
      '\n',
    );
    const formats = fc.sample(
      fc.array(piece, { maxLength: 12 }).map((p) => p.join('')),
      { numRuns: 3000, seed: 24 },
    );
    const expected = python(formats);
    const mismatches = formats.map((f, i) => [f, ours(f), expected[i]]).filter(([, a, b]) => a !== b);
    expect(mismatches).toEqual([]);
  });
});
