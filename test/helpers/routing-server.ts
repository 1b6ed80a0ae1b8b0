/** A test server on a routing dataset written from shared OSM extracts, with the keys the routing tests use. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TravelMode } from '../../core/routing/network.js';
import type { RoutingGraph } from '../../core/routing/graph-file.js';
import { openGraph, writeRoutingDataset } from './routing.js';
import { startTestServer, type TestServer } from './server.js';
import type { BBox } from '../../core/geo/types.js';

export interface ServedRouting {
  server: TestServer;
  dataDir: string;
  datasetDir: string;
  /** A Pro organization's key (a property test spends more than a free month). */
  key: string;
  /** A key of another organization, for tests that read the quota left while other tests run. */
  meteredKey: string;
  /** The served graphs, opened in the test process too. */
  graphs: Partial<Record<TravelMode, RoutingGraph>>;
  /** Stops the server and removes its data folder. */
  close(): Promise<void>;
}

/** Writes the graphs of `modes` from `files` (the dataset's bounds: `bounds`) into a new data folder named after `name`, and serves it. */
export async function serveRouting(name: string, files: string[], modes: readonly TravelMode[], bounds: BBox): Promise<ServedRouting> {
  const dataDir = mkdtempSync(join(tmpdir(), `waymark-${name}-`));
  const datasetDir = await writeRoutingDataset(dataDir, files, modes, bounds);
  const server = await startTestServer({ dataDir });
  const account = await server.signUp();
  await server.store.setTier(account.orgId, 'pro');
  const key = (await server.createKey(account)).value;
  const meteredKey = (await server.createKey(await server.signUp())).value;
  const graphs: ServedRouting['graphs'] = {};
  for (const mode of modes) graphs[mode] = openGraph(datasetDir, mode);
  const close = async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { server, dataDir, datasetDir, key, meteredKey, graphs, close };
}
