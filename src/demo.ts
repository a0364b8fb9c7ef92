/**
 * `--demo`'s simulator (docs/architecture.md §7), loaded only when `--demo` is given. Its module path
 * is made at run time, so neither the gateway's build (`tsconfig.build.json`, `src/` only) nor its
 * start-up reaches `sim/`: the simulator is compiled on its own (`tsconfig.sim.json`, into
 * `dist/sim/`) and shipped beside the gateway for `--demo` alone. The shape below is what the CLI
 * uses of `sim/index.ts`; `src/demo.test.ts` holds it against the simulator's own types.
 */
import { fileURLToPath } from 'node:url';

/** A running simulator, as `--demo` uses it. */
export interface DemoSimulator {
  readonly url: string;
  /** The seeded users of a database: login, password and API key, printed once for the operator. */
  users(db: string): ReadonlyArray<{ login: string; password: string; key: string }>;
  close(): Promise<void>;
}

/** `startSimulator` of `sim/index.ts`, narrowed to the options `--demo` gives. */
export type StartDemoSimulator = (options: {
  databases: string[];
  series: '19.0' | 'saas-19.1' | '20.0';
  port: number;
}) => Promise<DemoSimulator>;

/**
 * The simulator module beside this one: `../sim/index.ts` under tsx (`npm run demo`), `../sim/index.js`
 * in the compiled package (`dist/src/demo.js` → `dist/sim/index.js`).
 */
export function simulatorModuleUrl(here: string = import.meta.url): string {
  return new URL(`../sim/index${here.endsWith('.ts') ? '.ts' : '.js'}`, here).href;
}

/** Loads the simulator; a clear error when this installation has none (a build of `src/` alone). */
export async function loadDemoSimulator(url: string = simulatorModuleUrl()): Promise<StartDemoSimulator> {
  let loaded: { startSimulator?: unknown };
  try {
    loaded = (await import(url)) as { startSimulator?: unknown };
  } catch (err) {
    const e = err as { code?: unknown; url?: unknown; message?: unknown };
    if (e.code === 'ERR_MODULE_NOT_FOUND' && (e.url === url || String(e.message).includes(fileURLToPath(url)))) {
      throw new Error(`--demo needs the simulator (${url}), which this installation does not hold`, { cause: err });
    }
    throw err;
  }
  if (typeof loaded.startSimulator !== 'function') throw new Error(`--demo: ${url} exports no startSimulator`);
  return loaded.startSimulator as StartDemoSimulator;
}
