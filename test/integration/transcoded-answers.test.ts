/**
 * Object calls whose JSON-2 answer is transcoded to XML-RPC without a value tree, over
 * real HTTP: small answers whole, large ones streamed with their exact Content-Length, and a bad
 * answer — malformed JSON or a value the marshaller refuses — still a fault, never a cut success.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson, stringifyJson } from '../../src/json/index.ts';
import type { RunningGateway } from '../../src/server/gateway.ts';
import { struct, type Value } from '../../src/value.ts';
import { streamAbove } from '../../src/wire/xmlrpc/encode-json.ts';
import { defaultMarshalOptions, encodeResponse } from '../../src/wire/xmlrpc/index.ts';
import { searchReadCall as call, startAnsweringGateway, type UpstreamAnswer } from '../support/answering-upstream.ts';

let gateway: RunningGateway;
let close: () => Promise<void>;
/** What the fake upstream answers to the next `search_read`. */
let answer: UpstreamAnswer = { status: 200, body: '[]' };

beforeAll(async () => {
  ({ gateway, close } = await startAnsweringGateway(() => answer));
});

afterAll(() => close());

async function searchRead(json: string): Promise<{ headers: Headers; body: Buffer }> {
  answer = { status: 200, body: json };
  const res = await fetch(`${gateway.url}/xmlrpc/2/object`, { method: 'POST', body: call, headers: { 'content-type': 'text/xml' } });
  return { headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

function rows(n: number, last: Value = false): string {
  const out: Value[] = [];
  for (let i = 0; i < n; i++)
    out.push(struct({ id: i + 1, name: `Zoë & Co <${i}>`, email: `p${i}@example.com`, note: i === n - 1 ? last : false }));
  return stringifyJson(out, { python: true });
}

const faultString = (body: Buffer) =>
  /<name>faultString<\/name>\n<value><string>([\s\S]*?)<\/string>/.exec(body.toString('utf8'))?.[1]?.trimEnd().split('\n').at(-1);

describe('transcoded object answers', () => {
  it.each([
    ['a small answer', 3],
    ['a large answer (streamed)', 15_000],
  ])('writes %s byte for byte as the tree path does, with its Content-Length', async (_what, n) => {
    const json = rows(n);
    expect(json.length > streamAbove).toBe(n > 3);
    const { headers, body } = await searchRead(json);
    expect(body.equals(encodeResponse(parseJson(json), defaultMarshalOptions) as Buffer)).toBe(true);
    expect(headers.get('content-length')).toBe(String(body.length));
    expect(headers.get('transfer-encoding')).toBeNull();
  });

  it.each([
    ['None in the last row of a large answer', rows(15_000, null), 'TypeError: cannot marshal None unless allow_none is enabled'],
    ['a 64-bit int in the last row of a large answer', rows(15_000, 2 ** 40), 'OverflowError: int exceeds XML-RPC limits'],
    [
      'a large answer cut short',
      rows(15_000).slice(0, -3),
      expect.stringMatching(/^legacy_rpc_gateway\.UpstreamError: upstream answered HTTP 200 with malformed JSON/),
    ],
    [
      'a small malformed answer',
      '[{"id": 1,',
      expect.stringMatching(/^legacy_rpc_gateway\.UpstreamError: upstream answered HTTP 200 with malformed JSON/),
    ],
  ])('answers %s with the fault the tree path gives', async (what, json, last) => {
    expect(json.length > streamAbove).toBe(what.includes('large'));
    const { headers, body } = await searchRead(json);
    expect(faultString(body)).toEqual(last);
    expect(headers.get('content-length')).toBe(String(body.length));
  });
});
