/**
 * Waymark driven through its command line, as an operator would: `waymark import` into a data
 * folder, an Enterprise organization (unlimited quotas) with a maps key, and `waymark serve`.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { freePort, startCommand, type ServerChild } from '../lib/child.js';
import { PACKAGE_ROOT } from '../../core/package-root.js';

export const WAYMARK_BIN = join(PACKAGE_ROOT, 'bin', 'waymark.js');
/** The tileset and tile route of issue 3, relative to the server. */
export const TILE_PATH_PREFIX = '/api/v1/tiles/shortbread/';
export const TILE_SERVICE = 'maps';

/** Runs a short CLI command with `--json` (`env` adds WAYMARK_* settings); throws with its output when it fails. */
function cli(args: string[], env: Record<string, string> = {}): unknown {
  const run = spawnSync(process.execPath, [WAYMARK_BIN, ...args, '--json'], { encoding: 'utf8', env: { ...process.env, ...env } });
  if (run.status !== 0) throw new Error(`waymark ${args.join(' ')} failed (${run.status ?? run.signal}): ${run.stderr}${run.stdout}`);
  return JSON.parse(run.stdout);
}

/** Null when `waymark import` exists; else why it cannot run (the command is not built yet). */
export function importUnavailable(): string | null {
  const help = spawnSync(process.execPath, [WAYMARK_BIN, 'import', '--help'], { encoding: 'utf8' });
  if (help.status === 0) return null;
  const lines = (help.stderr || help.stdout).trim().split('\n');
  return `\`waymark import --help\` failed: ${(lines.find((l) => /error/i.test(l)) ?? lines[0] ?? '').trim()}`;
}

export function importArgs(osm: string, dataDir: string): string[] {
  return [WAYMARK_BIN, 'import', '--osm', osm, '--data', dataDir];
}

/** DATA/current/tiles.mbtiles, the archive an import writes. */
export const importedMbtiles = (dataDir: string) => join(dataDir, 'current', 'tiles.mbtiles');

export interface BenchOrg {
  /** The organization's name (default `Bench`); its user is `<name>@example.com`, lower-cased, spaces as dashes. */
  org?: string;
  /** Enterprise custom quotas as `waymark org set-tier --quota` takes them (`maps=200,geocoding=200`); unlimited without. */
  quota?: string;
  /** WAYMARK_* settings of the CLI, e.g. the Redis store's. */
  env?: Record<string, string>;
}

/** Creates a user, makes its organization Enterprise and returns a new key with these scopes. */
export function createEnterpriseKey(dataDir: string, scopes: readonly string[] = [TILE_SERVICE], options: BenchOrg = {}): string {
  const { org = 'Bench', quota, env } = options;
  const email = `${org.toLowerCase().replaceAll(' ', '-')}@example.com`;
  cli(['user', 'create', '--email', email, '--password', 'benchmark password', '--org', org, '--data', dataDir], env);
  cli(['org', 'set-tier', '--org', org, '--tier', 'enterprise', ...(quota ? ['--quota', quota] : []), '--data', dataDir], env);
  const key = cli(['key', 'create', '--org', org, '--name', 'bench', '--scopes', scopes.join(','), '--data', dataDir], env) as {
    value: string;
  };
  return key.value;
}

/**
 * `waymark serve` on the data folder, stdout (its access log) to /dev/null, pinned to `cpu`; `env`
 * adds settings, and `bin` runs another checkout's build (a baseline) instead of this one.
 */
export async function startWaymarkServe(
  dataDir: string,
  cpu: number | undefined,
  options: { name?: string; env?: Record<string, string>; bin?: string } = {},
): Promise<ServerChild> {
  const port = await freePort();
  const argv = [options.bin ?? WAYMARK_BIN, 'serve', '--port', String(port), '--host', '127.0.0.1', '--data', dataDir];
  return startCommand(options.name ?? 'waymark serve', process.execPath, argv, {
    port,
    cpu,
    env: options.env,
    readyUrl: `http://127.0.0.1:${port}/api/v1/usage/current`,
  });
}
