/**
 * A passthrough body that cannot be spooled (a full disk, a missing directory) is the gateway's own
 * failure: the answer names it with the system's code instead of "Odoo could not be reached", and
 * the log has it. Odoo is never contacted.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { startGateway, type RunningGateway } from '../../src/server/gateway.ts';
import { captureLog } from '../support/captured-log.ts';

let upstream: Server | undefined;
let gateway: RunningGateway | undefined;
afterEach(async () => {
  await gateway?.close();
  upstream?.closeAllConnections();
  upstream?.close();
  gateway = upstream = undefined;
});

describe('a passthrough body the spool directory cannot take', () => {
  it('answers 500 naming the real error, logs it, and never reaches Odoo', async () => {
    const uploads: string[] = [];
    upstream = createServer((req, res) => {
      if (req.url !== '/web/health' && req.url !== '/web/webclient/version_info') uploads.push(req.url ?? '');
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status": "pass"}');
    }).listen(0, '127.0.0.1');
    await once(upstream, 'listening');
    const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const captured = captureLog('warn');
    const flags = ['--port', '0', '--admin-port', '0', '--upstream', url, '--passthrough-buffer', '1024'];
    const missing = '/nonexistent/legacy-rpc-gateway-spool';
    gateway = await startGateway(loadConfig([...flags, '--passthrough-spool-dir', missing], {}), captured.log);
    const res = await fetch(`${gateway.url}/web/binary/upload_attachment`, { method: 'POST', body: 'x'.repeat(64 * 1024) });
    const text = await res.text();
    expect(res.status).toBe(500);
    expect(text).toContain(`could not write the request body to --passthrough-spool-dir ${missing}: ENOENT`);
    expect(text).not.toContain('could not be reached');
    expect(captured.matching('passthrough failed: the request body could not be spooled')).toEqual([
      expect.objectContaining({ code: 'ENOENT', detail: expect.stringContaining('ENOENT') as unknown }),
    ]);
    expect(uploads).toEqual([]);
  });
});
