/**
 * The per-run id table: records created while replaying get other ids than on the recorded server
 * (the corpus answered `create` with 54, the simulator with 47), so each (model, recorded id) is
 * mapped to the run's id as soon as a create answer shows both, and later requests and expected
 * answers are rewritten through it. Ids are never derived from case ids or guessed.
 */

/** One learned pair, with the case that taught it (for the report). */
export interface IdMapping {
  model: string;
  recorded: bigint;
  actual: bigint;
  learnedFrom: string;
}

/** A conflict: the same recorded id would map to two run ids. */
export class IdMapConflict extends Error {
  override name = 'IdMapConflict';
}

/** The table of one run (cleared with the simulator at each section boundary). */
export class IdMap {
  #byModel = new Map<string, Map<bigint, IdMapping>>();

  /** Records `recorded → actual` for `model`; throws {@link IdMapConflict} on a contradiction. */
  learn(model: string, recorded: bigint, actual: bigint, learnedFrom: string): void {
    let table = this.#byModel.get(model);
    if (table === undefined) this.#byModel.set(model, (table = new Map()));
    const known = table.get(recorded);
    if (known !== undefined && known.actual !== actual) {
      throw new IdMapConflict(
        `${model} id ${recorded} already maps to ${known.actual} (from ${known.learnedFrom}); ${learnedFrom} says ${actual}`,
      );
    }
    table.set(recorded, { model, recorded, actual, learnedFrom });
  }

  /** The run's id of a recorded `model` id, or undefined when that record was not created in this run. */
  lookup(model: string, recorded: bigint): bigint | undefined {
    return this.#byModel.get(model)?.get(recorded)?.actual;
  }

  /**
   * The run's id for a recorded id of any model, when exactly one model knows it — used for expected
   * answers, whose ints carry no model.
   */
  lookupAnyModel(recorded: bigint): bigint | undefined {
    const hits = [...this.#byModel.values()].map((t) => t.get(recorded)).filter((m) => m !== undefined);
    return hits.length === 1 ? hits[0]?.actual : undefined;
  }

  /** Every mapping learned so far, in learning order per model. */
  entries(): IdMapping[] {
    return [...this.#byModel.values()].flatMap((t) => [...t.values()]);
  }

  /** Forgets everything (a new section starts from the seed). */
  clear(): void {
    this.#byModel.clear();
  }
}

/**
 * Pairs the ids of a recorded create answer with the run's answer, position by position: an int
 * with an int, a list of ints with a list of the same length, `[id, name]` (name_create) by its
 * first item. Returns `undefined` when the shapes differ (the comparison then reports it).
 */
export function pairCreatedIds(recorded: unknown, actual: unknown): [bigint, bigint][] | undefined {
  const asInt = (v: unknown): bigint | undefined =>
    typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : typeof v === 'bigint' ? v : undefined;
  const r = asInt(recorded);
  const a = asInt(actual);
  if (r !== undefined && a !== undefined) return [[r, a]];
  if (Array.isArray(recorded) && Array.isArray(actual) && recorded.length === actual.length) {
    // name_create: [id, display_name]
    if (recorded.length === 2 && typeof recorded[1] === 'string') {
      const ri = asInt(recorded[0]);
      const ai = asInt(actual[0]);
      return ri !== undefined && ai !== undefined ? [[ri, ai]] : undefined;
    }
    const pairs: [bigint, bigint][] = [];
    for (let i = 0; i < recorded.length; i++) {
      const ri = asInt(recorded[i]);
      const ai = asInt(actual[i]);
      if (ri === undefined || ai === undefined) return undefined;
      pairs.push([ri, ai]);
    }
    return pairs;
  }
  return undefined;
}
