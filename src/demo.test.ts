import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startSimulator } from '../sim/index.ts';
import { loadDemoSimulator, simulatorModuleUrl, type StartDemoSimulator } from './demo.ts';
import { childGatewayEnv } from '../test/support/child-gateway.ts';

const root = new URL('..', import.meta.url).pathname;

// The CLI's view of the simulator must stay true to the simulator: tsc (`npx tsc --noEmit -p .`)
// refuses this line when startSimulator's options or answer drift from what `--demo` uses.
const asTheCliSeesIt: StartDemoSimulator = startSimulator;

describe('--demo loads the simulator only when asked', () => {
  it('finds the simulator beside the gateway, as TypeScript under tsx and as JavaScript when compiled', () => {
    expect(simulatorModuleUrl('file:///app/src/demo.ts')).toBe('file:///app/sim/index.ts');
    expect(simulatorModuleUrl('file:///app/dist/src/demo.js')).toBe('file:///app/dist/sim/index.js');
  });

  it('loads the simulator module and starts it', async () => {
    const start = await loadDemoSimulator();
    expect(start).toBe(asTheCliSeesIt);
    const sim = await start({ databases: ['demo'], series: '19.0', port: 0 });
    try {
      expect(sim.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(sim.users('demo')[0]).toMatchObject({ login: expect.any(String), password: expect.any(String), key: expect.any(String) });
    } finally {
      await sim.close();
    }
  });

  it('says so when the installation holds no simulator', async () => {
    await expect(loadDemoSimulator('file:///nowhere/dist/sim/index.js')).rejects.toThrow(
      '--demo needs the simulator (file:///nowhere/dist/sim/index.js), which this installation does not hold',
    );
  });

  it("keeps sim/ out of the gateway's build: tsconfig.build.json compiles no file of it", () => {
    const listed = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json', '--listFilesOnly'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(listed.status, listed.stderr).toBe(0);
    const files = listed.stdout.split('\n').filter((f) => f.startsWith(root));
    expect(files.some((f) => f.startsWith(`${root}src/main.ts`))).toBe(true);
    expect(files.filter((f) => f.startsWith(`${root}sim/`))).toEqual([]);
  }, 60_000);

  it('serves the simulator on --demo-port (default 8079), named at start, for comparing answers natively', async () => {
    const probe = createServer().listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const port = (probe.address() as { port: number }).port;
    probe.close();
    await once(probe, 'close');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/main.ts', '--demo', '--port', '0', '--admin-port', '0', '--demo-port', String(port), '--log-level', 'warn'],
      { cwd: root, stdio: ['ignore', 'ignore', 'pipe'], env: childGatewayEnv() },
    );
    try {
      let err = '';
      child.stderr.setEncoding('utf8');
      await new Promise<void>((resolve, reject) => {
        child.stderr.on('data', (d: string) => {
          err += d;
          if (err.includes('Point legacy clients at')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`--demo exited ${code}: ${err}`)));
      });
      expect(err).toContain(`simulated Odoo 19.0 at http://127.0.0.1:${port},`);
      const version = await fetch(`http://127.0.0.1:${port}/web/version`);
      expect(version.status).toBe(200);
      expect(((await version.json()) as { version?: string }).version).toBe('19.0');
    } finally {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
    }
  }, 60_000);
});
