/**
 * `scripts/install-test-deps.sh` (npm test's pretest), run against stand-ins for
 * dpkg-query, apt-get, id and redis-cli placed first on PATH: silent when everything is there, a
 * command to run when not root, an announcement and condensed apt progress when installing.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const script = new URL('../../scripts/install-test-deps.sh', import.meta.url).pathname;
const everything = [
  'python3',
  'python3-odoorpc',
  'perl',
  'librpc-xml-perl',
  'ruby',
  'ruby-xmlrpc',
  'php-cli',
  'php-xmlrpc',
  'chromium',
  'redis-server',
  'redis-tools',
];

let dir: string;

/** The stand-ins: each reads its behaviour from FAKE_* variables and appends its arguments to calls.log. */
function stubs(): void {
  const stub = (name: string, body: string) => {
    writeFileSync(join(dir, name), `#!/bin/bash\necho "${name} $*" >> "${dir}/calls.log"\n${body}\n`);
    chmodSync(join(dir, name), 0o755);
  };
  // dpkg-query -W -f='${Package} ${Status}\n' names...: "installed" for the names in FAKE_INSTALLED
  stub('dpkg-query', 'shift 2; for p in "$@"; do [[ " $FAKE_INSTALLED " == *" $p "* ]] && echo "$p install ok installed"; done; exit 0');
  stub('id', 'echo "$FAKE_UID"');
  stub('redis-cli', 'echo PONG');
  stub(
    'apt-get',
    [
      'case "$*" in',
      '  update*) [ -n "$FAKE_UPDATE_FAILS" ] && { echo "E: no network" >&2; exit 100; }; exit 0 ;;',
      '  *--assume-no*) echo "0 upgraded, 42 newly installed, 0 to remove and 3 not upgraded."; echo "Need to get 98.3 MB of archives."; exit 1 ;;',
      'esac',
      // apt's machine-readable progress on the descriptor APT::Status-Fd names, its chatter on stdout
      'for i in $(seq 0 40); do echo "dlstatus:$i:$((i * 100 / 40)).5000:Retrieving file $i of 40" >&3; echo "Get:$i http://deb.debian.org/debian bookworm/main pkg$i"; done',
      '[ -n "$FAKE_INSTALL_FAILS" ] && { echo "E: Unable to locate package php-xmlrpc"; exit 100; }',
      'for i in $(seq 0 90); do echo "pmstatus:pkg$i:$((i * 100 / 91)).1000:Unpacking pkg$i" >&3; echo "Unpacking pkg$i ..."; done',
      'exit 0',
    ].join('\n'),
  );
}

function run(env: { installed: string[]; uid: number; redisUrl?: string; updateFails?: boolean; installFails?: boolean }) {
  rmSync(join(dir, 'calls.log'), { force: true });
  const result = spawnSync('bash', [script], {
    encoding: 'utf8',
    env: {
      PATH: `${dir}:/usr/bin:/bin`,
      FAKE_INSTALLED: env.installed.join(' '),
      FAKE_UID: String(env.uid),
      FAKE_UPDATE_FAILS: env.updateFails ? '1' : '',
      FAKE_INSTALL_FAILS: env.installFails ? '1' : '',
      ...(env.redisUrl !== undefined ? { REDIS_URL: env.redisUrl } : {}),
    },
  });
  let calls: string[] = [];
  try {
    calls = readFileSync(join(dir, 'calls.log'), 'utf8').trim().split('\n');
  } catch {
    // no stand-in was called
  }
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, calls };
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'install-test-deps-'));
  stubs();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('scripts/install-test-deps.sh', () => {
  it('says nothing and runs no apt when everything is installed, root or not', () => {
    for (const uid of [0, 1000]) {
      const r = run({ installed: everything, uid });
      expect(r).toMatchObject({ status: 0, stdout: '', stderr: '' });
      expect(r.calls.filter((c) => c.startsWith('apt-get'))).toEqual([]);
      expect(r.calls.filter((c) => c.startsWith('dpkg-query'))).toHaveLength(1); // one query for all packages
    }
  });

  it('fails at once when not root and something is missing, with the command to run', () => {
    const r = run({ installed: everything.filter((p) => p !== 'chromium' && p !== 'php-xmlrpc'), uid: 1000 });
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('php-xmlrpc');
    expect(r.stdout).toMatch(/chromium +headless Chromium for the report page test/);
    expect(r.stderr).toContain('installing them needs root');
    expect(r.stderr).toContain('  sudo apt-get update && sudo apt-get install -y php-xmlrpc chromium\n');
    expect(r.calls.filter((c) => c.startsWith('apt-get'))).toEqual([]);
  });

  it('asks for redis-server even when REDIS_URL points elsewhere: the outage tests start Redis servers of their own', () => {
    const r = run({ installed: everything.filter((p) => p !== 'redis-server'), uid: 1000, redisUrl: 'redis://10.0.0.5:6379' });
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('  redis-server     Redis for the replica and outage tests');
    expect(r.stderr).toContain('  sudo apt-get update && sudo apt-get install -y redis-server\n');
  });

  it('as root, announces what it installs and why, then shows apt progress condensed', () => {
    const r = run({ installed: everything.filter((p) => p !== 'python3-odoorpc' && p !== 'ruby-xmlrpc'), uid: 0 });
    expect(r.status).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toEqual([
      'install-test-deps: the tests need these Debian packages, which are not installed:',
      '  python3-odoorpc  OdooRPC, a legacy client the interop tests drive (test/interop)',
      '  ruby-xmlrpc      XMLRPC::Client, a legacy client the interop tests drive (test/interop)',
      'install-test-deps: apt-get update (an apt already running, as on a fresh machine installing its updates, is waited for up to 5 minutes)',
      'install-test-deps: apt-get install python3-odoorpc ruby-xmlrpc (42 packages with dependencies, 98.3 MB to download)',
      '  downloading 0% 10% 20% 30% 40% 50% 60% 70% 80% 90% 100%',
      '  installing  0% 10% 20% 30% 40% 50% 60% 70% 80% 90%',
      expect.stringMatching(/^install-test-deps: installed in \d+ s$/),
    ]);
    expect(r.stdout).not.toContain('Unpacking'); // apt's own chatter stays in its log
    expect(r.calls.filter((c) => c.startsWith('apt-get'))).toEqual([
      'apt-get update -q -o DPkg::Lock::Timeout=300',
      'apt-get install --assume-no python3-odoorpc ruby-xmlrpc',
      'apt-get install -y -q -o DPkg::Lock::Timeout=300 -o APT::Status-Fd=3 python3-odoorpc ruby-xmlrpc',
    ]);
  });

  it("as root, fails with apt's last lines when the install fails", () => {
    const r = run({ installed: everything.filter((p) => p !== 'php-xmlrpc'), uid: 0, installFails: true });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('E: Unable to locate package php-xmlrpc');
    expect(r.stderr).toContain('install-test-deps: apt-get install failed (exit 100; its last lines above)');
    expect(r.stdout).not.toContain('installed in');
  });

  it('as root, fails when apt-get update fails, before installing', () => {
    const r = run({ installed: everything.filter((p) => p !== 'php-xmlrpc'), uid: 0, updateFails: true });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('E: no network');
    expect(r.calls.filter((c) => c.startsWith('apt-get install'))).toEqual([]);
  });
});
