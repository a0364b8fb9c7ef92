/**
 * The member names of the objects open while a JSON text is read without building values (the
 * XML-RPC transcoder, the canonical-form check): repeated names, which `parseJson` folds into one
 * entry (first position, last value), so that such a reader must give up; and the previous object's
 * names reused as a template — the rows of a `search_read` all carry the same names, which are then
 * matched whole instead of read character by character. Per nesting level, tables are reused from
 * one object to the next (no allocation per row).
 */

/** The hash {@link MemberNames.add} takes, over a name's UTF-16 code units (decoded, unescaped). */
export function hashName(h: number, code: number): number {
  return (Math.imul(h, 31) + code) | 0;
}

export const emptyNameHash = 0x811c9dc5 | 0;

/**
 * One object's names, in order: the literal as written (quotes included), its hash, and what the
 * reader attached to it (the transcoder: the name's XML and its escapes' UTF-8 surplus).
 */
interface Names {
  literals: string[];
  hashes: number[];
  text: string[];
  extra: number[];
}

/** One nesting level. */
interface Level {
  /** Open addressing over the current object's name hashes; slots of older objects told apart by generation. */
  table: Int32Array;
  generations: Uint32Array;
  count: number;
  generation: number;
  /** Names of the current object read the careful way (once it left the template). */
  current: Names;
  /** How many names the current object has so far. */
  size: number;
  /** The names of the last object at this level that was read through, all distinct. */
  template: Names;
  /** True while every name of the current object is the template's at the same index. */
  matching: boolean;
}

const emptyNames = (): Names => ({ literals: [], hashes: [], text: [], extra: [] });

function clear(names: Names): void {
  names.literals.length = names.hashes.length = names.text.length = names.extra.length = 0;
}

/** The member names of every object currently open, one level per nesting depth. */
export class MemberNames {
  #levels: Level[] = [];
  #generation = 0;
  /** What was attached to the name {@link matchTemplate} found. */
  matchedText = '';
  matchedExtra = 0;

  /** An object opens at `level` (0 for the outermost container). */
  open(level: number): void {
    let l = this.#levels[level];
    if (l === undefined) {
      l = {
        table: new Int32Array(16),
        generations: new Uint32Array(16),
        count: 0,
        generation: 0,
        current: emptyNames(),
        size: 0,
        template: emptyNames(),
        matching: false,
      };
      this.#levels[level] = l;
    }
    if (this.#generation === 0xffffffff) {
      // Generations are 32-bit: start again from 1 with every table emptied.
      this.#generation = 0;
      for (const each of this.#levels) each?.generations.fill(0);
    }
    l.generation = ++this.#generation;
    l.count = 0;
    l.size = 0;
    l.matching = l.template.literals.length > 0;
  }

  /**
   * When the object at `level` is still following its template and `json` at `at` holds the
   * template's next name literal: that literal's length, what was attached to it in
   * {@link matchedText} and {@link matchedExtra}. Else -1, and the name must be read and given to
   * {@link add}.
   */
  matchTemplate(level: number, json: string, at: number): number {
    const l = this.#levels[level] as Level;
    if (!l.matching) return -1;
    const literal = l.template.literals[l.size];
    if (literal !== undefined && startsWith(json, literal, at)) {
      this.matchedText = l.template.text[l.size] as string;
      this.matchedExtra = l.template.extra[l.size] as number;
      l.size++;
      return literal.length;
    }
    // The object leaves its template here: the names it took from it join the table.
    l.matching = false;
    const { literals, hashes, text, extra } = l.template;
    clear(l.current);
    for (let i = 0; i < l.size; i++) this.#record(l, literals[i] as string, hashes[i] as number, text[i] as string, extra[i] as number);
    return -1;
  }

  /**
   * Records a name of the object at `level` read the careful way (`literal` as written, `hash` of
   * its decoded text, then what to attach); false when the name (or another with the same hash, which
   * costs the reader a detour through the tree, never a wrong answer) is already there.
   */
  add(level: number, literal: string, hash: number, text = '', extra = 0): boolean {
    const l = this.#levels[level] as Level;
    if (l.size === 0) clear(l.current);
    if (!this.#record(l, literal, hash, text, extra)) return false;
    l.size++;
    return true;
  }

  /** The object at `level` closes: if it left its template (or had none), it becomes the template. */
  close(level: number): void {
    const l = this.#levels[level] as Level;
    if (l.matching || l.size === 0) return;
    const template = l.template;
    l.template = l.current;
    l.current = template;
  }

  #record(l: Level, literal: string, hash: number, text: string, extra: number): boolean {
    if ((l.count + 1) * 2 > l.table.length) grow(l);
    const mask = l.table.length - 1;
    for (let i = (hash ^ (hash >>> 15)) & mask; ; i = (i + 1) & mask) {
      if (l.generations[i] !== l.generation) {
        l.generations[i] = l.generation;
        l.table[i] = hash;
        break;
      }
      if (l.table[i] === hash) return false;
    }
    l.count++;
    l.current.literals.push(literal);
    l.current.hashes.push(hash);
    l.current.text.push(text);
    l.current.extra.push(extra);
    return true;
  }
}

/** `text.startsWith(literal, at)`, quicker for names of a few characters than the built-in call. */
function startsWith(text: string, literal: string, at: number): boolean {
  const n = literal.length;
  for (let i = 0; i < n; i++) if (text.charCodeAt(at + i) !== literal.charCodeAt(i)) return false;
  return true;
}

/** Doubles a level's table, keeping the current object's names. */
function grow(l: Level): void {
  const { table, generations, generation } = l;
  const size = table.length * 2;
  l.table = new Int32Array(size);
  l.generations = new Uint32Array(size);
  const mask = size - 1;
  for (let j = 0; j < table.length; j++) {
    if (generations[j] !== generation) continue;
    const hash = table[j] as number;
    let i = (hash ^ (hash >>> 15)) & mask;
    while (l.generations[i] === generation) i = (i + 1) & mask;
    l.generations[i] = generation;
    l.table[i] = hash;
  }
}
