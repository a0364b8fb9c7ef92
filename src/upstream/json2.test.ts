/**
 * `callJson2Text()`: what goes to the upstream. The named arguments leave as UTF-8 bytes written
 * once: an attachment's megabytes of base64 are not first copied into a JSON text (issue #44).
 */
import { describe, expect, it } from 'vitest';
import { createCallValues, type CallOrigin } from '../call.ts';
import { loadConfig } from '../config.ts';
import { PyBinary, type Value } from '../value.ts';
import { callJson2Text } from './json2.ts';
import type { UpstreamHttp, UpstreamRequest } from './pool.ts';

const origin: CallOrigin = {
  host: '',
  ip: '127.0.0.1',
  proto: 'http',
  userAgent: '',
  requestId: 't',
  values: createCallValues(),
  signal: new AbortController().signal,
};

describe('callJson2Text()', () => {
  it('sends the named arguments as the UTF-8 bytes of their JSON', async () => {
    const sent: UpstreamRequest[] = [];
    const http: UpstreamHttp = {
      url: 'http://odoo',
      async send(request) {
        sent.push(request);
        return { status: 200, contentType: 'application/json', headers: {}, text: '7', elapsedMs: 1 };
      },
      close: async () => undefined,
    };
    const datas = 'QUJD'.repeat(100_000);
    const body = new Map<string, Value>([
      [
        'vals_list',
        [
          new Map<string, Value>([
            ['name', 'Reçu.pdf'],
            ['datas', new PyBinary(datas)],
          ]),
        ],
      ],
    ]);
    const config = loadConfig(['--upstream', 'http://odoo'], {});
    await callJson2Text(http, config, { db: 'gw', key: 'k'.repeat(40), model: 'ir.attachment', method: 'create', body }, origin);
    const request = sent[0] as UpstreamRequest;
    expect(request.body).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(request.body as Uint8Array).toString('utf8')).toBe(`{"vals_list":[{"name":"Reçu.pdf","datas":"${datas}"}]}`);
    expect(request.headers['content-type']).toBe('application/json; charset=utf-8');
  });
});
