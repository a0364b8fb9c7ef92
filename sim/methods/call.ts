/**
 * One bound method call as an implementation sees it: the environment, the model, the ids of
 * `browse(ids)`, the bound arguments (defaults from the method table) and `**kwargs` extras.
 */
import type { Value } from '../../src/value.ts';
import { defaultFromRepr } from './binding.ts';
import type { Env } from '../orm/env.ts';
import { typeError } from '../errors.ts';
import type { ModelStore } from '../orm/model.ts';
import { pyRepr } from '../python-repr.ts';
import type { MethodSpec } from '../seed.ts';

export class Call {
  constructor(
    readonly env: Env,
    readonly model: ModelStore,
    /** `browse(ids)`'s ids: ints, or whatever else a client sent (they match no record). */
    readonly ids: Value[],
    readonly method: string,
    readonly spec: MethodSpec,
    readonly args: Map<string, Value>,
    readonly extra: Map<string, Value>,
  ) {}

  /** A bound argument, else its default from the method table. */
  arg(name: string): Value {
    const given = this.args.get(name);
    if (given !== undefined) return given;
    return defaultFromRepr(this.spec.params.find((p) => p.name === name)?.default ?? null);
  }

  /** The same call under another environment (`with_context`). */
  withEnv(env: Env): Call {
    return new Call(env, this.model, this.ids, this.method, this.spec, this.args, this.extra);
  }
}

/** The implementation of a method: a bound call to its JSON-2 result. */
export type MethodImpl = (call: Call) => Value;

/** `iter(v)` for a list argument (`fields`): a string iterates its characters, `None` is absent. */
export function listArg(v: Value, what: string): Value[] | undefined {
  if (v === null || v === false) return undefined;
  if (Array.isArray(v)) return v;
  if (typeof v === 'string') return [...v];
  if (v instanceof Map) return [...v.keys()];
  throw typeError(`${what}: '${pyRepr(v)}' object is not iterable`);
}

/** A list argument of field names. */
export function namesArg(v: Value, what: string): string[] | undefined {
  return listArg(v, what)?.map((x) => (typeof x === 'string' ? x : pyRepr(x)));
}
