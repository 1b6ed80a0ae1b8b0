/**
 * OSRM itself as the harness's engine (`run.js --engine osrm --osrm-bin DIR`), to show that the
 * harness reads and compares OSRM's features as OSRM's own harness does: each map state is written
 * as OSM XML, processed as features/support/data.js processes it (`osrm-extract --profile
 * <profile>.lua map.osm`, then `osrm-partition`, `osrm-contract`, `osrm-customize` on map.osrm, no
 * extra arguments; partition and customize only when DIR holds them, they do not change CH's
 * answers), served by `osrm-routed map.osrm -p <port> -i 127.0.0.1 -a CH` (lib/osrm_loader.js,
 * CH as the default cucumber run), and each row is sent as HTTP GET with the path and query the
 * Waymark engine gets (harness.ts routePath). OSRM's binaries and profiles are never part of the
 * project: they are read from the folders given.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type LoadedMap, type OsrmRoute, type RouteEngine, routePath } from './harness.js';
import type { OsrmProfile } from './scenario.js';

const run = promisify(execFile);

/** A free TCP port on 127.0.0.1 (the kernel's pick, released before osrm-routed binds it). */
function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port'))));
    });
  });
}

/** The osrm-routed processes running, stopped if the process exits before their map is closed. */
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Starts osrm-routed on a file and resolves once it says "running and waiting for requests". */
async function startRouted(bin: string, file: string, port: number, log: string[]): Promise<ChildProcess> {
  const child = spawn(bin, [file, '-p', String(port), '-i', '127.0.0.1', '-a', 'CH'], { stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  child.on('exit', () => running.delete(child));
  await new Promise<void>((resolveReady, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`osrm-routed not ready after 30 s: ${out.slice(-500)}`)), 30_000);
    const onData = (data: Buffer) => {
      out += data.toString();
      if (/running and waiting for requests/.test(out)) {
        clearTimeout(timer);
        resolveReady();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (data: Buffer) => (out += data.toString()));
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`osrm-routed exited (${code ?? signal}): ${out.slice(-500)}`));
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
  log.push(`osrm-routed ${file} -p ${port}`);
  return child;
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolveStopped) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolveStopped();
    });
    // OSRM's loader stops it with SIGINT.
    child.kill('SIGINT');
  });
}

export interface OsrmEngineOptions {
  /** The folder holding osrm-extract, osrm-contract and osrm-routed (and perhaps osrm-partition, osrm-customize). */
  binDir: string;
  /** The folder of OSRM's profiles (car.lua, bicycle.lua, foot.lua and their lib/). */
  profilesDir: string;
}

/** OSRM as an engine: one extract/contract/osrm-routed per map state. */
export function osrmEngine({ binDir, profilesDir }: OsrmEngineOptions): RouteEngine {
  const binary = (name: string) => join(binDir, name);
  for (const name of ['osrm-extract', 'osrm-contract', 'osrm-routed']) {
    if (!existsSync(binary(name))) throw new Error(`${binary(name)} is missing`);
  }
  const withMld = existsSync(binary('osrm-partition')) && existsSync(binary('osrm-customize'));
  return {
    name: 'OSRM',
    description: `OSRM: osrm-extract${withMld ? ', osrm-partition' : ''}, osrm-contract${withMld ? ', osrm-customize' : ''} and osrm-routed (CH) from ${binDir}, profiles from ${profilesDir}`,
    async load(xml: string, profile: OsrmProfile): Promise<LoadedMap> {
      const dir = mkdtempSync(join(tmpdir(), 'waymark-osrm-features-osrm-'));
      const osm = join(dir, 'map.osm');
      const osrm = join(dir, 'map.osrm');
      writeFileSync(osm, xml);
      const log: string[] = [];
      const step = async (name: string, args: string[]) => {
        try {
          await run(binary(name), args, { cwd: dir, maxBuffer: 64 * 1024 * 1024 });
        } catch (error) {
          const { stderr, stdout, message } = error as { stderr?: string; stdout?: string; message: string };
          throw new Error(`${name} failed: ${message.split('\n')[0]} ${(stderr || stdout || '').trim().split('\n').slice(-3).join(' / ')}`);
        }
        log.push(name);
      };
      let child: ChildProcess | undefined;
      try {
        // support/data.js extractContractPartitionAndCustomize: extract, partition, contract, customize, in that order.
        await step('osrm-extract', ['--profile', join(profilesDir, `${profile}.lua`), osm]);
        if (withMld) await step('osrm-partition', [osrm]);
        await step('osrm-contract', [osrm]);
        if (withMld) await step('osrm-customize', [osrm]);
        const port = await freePort();
        child = await startRouted(binary('osrm-routed'), osrm, port, log);
        const routed = child;
        return {
          async route(request) {
            const response = await fetch(`http://127.0.0.1:${port}${routePath(request)}`);
            const body = (await response.json()) as { code?: string; routes?: OsrmRoute[] };
            // shared_steps.js: a route only when the code is Ok; any other answer has no route (its columns empty).
            return body.code === 'Ok' && body.routes?.[0] ? { route: body.routes[0] } : {};
          },
          async close() {
            await stop(routed);
            rmSync(dir, { recursive: true, force: true });
          },
        };
      } catch (error) {
        if (child) await stop(child);
        rmSync(dir, { recursive: true, force: true });
        throw error;
      }
    },
  };
}
