/**
 * Test harness: the simulator and a gateway in front of it, over real HTTP on loopback ports, plus
 * a raw JSON-RPC caller. One stack per test file; `close()` in afterAll.
 */
import { startSimulator, type Simulator, type SimulatorOptions } from '../../sim/index.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { parseJson, stringifyJson } from '../../src/json/index.ts';
import { createLogger, type Logger } from '../../src/log.ts';
import { startGateway, type GatewayOptions, type RunningGateway } from '../../src/server/gateway.ts';
import { struct, type Value } from '../../src/value.ts';

export interface Stack {
  sim: Simulator;
  gateway: RunningGateway;
  config: Config;
  /** POSTs a `/jsonrpc` call; resolves with the decoded envelope's `result` or `error`. */
  /** Plain objects in `args` are sent as JSON objects. */
  jsonrpc(
    service: string,
    method: string,
    args: unknown[],
    headers?: Record<string, string>,
  ): Promise<{ result?: Value; error?: Map<string, Value> }>;
  /** POSTs a raw body to a gateway path. */
  post(path: string, body: string, contentType?: string): Promise<{ status: number; contentType: string; text: string }>;
  close(): Promise<void>;
}

export async function startStack(
  /** `flags` may depend on the simulator (e.g. `--service-key` with a seeded user's key). */
  options: {
    databases?: string[];
    flags?: string[] | ((sim: Simulator) => string[]);
    gateway?: GatewayOptions;
    log?: Logger;
    /** More simulator options (clock, later build, TOTP logins, system parameters). */
    sim?: Omit<SimulatorOptions, 'databases'>;
  } = {},
): Promise<Stack> {
  const sim = await startSimulator({ ...options.sim, databases: options.databases ?? ['demo'] });
  const flags = typeof options.flags === 'function' ? options.flags(sim) : (options.flags ?? []);
  const config = loadConfig(['--port', '0', '--admin-port', '0', '--upstream', sim.url, ...flags], {});
  const gateway = await startGateway(config, options.log ?? createLogger('silent'), options.gateway);
  // the start-up check's own requests are not what a test counts
  await gateway.startupCheck.start();
  sim.clearLog();
  async function post(path: string, body: string, contentType = 'application/json', headers: Record<string, string> = {}) {
    const res = await fetch(gateway.url + path, { method: 'POST', body, headers: { ...headers, 'content-type': contentType } });
    return { status: res.status, contentType: res.headers.get('content-type') ?? '', text: await res.text() };
  }
  return {
    sim,
    gateway,
    config,
    post,
    jsonrpc: (service, method, args, headers) => jsonrpcAt(gateway.url, service, method, args, headers),
    async close() {
      await gateway.close();
      await sim.close();
    },
  };
}

let nextId = 0;

/** POSTs a `/jsonrpc` call to the gateway at `url`; plain objects in `args` are sent as JSON objects. */
export async function jsonrpcAt(
  url: string,
  service: string,
  method: string,
  args: unknown[],
  headers: Record<string, string> = {},
): Promise<{ result?: Value; error?: Map<string, Value> }> {
  const params = struct({ service, method, args: args.map(toValue) });
  const body = stringifyJson(struct({ jsonrpc: '2.0', method: 'call', params, id: ++nextId }));
  const res = await fetch(`${url}/jsonrpc`, { method: 'POST', body, headers: { ...headers, 'content-type': 'application/json' } });
  const envelope = parseJson(await res.text()) as Map<string, Value>;
  return envelope.has('error')
    ? { error: envelope.get('error') as Map<string, Value> }
    : { result: envelope.has('result') ? envelope.get('result') : null };
}

/** The `data` of a JSON-RPC error: `{name, message, ...}` as a plain object. */
export function errorData(error: Map<string, Value> | undefined): { name: string; message: string; debug: string } {
  const data = error?.get('data') as Map<string, Value> | undefined;
  return {
    name: String(data?.get('name')),
    message: String(data?.get('message')),
    debug: String(data?.get('debug')),
  };
}

/** Plain JS data → Value: objects become Maps (recursively); everything else is kept. */
export function toValue(v: unknown): Value {
  if (Array.isArray(v)) return v.map(toValue);
  if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    return new Map(Object.entries(v).map(([k, item]) => [k, toValue(item)]));
  }
  return v as Value;
}
