import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { startSimulator } from '../sim/index.ts';
import { loadDemoSimulator, simulatorModuleUrl, type StartDemoSimulator } from './demo.ts';

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
    const sim = await start({ databases: ['demo'], series: '19.0' });
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
});
