/**
 * Turns a stream of TileFeatures into an MBTiles archive of Mapbox Vector Tiles, z0–14, in memory
 * bounded by a budget and on every core.
 *
 * 1. Spill (this thread, while the features are read): each feature is stored on disk by the tiles
 *    that will cut it, per zoom band (spill.ts); only a buffer is held.
 * 2. Cut (worker threads running cut-thread.ts): one job per (band, tile) cuts, encodes and
 *    gzips the tiles of its subtree (cut-thread.ts, pyramid.ts); a job too large for its memory share
 *    splits into its children. This thread writes the tiles to the archive as jobs finish.
 */
import { mkdirSync, rmSync } from 'node:fs';
import type { Position } from 'geojson';
import type { Piscina } from 'piscina';
import { throwIfAborted } from '../abort.js';
import { type VectorLayerInfo, WORLD_METADATA_KEY, type WorldBackdrop } from '../../core/dataset-layout.js';
import type { ProgressReporter } from '../progress.js';
import type { TileFeature } from '../features.js';
import { unreadableOsm } from '../import-errors.js';
import { defaultImportMemory } from '../memory-budget.js';
import { SHORTBREAD_EXPORT } from '../osm/index.js';
import { OsmiumError, readOsmLineBlocks } from '../osm/osmium.js';
import { seaFeatures } from '../shortbread/index.js';
import type { BBox } from '../../core/geo/types.js';
import { importThreads, pipelinePool } from '../threads.js';
import type { CutJob, CutResult } from './cut-thread.js';
import { LayerCatalog } from './layer-catalog.js';
import { MbtilesWriter } from './mbtiles-writer.js';
import type { OsmBlockResult, OsmBlockTask } from './spill-thread.js';
import { SpillIndex } from './spill.js';
import { TILE_MAX_ZOOM } from '../../core/maps/zoom.js';

// The modules the two pools' threads run (their default exports).
const CUTTER = new URL('./cut-thread.js', import.meta.url);
const OSM_SPILLER = new URL('./spill-thread.js', import.meta.url);
const READ_PROGRESS_EVERY = 50_000;
/**
 * Memory of a job in a cutter thread per byte of its records: geojson-vt's projected and
 * simplified copy, the cut tiles of two levels, the encoded tiles. Measured as 12 on Monaco's
 * records when they were JSON text; binary records hold the same features in half the bytes.
 */
const CUT_MEMORY_PER_RECORD_BYTE = 24;
/** A thread's own memory besides its task (V8, modules). */
const THREAD_BASE_BYTES = 64 * 1024 ** 2;
/** The least heap a thread is given, whatever the budget: below it V8 fails on ordinary tasks. */
const MIN_THREAD_HEAP_MIB = 256;
/** A thread's young generation: an eighth of its share of the budget, within 32–128 MiB (128 cuts GC time by a fifth against 64). */
const youngGenerationMiB = (threadShare: number) => Math.max(32, Math.min(128, Math.floor(threadShare / 8 / 1024 ** 2)));
/**
 * Memory of a block of osmium's output while a thread spills it, per byte: the block, its parsed
 * objects and features, the run's records. Blocks are large so runs are few (a job reads a range of
 * each run), but no larger than 64 MiB.
 */
const SPILL_MEMORY_PER_BLOCK_BYTE = 16;
const MAX_BLOCK_BYTES = 64 * 1024 ** 2;

export interface TilesetMetadata {
  name: string;
  description: string;
  attribution: string;
  /** [west, south, east, north] */
  bounds: BBox;
  /** [lon, lat, zoom] */
  center: [number, number, number];
  /** The `vector_layers` to publish; derived from the features written when not given. */
  vectorLayers?: VectorLayerInfo[];
  /** With the world layer: its deepest zoom and the extracts' boxes, for the server's backdrop beyond it. */
  world?: WorldBackdrop;
}

export interface TilerOptions {
  metadata: TilesetMetadata;
  /** Deepest zoom to build (default 14); lower in tests. */
  maxzoom?: number;
  signal?: AbortSignal;
  /** The memory tiling may use (bytes; default: the import's default budget). */
  memoryBytes?: number;
  /** Cutter threads (default: every core). */
  threads?: number;
  /** The dataset's elevation store, when DEMs were imported (peaks without an OSM `ele` take it from there). */
  elevationFile?: string;
}

export interface TilerResult {
  /** Tiles in the archive, and distinct tile contents among them. */
  tiles: number;
  images: number;
  /** The vector layers as written (layer ids, zoom ranges, attribute types). */
  layers: VectorLayerInfo[];
  /** How the work went: runs and bytes spilled, jobs cut (split ones' children included), jobs split. */
  spill: { runs: number; bytes: number; jobs: number; splits: number };
}

/** An OSM extract to tile, and its bounds (the sea is built inside them). */
export interface OsmSource {
  file: string;
  bounds: BBox;
}

/** What a tiling reads: OSM extracts, read in parallel, and features made in this thread (the world layer, tests). */
export interface TilerInput {
  osm?: OsmSource[];
  features?: AsyncIterable<TileFeature>;
}

/** What the spill step shares: where runs go and what they hold, and the layers seen. */
interface Spilling {
  index: SpillIndex;
  catalog: LayerCatalog;
  maxzoom: number;
  threads: number;
  elevationFile: string | undefined;
  onProgress: ProgressReporter;
  signal: AbortSignal | undefined;
}

/** A block that is a whole ArrayBuffer of its own, so it can be moved to a thread. */
const movable = (block: Buffer) => (block.byteOffset === 0 && block.byteLength === block.buffer.byteLength ? block : new Uint8Array(block));

/**
 * Spills an extract: osmium's output in blocks, each parsed, mapped and written as a run by a
 * thread of the pool, `threads` + 1 blocks at a time; then the sea from all the coastlines.
 */
async function spillOsm(
  source: OsmSource,
  pool: Piscina<OsmBlockTask, OsmBlockResult>,
  blockBytes: number,
  spilling: Spilling,
): Promise<TileFeature[]> {
  const { index, catalog, maxzoom, threads, elevationFile, onProgress, signal } = spilling;
  const coastlines: Position[][] = [];
  const running = new Set<Promise<void>>();
  try {
    const reading: ProgressReporter = (progress) => onProgress({ ...progress, phase: 'reading OSM for tiles' });
    for await (const buffer of readOsmLineBlocks(source.file, SHORTBREAD_EXPORT, reading, blockBytes)) {
      const block = movable(buffer);
      const task = pool
        .run(
          { block, runFile: index.runFile(), maxzoom, elevationFile },
          { transferList: [block.buffer as ArrayBuffer], signal: signal ?? null },
        )
        .then((result) => {
          index.add(result.segments);
          catalog.merge(result.layers);
          coastlines.push(...result.coastlines);
        });
      task.catch(() => {}); // handled below, by race or all
      running.add(task);
      void task.then(
        () => running.delete(task),
        () => running.delete(task),
      );
      if (running.size > threads) await Promise.race(running);
    }
    await Promise.all(running);
  } catch (error) {
    await Promise.allSettled(running);
    throwIfAborted(signal);
    throw error instanceof OsmiumError ? unreadableOsm(source.file, error) : error;
  }
  return seaFeatures(coastlines, source.bounds);
}

/** Spills features made in this thread, a run whenever the buffer is full. */
async function spillFeatures(features: AsyncIterable<TileFeature>, bufferBytes: number, spilling: Spilling): Promise<void> {
  const { index, catalog, onProgress, signal } = spilling;
  let run = index.newRun();
  let count = 0;
  onProgress({ phase: 'reading features', done: 0, total: null, unit: 'features' });
  for await (const feature of features) {
    if (!catalog.add(feature)) continue;
    run.add(feature);
    if (run.bytes >= bufferBytes) {
      index.add(run.write());
      run = index.newRun();
    }
    if (++count % READ_PROGRESS_EVERY === 0) {
      onProgress({ phase: 'reading features', done: count, total: null, unit: 'features' });
      throwIfAborted(signal);
    }
  }
  index.add(run.write());
  onProgress({ phase: 'reading features', done: count, total: count, unit: 'features' });
}

async function* inSequence(...sources: (Iterable<TileFeature> | AsyncIterable<TileFeature>)[]): AsyncGenerator<TileFeature> {
  for (const source of sources) yield* source;
}

/**
 * Runs the jobs (and the jobs split ones leave) on the pool, `threads` at a time plus one queued
 * so no thread waits, writing each job's tiles. Progress is in bytes of records cut.
 */
function cutJobs(
  jobs: CutJob[],
  pool: Piscina<CutJob, CutResult>,
  threads: number,
  writer: MbtilesWriter,
  onProgress: ProgressReporter,
  signal: AbortSignal | undefined,
): Promise<{ jobs: number; splits: number }> {
  const waiting = [...jobs].sort((a, b) => a.bytes - b.bytes); // popped largest first: no long job is left for the end
  const counts = { jobs: 0, splits: 0 };
  let total = waiting.reduce((sum, job) => sum + job.bytes, 0);
  let done = 0;
  let running = 0;
  const report = () => onProgress({ phase: 'cutting tiles', done, total, unit: 'bytes' });
  report();
  return new Promise((resolve, reject) => {
    let failed = false;
    const startJobs = () => {
      if (failed) return;
      if (running === 0 && waiting.length === 0) return resolve(counts);
      while (running <= threads && waiting.length > 0) {
        const job = waiting.pop()!;
        running++;
        pool.run(job, { signal: signal ?? null }).then(
          (result) => {
            running--;
            for (const tile of result.tiles) writer.put(tile.z, tile.x, tile.y, tile.data, tile.id);
            for (const child of result.children) {
              total += child.bytes;
              waiting.push(child);
            }
            counts.jobs++;
            if (result.children.length > 0) counts.splits++;
            done += job.bytes;
            report();
            startJobs();
          },
          (error: unknown) => {
            failed = true;
            reject(error);
          },
        );
      }
    };
    startJobs();
  });
}

/** Tiles the input into a new MBTiles file `file` (which must not exist). */
export async function writeTiles(
  input: TilerInput,
  file: string,
  options: TilerOptions,
  onProgress: ProgressReporter,
): Promise<TilerResult> {
  const maxzoom = options.maxzoom ?? TILE_MAX_ZOOM;
  const { signal, metadata } = options;
  const memory = options.memoryBytes ?? defaultImportMemory();
  const threads = options.threads ?? importThreads();
  const spillDir = `${file}.spill`;
  mkdirSync(spillDir);
  const writer = new MbtilesWriter(file);
  // Reading and cutting come one after the other: each may use most of the budget.
  const threadShare = memory / threads;
  const young = youngGenerationMiB(threadShare);
  const threadMemory = Math.max(threadShare - THREAD_BASE_BYTES - young * 1024 ** 2, threadShare / 4);
  const heap = { maxHeapMiB: Math.max(MIN_THREAD_HEAP_MIB, Math.ceil((2 * threadMemory) / 1024 ** 2)), youngGenerationMiB: young };
  const spilling: Spilling = {
    index: new SpillIndex(spillDir, maxzoom),
    catalog: new LayerCatalog(maxzoom),
    maxzoom,
    threads,
    elevationFile: options.elevationFile,
    onProgress,
    signal,
  };
  try {
    const sea: TileFeature[] = [];
    const spillers = pipelinePool<OsmBlockTask, OsmBlockResult>(OSM_SPILLER, threads, heap);
    try {
      const blockBytes = Math.min(MAX_BLOCK_BYTES, Math.floor(memory / (threads + 1) / SPILL_MEMORY_PER_BLOCK_BYTE));
      for (const source of input.osm ?? []) sea.push(...(await spillOsm(source, spillers, blockBytes, spilling)));
    } finally {
      await spillers.destroy();
    }
    await spillFeatures(inSequence(sea, input.features ?? []), Math.floor(memory / 4), spilling);
    const maxJobBytes = threadMemory / CUT_MEMORY_PER_RECORD_BYTE;
    // The cutters start once reading is over, so the two pools' threads never idle side by side.
    const cutters = pipelinePool<CutJob, CutResult>(CUTTER, threads, heap);
    let cut: Awaited<ReturnType<typeof cutJobs>>;
    try {
      cut = await cutJobs(spilling.index.jobs(maxJobBytes), cutters, threads, writer, onProgress, signal);
    } finally {
      await cutters.destroy();
    }
    throwIfAborted(signal);
    const vectorLayers = metadata.vectorLayers ?? spilling.catalog.list();
    writer.finish({
      name: metadata.name,
      description: metadata.description,
      format: 'pbf',
      type: 'baselayer',
      version: '1',
      bounds: metadata.bounds.join(','),
      center: metadata.center.join(','),
      minzoom: '0',
      maxzoom: String(maxzoom),
      attribution: metadata.attribution,
      json: JSON.stringify({ vector_layers: vectorLayers }),
      ...(metadata.world ? { [WORLD_METADATA_KEY]: JSON.stringify(metadata.world) } : {}),
    });
    return {
      tiles: writer.tiles,
      images: writer.images,
      layers: vectorLayers,
      spill: { runs: spilling.index.runs, bytes: spilling.index.bytes, ...cut },
    };
  } catch (error) {
    writer.abandon();
    throwIfAborted(signal); // a cancelled task's error is Piscina's own, not the signal's reason
    throw error;
  } finally {
    rmSync(spillDir, { recursive: true, force: true });
  }
}
