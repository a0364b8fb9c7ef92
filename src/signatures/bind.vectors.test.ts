/**
 * Replays python-typeerror.json: how CPython 3.11 binds `method(recs, *args, **kwargs)` for a set of
 * signatures and call shapes (vectors/gen-python-typeerror.py records it; Python is not needed here).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LegacyError } from '../errors.ts';
import type { Value } from '../value.ts';
import { bindArguments } from './bind.ts';
import type { MethodSignature, ParamKind } from './signature.ts';

interface VectorCall {
  args: number;
  kwargs: string[];
  error?: string;
  bound?: Record<string, number | string>;
  varargs?: number[];
  extra?: Record<string, string>;
}
interface VectorSignature {
  qualname: string;
  params: [string, ParamKind, string | null][];
  calls: VectorCall[];
}

const vectors = JSON.parse(readFileSync(new URL('./vectors/python-typeerror.json', import.meta.url), 'utf8')) as {
  python: string;
  signatures: VectorSignature[];
};

function signatureOf(v: VectorSignature): MethodSignature {
  return {
    qualname: v.qualname,
    apiModel: true,
    source: 'override',
    params: v.params.map(([name, kind, d]) => (d === null ? { name, kind } : { name, kind, default: d })),
  };
}

const rows = vectors.signatures.flatMap((v) =>
  v.calls.map((call) => ({ name: `${v.qualname}(${call.args} args, [${call.kwargs.join(', ')}])`, v, call })),
);

function callOf(call: VectorCall): [Value[], Map<string, Value>] {
  const args = Array.from({ length: call.args }, (_, i) => i + 1);
  return [args, new Map(call.kwargs.map((k) => [k, `kw:${k}`]))];
}

describe('bindArguments() against CPython', () => {
  it('replays vectors recorded with Python 3.11', () => {
    expect(vectors.python).toMatch(/^3\.11\./);
    expect(rows.length).toBeGreaterThan(1000);
  });

  it.each(rows.filter((r) => r.call.error !== undefined))('$name → TypeError', ({ v, call }) => {
    const result = bindArguments(signatureOf(v), 'x.model', 'method', ...callOf(call));
    expect(result).toBeInstanceOf(LegacyError);
    const error = result as LegacyError;
    expect(error.name).toBe('builtins.TypeError');
    expect(error.message).toBe(call.error);
    expect(error.lastLine).toBe(`TypeError: ${call.error}`);
  });

  it.each(rows.filter((r) => r.call.error === undefined))('$name → bound', ({ v, call }) => {
    const sig = signatureOf(v);
    const result = bindArguments(sig, 'x.model', 'method', ...callOf(call));
    const positionalOnly = new Set(sig.params.filter((p) => p.kind === 'POSITIONAL_ONLY').map((p) => p.name));
    const unreachable =
      (call.varargs ?? []).length > 0 ||
      Object.keys(call.bound ?? {}).some((k) => positionalOnly.has(k)) ||
      Object.keys(call.extra ?? {}).some((k) => positionalOnly.has(k) || k === 'ids');
    if (unreachable) {
      // Python accepts it; JSON-2 cannot express it (intended deviation).
      expect(result).toBeInstanceOf(LegacyError);
      expect((result as LegacyError).message).toMatch(/^cannot call x\.model\.method through JSON-2 \(named arguments only\): /);
      return;
    }
    expect(result).toBeInstanceOf(Map);
    // Positional arguments under their names in parameter order, then the keywords in call order.
    const positional = sig.params.filter((p) => typeof call.bound?.[p.name] === 'number').map((p) => p.name);
    const expected = [...positional.map((n) => [n, call.bound![n]]), ...call.kwargs.map((k) => [k, `kw:${k}`])];
    expect([...(result as Map<string, Value>).entries()]).toEqual(expected);
    // ...which is exactly what Python bound, defaults left out.
    expect(Object.fromEntries(result as Map<string, Value>)).toEqual({ ...call.bound, ...call.extra });
  });
});
