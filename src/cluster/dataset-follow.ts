/**
 * The node's side of dataset transfer (src/cluster/dataset-transfer.ts): follows the offers in Redis and
 * makes the offered dataset this data folder's `current` — switching at once when the folder has
 * it already (a shared folder, or fetched before), else after downloading the tar into
 * `datasets/.<id>.partial` and checking its SHA-256 and manifest. A failed fetch leaves the served
 * dataset alone and is tried again on the next offer or after RETRY_MS.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { currentDatasetId, paths, switchCurrent, type DatasetManifest } from '../../core/dataset-layout.js';
import { formatBytes } from '../../core/format-bytes.js';
import { redisClient } from '../../core/redis.js';
import type { RedisSettings } from '../../core/redis-settings.js';
import type { Logger } from '../observability/logger.js';
import { offerChannel, offerKey, parseOffer, unpackDataset, type DatasetOffer } from './dataset-transfer.js';

const RETRY_MS = 30_000;
const PROGRESS_EVERY_MS = 5000;
const PARTIAL_SUFFIX = '.partial';

export interface FollowOptions {
  /** The operator token the offering worker asks for. */
  token: string;
  logger: Logger;
  /** Called after `current` was switched (e.g. to reload the served dataset at once). */
  onSwitched?: () => void;
}

export interface DatasetFollower {
  /** Stops following; a running download is aborted and its partial folder deleted. */
  close(): Promise<void>;
}

const partialDir = (dataDir: string, id: string) => join(paths.datasets(dataDir), `.${id}${PARTIAL_SUFFIX}`);

/** Whether the folder holds the complete dataset: its manifest is written last, before the folder gets its name. */
function hasDataset(dataDir: string, id: string): boolean {
  try {
    return (JSON.parse(readFileSync(paths.manifest(paths.dataset(dataDir, id)), 'utf8')) as DatasetManifest).id === id;
  } catch {
    return false;
  }
}

/**
 * Deletes the datasets but `keep` and partial downloads; an import's build folders (other
 * dot-folders) are left to it.
 */
function deleteOtherDatasets(dataDir: string, keep: (string | null)[]): void {
  for (const entry of readdirSync(paths.datasets(dataDir))) {
    const stale = entry.startsWith('.') ? entry.endsWith(PARTIAL_SUFFIX) : !keep.includes(entry);
    if (stale) rmSync(join(paths.datasets(dataDir), entry), { recursive: true, force: true });
  }
}

/** Downloads and extracts the offered tar into `dir`, checking its length and SHA-256. */
async function download(offer: DatasetOffer, dir: string, token: string, logger: Logger, signal: AbortSignal): Promise<void> {
  const res = await fetch(offer.url, { headers: { authorization: `Bearer ${token}` }, signal });
  if (!res.ok || !res.body) throw new Error(`GET ${offer.url} answered ${res.status}`);
  const hash = createHash('sha256');
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  const progress = setInterval(
    () =>
      logger.info(
        { dataset: offer.id, bytes, total: offer.bytes },
        `fetching dataset: ${formatBytes(bytes)} of ${formatBytes(offer.bytes)}`,
      ),
    PROGRESS_EVERY_MS,
  );
  const tar = unpackDataset(dir);
  try {
    await Promise.all([pipeline(Readable.fromWeb(res.body), counter, tar.child.stdin!, { signal }), tar.exited]);
  } finally {
    clearInterval(progress);
    tar.child.kill();
  }
  const sha256 = hash.digest('hex');
  if (bytes !== offer.bytes || sha256 !== offer.sha256) {
    throw new Error(
      `the download of dataset ${offer.id} is corrupt: ${bytes} bytes with SHA-256 ${sha256}, offered ${offer.bytes} bytes with ${offer.sha256}`,
    );
  }
}

/** Fetches the offered dataset into the data folder, or throws with the partial folder deleted. */
async function fetchDataset(dataDir: string, offer: DatasetOffer, token: string, logger: Logger, signal: AbortSignal): Promise<void> {
  const dir = partialDir(dataDir, offer.id);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  try {
    logger.info({ dataset: offer.id, url: offer.url, bytes: offer.bytes }, 'fetching the offered dataset');
    await download(offer, dir, token, logger, signal);
    const manifest = JSON.parse(readFileSync(paths.manifest(dir), 'utf8')) as DatasetManifest;
    if (manifest.id !== offer.id) throw new Error(`the download of dataset ${offer.id} holds dataset ${manifest.id}`);
    renameSync(dir, paths.dataset(dataDir, offer.id));
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

export async function followDatasetOffers(settings: RedisSettings, dataDir: string, options: FollowOptions): Promise<DatasetFollower> {
  const { token, logger, onSwitched } = options;
  const reader = redisClient(settings, { maxRetriesPerRequest: 3 });
  const subscriber = redisClient(settings);
  for (const client of [reader, subscriber])
    client.on('error', (error: Error) => logger.warn({ err: error }, 'dataset offers: Redis connection error; retrying'));
  const aborter = new AbortController();
  let running: Promise<void> | null = null;
  let fetching: string | null = null;
  let next: DatasetOffer | null = null;
  let retry: NodeJS.Timeout | undefined;

  const follow = async (offer: DatasetOffer) => {
    const previous = currentDatasetId(dataDir);
    if (previous === offer.id) return;
    if (!hasDataset(dataDir, offer.id)) await fetchDataset(dataDir, offer, token, logger, aborter.signal);
    switchCurrent(dataDir, offer.id);
    logger.info({ dataset: offer.id, previous }, 'switched to the offered dataset');
    onSwitched?.();
    // Like an import: the previous dataset stays for requests still using it.
    deleteOtherDatasets(dataDir, [offer.id, previous]);
  };

  /** Follows the offers in turn until none is pending. */
  const drain = async () => {
    while (next && !aborter.signal.aborted) {
      const offer: DatasetOffer = next;
      next = null;
      fetching = offer.id;
      clearTimeout(retry);
      try {
        await follow(offer);
      } catch (error) {
        if (aborter.signal.aborted) break;
        logger.error(
          { err: error, dataset: offer.id, retryInMs: RETRY_MS },
          'cannot fetch the offered dataset; still serving the previous one',
        );
        retry = setTimeout(() => void readOffer(), RETRY_MS).unref();
      }
    }
    fetching = null;
  };

  /** Follows the newest offer seen, one at a time; an offer of the dataset being fetched only cancels older pending ones. */
  const consider = (offer: DatasetOffer) => {
    next = offer.id === fetching ? null : offer;
    running ??= drain().finally(() => (running = null));
  };

  const received = (json: string | null) => {
    const offer = parseOffer(json);
    if (offer) consider(offer);
    else if (json !== null) logger.warn({ offer: json }, 'ignoring a malformed dataset offer');
  };
  const readOffer = () =>
    reader.get(offerKey(settings.prefix)).then(received, (error: unknown) => {
      logger.warn({ err: error, retryInMs: RETRY_MS }, 'cannot read the dataset offer');
      retry = setTimeout(() => void readOffer(), RETRY_MS).unref();
    });

  subscriber.on('message', (_channel: string, message: string) => received(message));
  await subscriber.subscribe(offerChannel(settings.prefix));
  // After a reconnection (ioredis subscribes again by itself), for an offer published meanwhile.
  subscriber.on('ready', () => void readOffer());
  await readOffer();
  return {
    async close() {
      aborter.abort();
      clearTimeout(retry);
      await running;
      subscriber.disconnect();
      reader.disconnect();
    },
  };
}
