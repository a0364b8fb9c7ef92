/**
 * The served and saved report in pieces, so that a large report never holds the event loop while it
 * is gathered or turned into text: clients gathered in slices of about {@link sliceMs} of work, JSON
 * written one array element at a time, and pieces handed on in batches of about {@link batchChars}
 * characters with a turn of the event loop between batches.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Characters handed on per batch before other work gets its turn. */
export const batchChars = 64 * 1024;

/**
 * `value` as JSON text in pieces: its other members first, then each of the `arrays` members one
 * element per piece. Parsing the pieces joined gives what `JSON.stringify(value)` gives. An `arrays`
 * member may be any iterable (written as an array): its elements are read one piece at a time, so a
 * generator's are made only as the text is.
 */
export function* jsonChunks(value: object, arrays: readonly string[]): Generator<string> {
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  const iterable = (v: unknown): v is Iterable<unknown> => typeof v === 'object' && v !== null && Symbol.iterator in v;
  const head = Object.fromEntries(entries.filter(([k]) => !arrays.includes(k)));
  const tail = entries.filter(([k, v]) => arrays.includes(k) && iterable(v)) as [string, Iterable<unknown>][];
  const headText = JSON.stringify(head);
  if (tail.length === 0) {
    yield headText;
    return;
  }
  yield headText === '{}' ? '{' : `${headText.slice(0, -1)},`;
  let firstArray = true;
  for (const [key, items] of tail) {
    yield `${firstArray ? '' : ','}${JSON.stringify(key)}:[`;
    firstArray = false;
    let first = true;
    for (const item of items) {
      yield `${first ? '' : ','}${JSON.stringify(item)}`;
      first = false;
    }
    yield ']';
  }
  yield '}';
}

/** `pieces` joined into batches of about {@link batchChars}, the event loop free between batches. */
export async function* paced(pieces: Iterable<string>): AsyncGenerator<string> {
  let batch = '';
  for (const piece of pieces) {
    batch += piece;
    if (batch.length >= batchChars) {
      yield batch;
      batch = '';
      await nextTurn();
    }
  }
  if (batch !== '') yield batch;
}

/** Milliseconds of work {@link sliced} does before other work gets its turn. */
export const sliceMs = 8;

/**
 * `items` one by one, with a turn of the event loop each time about {@link sliceMs} of work (the
 * consumer's included) has run: a large report is gathered without holding the client port.
 */
export async function* sliced<T>(items: Iterable<T>, budgetMs = sliceMs): AsyncGenerator<T> {
  let since = performance.now();
  for (const item of items) {
    yield item;
    if (performance.now() - since >= budgetMs) {
      await nextTurn();
      since = performance.now();
    }
  }
}

/** `pieces` as a response body, sent batch by batch. */
export function streamOf(pieces: Iterable<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const batches = paced(pieces);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await batches.next();
      if (next.done === true) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
}
