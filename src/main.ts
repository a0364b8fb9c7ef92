#!/usr/bin/env node
/**
 * CLI entry: `legacy-rpc-gateway [--flag value ...]`. `--demo` starts the embedded Odoo 19
 * simulator and serves in front of it, printing the demo credentials once to stderr.
 */
import { ConfigError, helpText, loadConfig, type Config } from './config.ts';
import { createLogger } from './log.ts';
import { startGateway } from './server/gateway.ts';

async function main(argv: string[]): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${helpText()}\n`);
    return;
  }
  let config: Config;
  try {
    config = loadConfig(argv, process.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`legacy-rpc-gateway: invalid configuration\n${err.problems.map((p) => `  - ${p}`).join('\n')}\n`);
    process.exit(2);
  }
  const log = createLogger(config.logLevel);
  const stops: Array<() => Promise<void>> = [];
  if (config.demo) {
    const { startSimulator } = await import('../sim/index.ts');
    const sim = await startSimulator({ databases: ['demo'] });
    stops.push(() => sim.close());
    config = Object.freeze({ ...config, upstream: sim.url });
    const users = sim.users('demo').map((u) => `  ${u.login.padEnd(24)} password ${u.password.padEnd(12)} api key ${u.key}`);
    process.stderr.write(`Demo mode: simulated Odoo 19 at ${sim.url}, database "demo". Users:\n${users.join('\n')}\n`);
  }
  const gateway = await startGateway(config, log);
  stops.unshift(() => gateway.close());
  log.info({ url: gateway.url, upstream: config.upstream }, 'legacy-rpc-gateway listening');
  if (config.demo) process.stderr.write(`Point legacy clients at ${gateway.url} (e.g. ${gateway.url}/xmlrpc/2/common).\n`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    for (const s of stops) await s().catch((err: unknown) => log.error({ err }, 'error while stopping'));
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`legacy-rpc-gateway: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
