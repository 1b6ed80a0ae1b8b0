/**
 * tileserver-gl-light (a benchmark tool: `scripts/setup.sh --bench` installs it in bench/tools) serving one MBTiles file as its only data source, as its
 * documentation configures it; tiles at /data/<id>/{z}/{x}/{y}.pbf. It runs as deployed (its
 * Docker image sets NODE_ENV=production), request log to stdout, here /dev/null.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { freePort, startCommand, type ServerChild } from '../lib/child.js';
import { PACKAGE_ROOT } from '../../core/package-root.js';

const PACKAGE_DIR = join(PACKAGE_ROOT, 'bench', 'tools', 'node_modules', 'tileserver-gl-light');
export const TILESERVER_DATA_ID = 'shortbread';

export function tileserverVersion(): string {
  return `tileserver-gl-light ${(JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { version: string }).version}`;
}

export const tileserverPathPrefix = `/data/${TILESERVER_DATA_ID}/`;

/** Writes `<dir>/tileserver-config.json` for `mbtiles` and starts the server on it, pinned to `cpu`. */
export async function startTileserver(mbtiles: string, dir: string, cpu: number | undefined): Promise<ServerChild> {
  const config = join(dir, 'tileserver-config.json');
  writeFileSync(
    config,
    JSON.stringify(
      { options: { paths: { root: dir, mbtiles: dirname(mbtiles) } }, data: { [TILESERVER_DATA_ID]: { mbtiles: basename(mbtiles) } } },
      null,
      2,
    ),
  );
  const port = await freePort();
  const argv = [join(PACKAGE_DIR, 'src', 'main.js'), '--config', config, '--port', String(port), '--bind', '127.0.0.1'];
  return startCommand(tileserverVersion(), process.execPath, argv, {
    port,
    cpu,
    env: { NODE_ENV: 'production' },
    readyUrl: `http://127.0.0.1:${port}/health`,
  });
}
