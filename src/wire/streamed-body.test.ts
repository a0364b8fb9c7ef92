import { describe, expect, it, vi } from 'vitest';
import { LegacyError, pythonError } from '../errors.ts';
import { StreamedString } from '../value.ts';
import { encodeStreamedResult } from './jsonrpc/encode-stream.ts';
import { encodeResult } from './jsonrpc/encode.ts';
import type { CallOutcome } from './response.ts';
import { reportWhenDone } from './streamed-body.ts';
import { encodeStreamedResponse } from './xmlrpc/encode-stream.ts';
import { defaultMarshalOptions, encodeResponse } from './xmlrpc/encode.ts';

async function* parts(...texts: string[]): AsyncGenerator<string> {
  for (const t of texts) yield t;
}
async function* failing(...texts: string[]): AsyncGenerator<string> {
  for (const t of texts) yield t;
  throw pythonError('OSError', 'backup cut');
}
async function bytes(source: AsyncIterable<string>): Promise<string> {
  let out = '';
  for await (const chunk of source) out += chunk;
  return out;
}
async function partial(source: AsyncIterable<string>): Promise<{ text: string; error: unknown }> {
  let out = '';
  try {
    for await (const chunk of source) out += chunk;
    return { text: out, error: undefined };
  } catch (error) {
    return { text: out, error };
  }
}

describe('encodeStreamedResponse()', () => {
  it("frames the chunks exactly as Odoo's marshaller frames one string", async () => {
    const whole = (encodeResponse('UEsDBBQAAAAI', defaultMarshalOptions) as Buffer).toString('utf8');
    expect(await bytes(encodeStreamedResponse(new StreamedString(parts('UEsD', '', 'BBQAAAAI'))))).toBe(whole);
  });

  it('never writes the closing tags when the source fails', async () => {
    const { text, error } = await partial(encodeStreamedResponse(new StreamedString(failing('UEsD'))));
    expect(text).toBe('<?xml version="1.0"?>\n<methodResponse>\n<params>\n<param>\n<value><string>UEsD');
    expect(error).toBeInstanceOf(LegacyError);
  });
});

describe('encodeStreamedResult()', () => {
  it.each([1, 'x"streamed-string-marker"', null])('writes what encodeResult writes for the whole string (id %j)', async (id) => {
    expect(await bytes(encodeStreamedResult(id, new StreamedString(parts('UEsD', 'BBQA'))))).toBe(encodeResult(id, 'UEsDBBQA'));
  });

  it('never writes the closing quote when the source fails', async () => {
    const { text } = await partial(encodeStreamedResult(5, new StreamedString(failing('UEsD'))));
    expect(text).toBe('{"jsonrpc": "2.0", "id": 5, "result": "UEsD');
  });
});

describe('reportWhenDone()', () => {
  const outcome: CallOutcome = { service: 'db', method: 'dump' };
  const source = async function* (fail: boolean) {
    yield 'UEsD';
    if (fail) throw pythonError('OSError', 'cut');
    yield 'BBQA';
  };

  it('reports success after the last chunk', async () => {
    const report = vi.fn();
    await bytes(reportWhenDone(source(false), outcome, report));
    expect(report.mock.calls).toEqual([[outcome]]);
  });

  it('reports the failure and rethrows it', async () => {
    const report = vi.fn();
    const { error } = await partial(reportWhenDone(source(true), outcome, report));
    expect((error as LegacyError).lastLine).toBe('OSError: cut');
    expect(report.mock.calls).toEqual([[{ ...outcome, error }]]);
  });

  it('reports a client that stopped reading', async () => {
    const report = vi.fn();
    const iterator = reportWhenDone(source(false), outcome, report);
    await iterator.next();
    await iterator.return(undefined);
    expect(report).toHaveBeenCalledTimes(1);
    expect((report.mock.calls[0]?.[0] as CallOutcome).error?.message).toBe('the client went away during a streamed answer');
  });
});
