/**
 * The dataset a server serves, switched without a restart: `current()` is a synchronous read for
 * the request path; `reload()` (on an import's announcement, or a 2 s check of the `current` link)
 * opens the new dataset — its tiles, and what each product's source opens (source.ts) — and swaps
 * it in. Requests already holding the old one finish with it; it is closed a minute later.
 */
import { readFileSync, readlinkSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { DATASET_FORMAT_VERSION, paths, type DatasetManifest } from '../../core/dataset-layout.js';
import { lockHolder } from '../../core/pid-lock.js';
import { ApiError } from '../http/errors.js';
import type { Logger } from '../observability/logger.js';
import { MbtilesReader } from '../../core/maps/mbtiles.js';
import type { DatasetSource } from './source.js';

export interface Dataset {
  id: string;
  dir: string;
  manifest: DatasetManifest;
  tiles: MbtilesReader;
  /** What each source opened for this dataset; a source that opened nothing (null) is absent. */
  opened: ReadonlyMap<DatasetSource<unknown>, unknown>;
}

/** What `source` opened for `dataset`, or null when the dataset has none of it. */
export function openedBy<T>(dataset: Dataset, source: DatasetSource<T>): T | null {
  return (dataset.opened.get(source) as T | undefined) ?? null;
}

const NO_DATASET = "no dataset has been imported yet: the operator must run `waymark import` on this server's data folder";
/** How soon a client may ask again while the first import runs (an import takes from seconds to hours). */
const IMPORTING_RETRY_AFTER_S = 10;
const CHECK_EVERY_MS = 2000;
const CLOSE_OLD_AFTER_MS = 60_000;

/** Opens a dataset folder and every source in it (in their order); refuses one of another format version with a clear error. */
export function openDataset(dir: string, sources: readonly DatasetSource<unknown>[], threads: number): Dataset {
  const manifest = JSON.parse(readFileSync(paths.manifest(dir), 'utf8')) as DatasetManifest;
  if (manifest.formatVersion !== DATASET_FORMAT_VERSION) {
    throw new Error(
      `dataset ${dir} has format version ${manifest.formatVersion}; this Waymark reads version ${DATASET_FORMAT_VERSION}: run waymark import again`,
    );
  }
  const tiles = new MbtilesReader(paths.tiles(dir));
  const opened = new Map<DatasetSource<unknown>, unknown>();
  try {
    for (const source of sources) {
      const part = source.open({ dir, manifest, threads });
      if (part !== null) opened.set(source, part);
    }
    return { id: manifest.id, dir, manifest, tiles, opened };
  } catch (error) {
    tiles.close();
    closeSources(opened);
    throw error;
  }
}

function closeSources(opened: ReadonlyMap<DatasetSource<unknown>, unknown>): void {
  for (const [source, part] of opened) void source.close(part);
}

function closeDataset(dataset: Dataset): void {
  dataset.tiles.close();
  closeSources(dataset.opened);
}

/** The dataset a request is answered from, or the 503 saying that the first import runs, or telling the operator to run one. */
export function currentDataset(datasets: DatasetHolder): Dataset {
  const dataset = datasets.current();
  if (dataset) return dataset;
  const importing = datasets.firstImport();
  if (!importing) throw new ApiError(503, NO_DATASET);
  throw new ApiError(503, `${importing}; try again in a minute`, { 'Retry-After': String(IMPORTING_RETRY_AFTER_S) });
}

/** Whether the node serves what `current` points at (`/readyz`, the image's health check). */
export interface Readiness {
  ready: boolean;
  /** The dataset served, or null before the first import. */
  dataset: string | null;
  /** Why the node is not ready: no dataset yet (the first import running, or none), or the one `current` points at could not be opened. */
  error?: string;
}

/** The running import's latest phase as DATA/import.progress has it (`cutting tiles, 51 %`), or '' without one. */
function importPhase(dataDir: string): string {
  try {
    const { phase, done, total } = JSON.parse(readFileSync(paths.importProgress(dataDir), 'utf8')) as {
      phase: unknown;
      done: unknown;
      total: unknown;
    };
    if (typeof phase !== 'string') return '';
    const share =
      typeof done === 'number' && typeof total === 'number' && total > 0 ? Math.min(100, Math.floor((done / total) * 100)) : null;
    return share === null ? phase : `${phase}, ${share} %`;
  } catch {
    return ''; // None written yet, or one being written.
  }
}

export class DatasetHolder {
  private dataset: Dataset | null = null;
  private linkTarget: string | null = null;
  /** The last dataset that failed to open, until one opens: a server that keeps answering with the previous one (or none) is not healthy. */
  private openFailure: { dataset: string; message: string } | null = null;
  private timer: NodeJS.Timeout | undefined;
  private readonly switchListeners: (() => void)[] = [];

  constructor(
    private readonly dataDir: string,
    private readonly logger: Logger,
    /** Worker threads each dataset's sources (the routing and raster pools) may start. */
    private readonly threads: number,
    /** What the products open per dataset, opened in this order with each dataset. */
    private readonly sources: readonly DatasetSource<unknown>[],
  ) {}

  current(): Dataset | null {
    return this.dataset;
  }

  /**
   * Ready when it serves a dataset and the one `current` points at opened: a node without any dataset
   * answers no map, search or route, so an empty container is not healthy (the dashboard still serves).
   */
  readiness(): Readiness {
    const dataset = this.dataset?.id ?? null;
    if (this.openFailure !== null) {
      return { ready: false, dataset, error: `cannot open dataset ${this.openFailure.dataset}: ${this.openFailure.message}` };
    }
    if (dataset === null) return { ready: false, dataset, error: this.firstImport() ?? 'no dataset has been imported yet' };
    return { ready: true, dataset };
  }

  /** While this node has no dataset and an import runs on its data folder: what it is, in words; else null. */
  firstImport(): string | null {
    if (this.dataset) return null;
    const lock = paths.importLock(this.dataDir);
    const pid = lockHolder(lock);
    if (pid === null) return null;
    let since = '';
    try {
      since = `, running for ${Math.max(0, Math.round((Date.now() - statSync(lock).mtimeMs) / 1000))} s`;
    } catch {
      // Released just now: the dataset is about to be served.
    }
    const phase = importPhase(this.dataDir);
    return `the first dataset is being imported (waymark import, pid ${pid}${since}${phase ? `; ${phase}` : ''}): maps, geocoding, routing and elevation answer once it is done`;
  }

  /** Calls `listener` each time another dataset is swapped in (or the holder stops), e.g. to empty caches. */
  onSwitch(listener: () => void): void {
    this.switchListeners.push(listener);
  }

  private switched(): void {
    for (const listener of this.switchListeners) listener();
  }

  /** Loads the dataset `current` points at, if it changed. */
  reload(): void {
    let target: string;
    try {
      target = resolve(this.dataDir, readlinkSync(paths.current(this.dataDir)));
    } catch {
      return; // No dataset imported yet.
    }
    if (target === this.linkTarget) return;
    let next: Dataset;
    try {
      next = openDataset(target, this.sources, this.threads);
    } catch (error) {
      this.logger.error({ err: error, dataset: target }, 'cannot open the new dataset; still serving the previous one');
      this.linkTarget = target; // Not retried until the link moves again.
      this.openFailure = { dataset: basename(target), message: (error as Error).message.split('\n')[0]! };
      return;
    }
    const previous = this.dataset;
    this.dataset = next;
    this.linkTarget = target;
    this.openFailure = null;
    this.switched();
    this.logger.info({ dataset: next.id, inputs: next.manifest.inputs }, 'serving dataset');
    if (previous) setTimeout(() => closeDataset(previous), CLOSE_OLD_AFTER_MS).unref();
  }

  start(): void {
    this.reload();
    this.timer = setInterval(() => this.reload(), CHECK_EVERY_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    if (this.dataset) closeDataset(this.dataset);
    this.dataset = null;
    this.linkTarget = null;
    this.switched();
  }
}
