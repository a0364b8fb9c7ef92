#!/usr/bin/env node
/**
 * CLI entry: `legacy-rpc-gateway [--flag value ...]`. `--demo` starts the embedded Odoo 19
 * simulator and serves in front of it, printing the demo credentials once to stderr.
 * `legacy-rpc-gateway hash-password` prints the scrypt hash of the password on standard input
 * (credential map entries); `legacy-rpc-gateway login-id` the report's pseudonym of the login on
 * standard input (keyed with `STATE_SECRET`). SIGTERM/SIGINT stop gracefully and retire the minted API keys; SIGHUP
 * reloads `--routes-file` when one is set.
 */
import { ConfigError, helpText, loadConfig, secretsOnCommandLine, type Config } from './config.ts';
import { runHashPasswordCommand } from './credentials/hash-password-command.ts';
import { loadDemoSimulator } from './demo.ts';
import { runLoginIdCommand } from './report/login-id-command.ts';
import { createProcessLogger } from './log.ts';
import { startGateway } from './server/gateway.ts';
import { tuneJit } from './jit-tuning.ts';

async function main(argv: string[]): Promise<void> {
  tuneJit();
  if (argv[0] === 'hash-password') {
    await runHashPasswordCommand(process.stdin, process.stdout);
    return;
  }
  if (argv[0] === 'login-id') {
    await runLoginIdCommand(process.stdin, process.stdout, process.env);
    return;
  }
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${helpText()}\n`);
    return;
  }
  let config: Config;
  try {
    config = loadConfig(argv, process.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    exitOnConfigError(err);
  }
  const log = createProcessLogger(config.logLevel, config.logFormat, { flushIntervalMs: config.logFlushIntervalMs });
  const exposed = secretsOnCommandLine(argv);
  if (exposed.length > 0) {
    const forms = exposed.map((flag) => `${flag}-file or ${flag.slice(2).toUpperCase().replaceAll('-', '_')}_FILE`).join(', ');
    log.warn(
      { flags: exposed },
      `secrets given as command-line flags (${exposed.join(', ')}): every local user can read them in ps, and npm echoes the script line into its log; give them as files instead (${forms}; docs/deployment.md)`,
    );
  }
  const stops: Array<() => Promise<void>> = [];
  if (config.demo) {
    const startSimulator = await loadDemoSimulator();
    const sim = await startSimulator({ databases: ['demo'], series: config.demoSeries, port: config.demoPort });
    stops.push(() => sim.close());
    config = Object.freeze({ ...config, upstream: sim.url });
    const users = sim.users('demo').map((u) => `  ${u.login.padEnd(24)} password ${u.password.padEnd(12)} api key ${u.key}`);
    process.stderr.write(`Demo mode: simulated Odoo ${config.demoSeries} at ${sim.url}, database "demo". Users:\n${users.join('\n')}\n`);
  }
  const gateway = await startGateway(config, log);
  stops.unshift(() => gateway.close());
  log.info({ url: gateway.url, adminUrl: gateway.adminUrl, upstream: config.upstream }, 'legacy-rpc-gateway listening');
  if (config.demo) process.stderr.write(`Point legacy clients at ${gateway.url} (e.g. ${gateway.url}/xmlrpc/2/common).\n`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // stop taking calls, let in-flight ones finish (--shutdown-grace), retire the minted keys,
    // save the migration report (gateway.close), then the demo simulator; a second signal kills
    log.info({ signal, graceMs: config.shutdownGraceMs }, 'shutting down');
    for (const s of stops) await s().catch((err: unknown) => log.error({ err }, 'error while stopping'));
    log.info({ signal }, 'stopped');
    process.exit(0);
  };
  // --routes-file: SIGHUP reloads it (a bad file is refused, the routes in force kept); without one
  // SIGHUP keeps Node's default
  if (config.routesFile !== undefined) process.on('SIGHUP', () => void gateway.routes?.reload('SIGHUP'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

/** Bad settings, or a settings file (`--signatures-file`) that does not validate: one line each, exit 2. */
function exitOnConfigError(err: ConfigError): never {
  process.stderr.write(`legacy-rpc-gateway: invalid configuration\n${err.problems.map((p) => `  - ${p}`).join('\n')}\n`);
  process.exit(2);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof ConfigError) exitOnConfigError(err);
  process.stderr.write(`legacy-rpc-gateway: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
