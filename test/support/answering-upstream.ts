/**
 * A gateway in front of a fake JSON-2 upstream that answers every object call with whatever the test
 * sets, for tests about how the gateway writes an answer (transcoding, framing). The API key passed
 * as the password is accepted: `context_get` says uid 2.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { startGateway, type RunningGateway } from '../../src/server/gateway.ts';
import { encodeRequest } from '../fixtures-xml/xmlrpc-request.ts';

export interface UpstreamAnswer {
  status: number;
  body: string;
  /** Default: JSON. */
  contentType?: string;
}

/** The API key the calls below pass as the password. */
export const answeringKey = 'a'.repeat(40);

/** An XML-RPC `execute_kw` of `res.partner.search_read` as uid 2 on database demo, as Python writes it. */
export const searchReadCall = encodeRequest('execute_kw', ['demo', 2, answeringKey, 'res.partner', 'search_read', []]).toString('utf8');

/** Starts the fake upstream and a gateway in front of it; `answer()` is asked at each call. */
export async function startAnsweringGateway(answer: () => UpstreamAnswer): Promise<{ gateway: RunningGateway; close(): Promise<void> }> {
  const upstream = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const { status, body, contentType } = req.url === '/json/2/res.users/context_get' ? { status: 200, body: '{"uid": 2}' } : answer();
      res.writeHead(status, { 'content-type': contentType ?? 'application/json; charset=utf-8' }).end(body);
    });
  }).listen(0, '127.0.0.1');
  await once(upstream, 'listening');
  const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const gateway = await startGateway(loadConfig(['--port', '0', '--admin-port', '0', '--upstream', url], {}), createLogger('silent'));
  return {
    gateway,
    async close() {
      await gateway.close();
      upstream.closeAllConnections();
      upstream.close();
    },
  };
}
