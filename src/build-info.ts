/**
 * The gateway's own version, from its package.json (found above this module whether it runs from
 * `src/` or from the compiled `dist/src/`), for `/metrics` (`build_info`) and trace resources.
 */
import { existsSync, readFileSync } from 'node:fs';

function readVersion(): string {
  for (const relative of ['../package.json', '../../package.json']) {
    const url = new URL(relative, import.meta.url);
    if (!existsSync(url)) continue;
    const pkg = JSON.parse(readFileSync(url, 'utf8')) as { name?: unknown; version?: unknown };
    if (pkg.name === 'legacy-rpc-gateway' && typeof pkg.version === 'string') return pkg.version;
  }
  return 'unknown';
}

/** The version in package.json, read once. */
export const gatewayVersion = readVersion();
