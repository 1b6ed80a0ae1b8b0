/**
 * Part 5 of the routing benchmark: osrm-routed (OSRM's own server, contraction hierarchies) beside
 * `waymark serve` on the same extract and the same driving pairs, both through OSRM's route
 * service with steps, with keep-alive and with a new connection per request. OSRM is not a
 * dependency of Waymark (neither npm nor Debian packages it): the part runs when its binaries are
 * given (`--osrm-bin DIR`, or `osrm-routed` on the PATH), else the report says it was not measured.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { PACKAGE_ROOT } from '../../core/package-root.js';
import { freePort, startCommand, type ServerChild } from '../lib/child.js';
import type { CommandMeasurement } from '../lib/measure-command.js';
import { measuredOk } from './builds.js';
import { routingTarget, type RoutingTarget } from './gateway-load.js';
import type { Position } from './random-points.js';

/** OSRM's car profile as v6.0.0 ships it, read from the shared reference folder (never copied into the project). */
export const OSRM_CAR_PROFILE = join(PACKAGE_ROOT, '..', 'shared', 'reference', 'osrm-v6.0.0', 'profiles', 'car.lua');

export interface OsrmInstall {
  /** The folder of osrm-extract, osrm-contract and osrm-routed. */
  bin: string;
  profile: string;
  version: string;
}

/** The OSRM binaries in `bin` (or beside `osrm-routed` on the PATH); a sentence saying what is missing otherwise. */
export function findOsrm(bin: string | undefined, profile = OSRM_CAR_PROFILE): OsrmInstall | string {
  const folder = bin ?? onPath('osrm-routed');
  if (folder === undefined) return 'osrm-routed is not on the PATH and --osrm-bin was not given';
  const missing = ['osrm-extract', 'osrm-contract', 'osrm-routed'].filter((tool) => !existsSync(join(folder, tool)));
  if (missing.length > 0) return `${missing.join(', ')} not found in ${folder}`;
  if (!existsSync(profile)) return `OSRM's car profile is not at ${profile}`;
  const version = spawnSync(join(folder, 'osrm-routed'), ['--version'], { encoding: 'utf8' }).stdout.trim();
  return { bin: folder, profile, version };
}

function onPath(tool: string): string | undefined {
  const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
  return found === '' ? undefined : dirname(found);
}

export interface OsrmBuild {
  extract: CommandMeasurement;
  contract: CommandMeasurement;
  /** The `.osrm` base name osrm-routed serves. */
  dataset: string;
}

/** osrm-extract with the car profile and osrm-contract, on a copy of `osm` in `workDir`, each measured. */
export async function buildOsrm(osrm: OsrmInstall, osm: string, workDir: string, quietWaitMs: number): Promise<OsrmBuild> {
  const dir = join(workDir, 'osrm');
  mkdirSync(dir, { recursive: true });
  const input = join(dir, basename(osm));
  copyFileSync(osm, input);
  const dataset = input.replace(/\.osm\.pbf$/, '.osrm');
  const tool = (name: string) => join(osrm.bin, name);
  const extract = await measuredOk(['-p', osrm.profile, input], join(dir, 'extract'), quietWaitMs, tool('osrm-extract'));
  const contract = await measuredOk([dataset], join(dir, 'contract'), quietWaitMs, tool('osrm-contract'));
  return { extract, contract, dataset };
}

export async function startOsrmRouted(osrm: OsrmInstall, dataset: string, threads: number): Promise<ServerChild> {
  const port = await freePort();
  const argv = ['--ip', '127.0.0.1', '--port', String(port), '--threads', String(threads), '--algorithm', 'CH', dataset];
  return startCommand(`osrm-routed --threads ${threads}`, join(osrm.bin, 'osrm-routed'), argv, {
    port,
    // Any answer below 500 means it listens (a 400 NoSegment for a point in the sea).
    readyUrl: `http://127.0.0.1:${port}/nearest/v1/driving/0,0`,
    startTimeoutMs: 120_000,
  });
}

/** OSRM's route service path for a pair, with steps, as a client of either server sends it. */
export const osrmRoutePath = (pair: { origin: Position; destination: Position }) =>
  `/route/v1/driving/${pair.origin.join(',')};${pair.destination.join(',')}?steps=true`;

/** Waymark serves OSRM's API under this prefix, with the key as a parameter. */
const WAYMARK_OSRM_PREFIX = '/api/v1/osrm';

export interface ComparedPairs {
  /** Pairs both servers answered 200 (those measured). */
  routed: { origin: Position; destination: Position }[];
  /** Pairs only one of them answered 200. */
  onlyWaymark: number;
  onlyOsrm: number;
}

/** Sends each pair once to both servers and keeps those both route. */
export async function comparePairs(
  pairs: { origin: Position; destination: Position }[],
  waymark: ServerChild,
  osrm: ServerChild,
  key: string,
): Promise<ComparedPairs> {
  const compared: ComparedPairs = { routed: [], onlyWaymark: 0, onlyOsrm: 0 };
  for (const pair of pairs) {
    const path = osrmRoutePath(pair);
    const [w, o] = await Promise.all([
      fetch(`http://127.0.0.1:${waymark.port}${WAYMARK_OSRM_PREFIX}${path}&key=${key}`),
      fetch(`http://127.0.0.1:${osrm.port}${path}`),
    ]);
    await Promise.all([w.arrayBuffer(), o.arrayBuffer()]);
    if (w.status >= 500 || o.status >= 500) throw new Error(`${path} answered ${w.status} (Waymark) and ${o.status} (OSRM)`);
    if (w.status === 200 && o.status === 200) compared.routed.push(pair);
    else if (w.status === 200) compared.onlyWaymark++;
    else if (o.status === 200) compared.onlyOsrm++;
  }
  if (compared.routed.length === 0) throw new Error('no pair was routed by both Waymark and OSRM');
  return compared;
}

/** The four targets: each server with keep-alive and with a new connection per request. */
export function againstOsrmTargets(
  routed: ComparedPairs['routed'],
  waymark: { child: ServerChild; threads: number },
  osrm: { child: ServerChild; threads: number },
  key: string,
  workDir: string,
): RoutingTarget[] {
  const paths = routed.map(osrmRoutePath);
  const servers = [
    { name: 'waymark serve', ...waymark, paths: paths.map((path) => `${WAYMARK_OSRM_PREFIX}${path}&key=${key}`) },
    { name: 'osrm-routed', ...osrm, paths },
  ];
  return servers.flatMap((server, s) =>
    (['keep-alive', 'new connection per request'] as const).map((connection, c) => {
      const target = routingTarget(
        server.child,
        server.threads,
        `${server.name}, ${connection}`,
        server.paths,
        join(workDir, `osrm-${s}-${c}.lua`),
      );
      // wrk opens a new connection after each answer to `Connection: close`.
      return connection === 'keep-alive' ? target : { ...target, headers: { Connection: 'close' } };
    }),
  );
}
