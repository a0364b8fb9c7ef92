/**
 * A streamed answer (`db.dump`) between a dialect's framing and the server: the result's text
 * chunks wrapped in the dialect's opening and closing text, and the call's outcome reported once
 * the last chunk is produced, the source failed, or the client went away. Chunks stay text: the
 * server hands them to the socket as they are (no byte copy per chunk).
 */
import { LegacyError, upstreamErrorName } from '../errors.ts';
import type { CallOutcome } from './response.ts';

/**
 * `head`, each chunk of `chunks` (ASCII text), then `tail`. When `chunks` throws, the error
 * propagates before `tail`: the answer stays open-ended, never a complete success.
 */
export async function* framedChunks(head: string, chunks: AsyncIterable<string>, tail: string): AsyncGenerator<string> {
  yield head;
  for await (const chunk of chunks) if (chunk.length > 0) yield chunk;
  yield tail;
}

/** The outcome of a streamed answer the client stopped reading. */
function clientWentAway(): LegacyError {
  return new LegacyError('upstream_unavailable', { name: upstreamErrorName, message: 'the client went away during a streamed answer' });
}

/**
 * Passes `body` through and calls `report` exactly once: with `outcome` after the last chunk, with
 * the LegacyError the body threw (rethrown), or with a "client went away" error when the consumer
 * stops early.
 */
export async function* reportWhenDone<T>(
  body: AsyncIterable<T>,
  outcome: CallOutcome,
  report: (outcome: CallOutcome) => void,
): AsyncGenerator<T> {
  let reported = false;
  try {
    yield* body;
    reported = true;
    report(outcome);
  } catch (err) {
    const error = LegacyError.from(err);
    reported = true;
    report({ ...outcome, error });
    throw error;
  } finally {
    if (!reported) report({ ...outcome, error: clientWentAway() });
  }
}
