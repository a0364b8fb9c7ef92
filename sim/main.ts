/**
 * CLI: starts the simulator in its own process (for benchmarks) and prints its URL and demo
 * credentials as one JSON line on stdout. Stops on SIGINT/SIGTERM.
 *
 *   tsx sim/main.ts [--port N] [--host H] [--databases a,b] [--generated-partners N] [--log-limit N]
 *                   [--backup-padding BYTES]   (generated filestore bytes in every database backup)
 *                   [--legacy-endpoints]       (serve /xmlrpc, /xmlrpc/2 and /jsonrpc: shadow-mode benchmarks)
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { startSimulator, type SimulatorOptions } from './index.ts';

function integer(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) throw new Error(`--${name} must be a non-negative integer, got ${JSON.stringify(text)}`);
  return Number(text);
}

/** Parses the command line into simulator options; throws with a message per bad value. */
export function optionsFromArgs(argv: string[]): SimulatorOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      databases: { type: 'string' },
      'generated-partners': { type: 'string' },
      'log-limit': { type: 'string' },
      'backup-padding': { type: 'string' },
      'legacy-endpoints': { type: 'boolean' },
    },
    strict: true,
  });
  const opts: SimulatorOptions = {};
  const port = integer('port', values.port);
  if (port !== undefined) opts.port = port;
  if (values.host !== undefined) opts.host = values.host;
  if (values.databases !== undefined) opts.databases = values.databases.split(',').map((s) => s.trim());
  const generated = integer('generated-partners', values['generated-partners']);
  if (generated !== undefined) opts.generatedPartners = generated;
  const logLimit = integer('log-limit', values['log-limit']);
  if (logLimit !== undefined) opts.logLimit = logLimit;
  const backupPadding = integer('backup-padding', values['backup-padding']);
  if (backupPadding !== undefined) opts.databaseManager = { backupPadding };
  if (values['legacy-endpoints'] === true) opts.legacyEndpoints = true;
  return opts;
}

async function main(): Promise<void> {
  const sim = await startSimulator(optionsFromArgs(process.argv.slice(2)));
  const databases = sim.databases();
  const info = {
    url: sim.url,
    port: sim.port,
    databases,
    users: Object.fromEntries(databases.map((db) => [db, sim.users(db)])),
  };
  process.stdout.write(`${JSON.stringify(info)}\n`);
  const stop = () => {
    sim.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    process.stderr.write(`odoo simulator: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(2);
  });
}
