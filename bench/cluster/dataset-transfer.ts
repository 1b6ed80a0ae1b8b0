/**
 * How handing a dataset from a worker to a node without a shared folder grows with the dataset:
 * the worker's side (`startDatasetOffers`: hashing the tar of its current dataset) and the node's
 * (`followDatasetOffers`: download, checksum, extraction, switch) in one process over loopback,
 * timed, with the process's peak RSS. A fresh Redis key prefix, deleted after.
 *
 *   node dist/bench/cluster/dataset-transfer.js DATA_DIR   (a data folder with an imported dataset)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pino from 'pino';
import { currentDatasetId } from '../../core/dataset-layout.js';
import { followDatasetOffers } from '../../src/cluster/dataset-follow.js';
import { startDatasetOffers } from '../../src/cluster/dataset-offer.js';
import { offerKey, parseOffer } from '../../src/cluster/dataset-transfer.js';
import { freePort } from '../lib/child.js';

const source = process.argv[2];
if (!source) throw new Error('usage: dataset-transfer.js DATA_DIR');
const settings = { url: process.env.WAYMARK_REDIS_URL ?? 'redis://127.0.0.1:6379', prefix: `waymark-bench-transfer-${process.pid}` };
const token = 'benchmark-operator-token-0123456789';
const logger = pino({ level: 'warn' });
const client = new Redis(settings.url);
const target = mkdtempSync(join(tmpdir(), 'waymark-bench-transfer-'));
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
try {
  let started = performance.now();
  const offers = await startDatasetOffers(
    settings,
    source,
    { url: `http://127.0.0.1:${await freePort()}/`, host: '127.0.0.1', token },
    logger,
  );
  await offers.offerDataset(currentDatasetId(source)!);
  const offered = parseOffer(await client.get(offerKey(settings.prefix)))!;
  console.log(`offer (tar hashed): ${((performance.now() - started) / 1000).toFixed(1)} s for ${mib(offered.bytes)}`);
  started = performance.now();
  const switched = new Promise<void>((resolve) => {
    void followDatasetOffers(settings, target, { token, logger, onSwitched: resolve }).then((follower) =>
      switched.then(() => follower.close()),
    );
  });
  await switched;
  console.log(
    `fetch (download, sha256, extract, switch): ${((performance.now() - started) / 1000).toFixed(1)} s; peak RSS of the process ${mib(process.resourceUsage().maxRSS * 1024)}`,
  );
  await offers.close();
} finally {
  rmSync(target, { recursive: true, force: true });
  const keys = await client.keys(`${settings.prefix}:*`);
  if (keys.length > 0) await client.del(...keys);
  client.disconnect();
}
process.exit(0);
