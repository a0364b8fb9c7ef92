/**
 * A copy of the gateway's answer as the client receives it, for the comparison that runs after it
 * is sent: a whole body is taken as it is; a streamed one is passed through unchanged while its
 * chunks are kept (up to a limit), so the client's answer never waits for the copy.
 */
import type { WireResponse } from '../../wire/response.ts';

/** The copy: the text once the answer is complete; undefined when it was cut short or too large. */
export interface AnswerCopy {
  /** The answer to send: the same one, or its streamed body wrapped. */
  response: WireResponse;
  /** Resolves when the client's answer is complete (or never will be). */
  text: Promise<{ text: string } | { tooLarge: true } | undefined>;
}

const decoder = new TextDecoder();

/** Keeps a copy of `response` of at most `maxBytes`. */
export function copyAnswer(response: WireResponse, maxBytes: number): AnswerCopy {
  const body = response.body;
  if (typeof body === 'string') return { response, text: Promise.resolve(body.length > maxBytes ? { tooLarge: true } : { text: body }) };
  if (body instanceof Uint8Array)
    return { response, text: Promise.resolve(body.length > maxBytes ? { tooLarge: true } : { text: decoder.decode(body) }) };
  let settle: (copy: { text: string } | { tooLarge: true } | undefined) => void = () => {};
  const text = new Promise<{ text: string } | { tooLarge: true } | undefined>((resolve) => {
    settle = resolve;
  });
  async function* kept(): AsyncGenerator<string | Uint8Array> {
    const parts: Buffer[] = [];
    let size = 0;
    let complete = false;
    try {
      for await (const chunk of body as AsyncIterable<string | Uint8Array>) {
        if (size <= maxBytes) {
          const part =
            typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
          size += part.length;
          if (size <= maxBytes) parts.push(typeof chunk === 'string' ? part : Buffer.from(part));
        }
        yield chunk;
      }
      complete = true;
    } finally {
      if (!complete) settle(undefined);
      else settle(size > maxBytes ? { tooLarge: true } : { text: Buffer.concat(parts).toString('utf8') });
    }
  }
  return { response: { ...response, body: kept() }, text };
}

/** The whole text of a response (a replayed gateway answer), or undefined beyond `maxBytes`. */
export async function answerText(response: WireResponse, maxBytes: number): Promise<string | undefined> {
  const copy = copyAnswer(response, maxBytes);
  const body = copy.response.body;
  if (typeof body !== 'string' && !(body instanceof Uint8Array)) for await (const _chunk of body) void _chunk;
  const result = await copy.text;
  return result !== undefined && 'text' in result ? result.text : undefined;
}
