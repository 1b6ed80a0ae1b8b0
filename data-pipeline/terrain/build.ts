/**
 * The elevation step of an import: every DEM input (`--dem`) into the dataset's elevation store
 * (`elevation.dem`, core/terrain/elevation-file.ts). The inputs are cut into pieces — an SRTM tile
 * each, a GeoTIFF in windows of up to WINDOW × WINDOW pixels whose edges lie on the store's block
 * edges (neighbouring windows share that row or column of samples, so no block is made of two
 * pieces) — which threads of a pool read, fill and cut
 * into blocks (elevation-thread.ts), as many at once as the threads and the memory budget allow, while
 * the main thread writes the blocks in the inputs' order (store-writer.ts): memory holds a few
 * pieces, whatever the number and size of the inputs.
 */
import { basename } from 'node:path';
import type { ElevationCoverage } from '../../core/dataset-layout.js';
import { BLOCK_CELLS, latticeIndex, unionOfBounds, type StoreDirectory } from '../../core/terrain/elevation-file.js';
import { throwIfAborted } from '../abort.js';
import { ImportInputError } from '../import-errors.js';
import type { ProgressReporter } from '../progress.js';
import { importThreads, pipelinePool } from '../threads.js';
import { demFiles, demKind } from './dem-files.js';
import type { ElevationPiece, ElevationTask } from './elevation-thread.js';
import { geoTiffLayout } from './geotiff-dem.js';
import { hgtSamples } from './hgt.js';
import { ElevationStoreWriter } from './store-writer.js';

const JOB = new URL('./elevation-thread.js', import.meta.url);
const PHASE = 'elevation';
/** GeoTIFF windows: up to 1920 + 1 samples a side (8 blocks), a few tens of MB while read. */
const WINDOW = 8 * BLOCK_CELLS;
/** Memory a piece takes on its thread per sample (the input's bytes, float32 metres, the encoded blocks), and besides. */
const PIECE_BYTES_PER_SAMPLE = 16;
const PIECE_BASE_BYTES = 32 * 1024 ** 2;
/** Bytes of store per input sample: int16 samples, blocks' shared edges, blocks only partly filled (a GeoTIFF's edges). */
const STORE_BYTES_PER_SAMPLE = 2.5;

interface PlannedPiece {
  task: ElevationTask;
  samples: number;
}

/** The pieces the inputs make, in order, and how many samples they hold. */
export interface ElevationPlan {
  pieces: PlannedPiece[];
  samples: number;
  /** The inputs as the manifest lists them: `srtm:<name>` for SRTM tiles, `dem:<name>` for GeoTIFFs. */
  labels: string[];
}

/** Cuts the inputs (files and folders, checked already) into pieces: reads zip directories and GeoTIFF headers only. */
export async function planElevation(inputs: readonly string[]): Promise<ElevationPlan> {
  const pieces: PlannedPiece[] = [];
  const labels = new Set<string>();
  for (const input of inputs) {
    for (const file of await demFiles(input)) {
      const kind = demKind(file)!;
      labels.add(`${kind === 'geotiff' ? 'dem' : 'srtm'}:${basename(input)}`);
      if (kind !== 'geotiff') {
        pieces.push({ task: { kind, file }, samples: await hgtSamples(file, kind === 'hgt.zip') });
        continue;
      }
      const layout = await geoTiffLayout(file);
      const { origin, step } = layout.lattice;
      const ix0 = Math.round(latticeIndex(layout.west, origin[0], step[0]));
      const iyTop = Math.round(latticeIndex(layout.north, origin[1], step[1]));
      // Columns run east (lattice indices grow), rows south (they shrink).
      const columns = windowEdges(layout.width, BLOCK_CELLS - modulo(ix0, BLOCK_CELLS));
      const rows = windowEdges(layout.height, modulo(iyTop, BLOCK_CELLS) || BLOCK_CELLS);
      for (const [y0, y1] of rows) {
        for (const [x0, x1] of columns) {
          const window: [number, number, number, number] = [x0, y0, x1 + 1, y1 + 1];
          pieces.push({ task: { kind, file, layout, window }, samples: (x1 + 1 - x0) * (y1 + 1 - y0) });
        }
      }
    }
  }
  return { pieces, samples: pieces.reduce((sum, piece) => sum + piece.samples, 0), labels: [...labels] };
}

const modulo = (value: number, divisor: number) => ((value % divisor) + divisor) % divisor;

/**
 * Windows [first, last] (inclusive) over `length` samples, each up to WINDOW + 1 long, meeting on
 * block edges: `toEdge` samples from the first sample to the first block edge after it.
 */
function windowEdges(length: number, toEdge: number): [number, number][] {
  const edges = [0];
  for (let edge = toEdge + Math.floor((WINDOW - toEdge) / BLOCK_CELLS) * BLOCK_CELLS; edge < length - 1; edge += WINDOW) edges.push(edge);
  if (length > 1) edges.push(length - 1);
  return edges.length === 1 ? [[0, 0]] : edges.slice(1).map((edge, i) => [edges[i]!, edge]);
}

/** Disk the store of `plan` takes, about. */
export const elevationDiskBytes = (plan: ElevationPlan): number => Math.ceil(plan.samples * STORE_BYTES_PER_SAMPLE);

export interface ElevationBuildOptions {
  threads?: number;
  memoryBytes?: number;
}

type Settled = { piece: ElevationPiece } | { error: unknown };

/** Builds the store of `plan` into `file`; resolves to its coverage, for the manifest. */
export async function buildElevationStore(
  plan: ElevationPlan,
  file: string,
  onProgress: ProgressReporter,
  signal?: AbortSignal,
  { threads = importThreads(), memoryBytes = Infinity }: ElevationBuildOptions = {},
): Promise<ElevationCoverage> {
  const { pieces } = plan;
  const largest = Math.max(0, ...pieces.map((piece) => piece.samples));
  const fitting = Math.floor(memoryBytes / 2 / (largest * PIECE_BYTES_PER_SAMPLE + PIECE_BASE_BYTES));
  const poolThreads = Math.max(1, Math.min(threads, pieces.length, fitting));
  const pool = pipelinePool<ElevationTask, ElevationPiece>(JOB, poolThreads);
  const writer = new ElevationStoreWriter(file);
  // Pieces run ahead of the writer by at most one per thread; their blocks are written in input order.
  const running: Promise<Settled>[] = [];
  let started = 0;
  const start = () => {
    const { task } = pieces[started++]!;
    running.push(
      pool.run(task, { signal: signal ?? null }).then(
        (piece) => ({ piece }),
        (error: unknown) => ({ error }),
      ),
    );
  };
  let done = 0;
  onProgress({ phase: PHASE, done, total: plan.samples, unit: 'samples' });
  try {
    while (started < pieces.length && running.length <= poolThreads) start();
    for (const { task, samples } of pieces) {
      const settled = await running.shift()!;
      if (started < pieces.length) start();
      if ('error' in settled) {
        throwIfAborted(signal);
        throw new ImportInputError(`cannot read ${basename(task.file)}: ${(settled.error as Error).message}`);
      }
      writer.add(settled.piece.lattice, task.file, settled.piece);
      done += samples;
      onProgress({ phase: PHASE, done, total: plan.samples, unit: 'samples' });
    }
  } catch (error) {
    writer.close();
    throw error;
  } finally {
    await pool.destroy();
  }
  const directory = writer.finish();
  if (directory.grids.length === 0) throw new ImportInputError('the DEM inputs hold no elevation sample (every one is void or nodata)');
  return coverageOf(directory);
}

const arcSeconds = ([lon, lat]: [number, number]): [number, number] => [
  Math.round(lon * 3600 * 1e6) / 1e6,
  Math.round(lat * 3600 * 1e6) / 1e6,
];

function coverageOf(directory: StoreDirectory): ElevationCoverage {
  const grids = directory.grids.map(({ step, bounds, files, blocks }) => ({ step, resolution: arcSeconds(step), bounds, files, blocks }));
  return {
    bounds: unionOfBounds(grids.map((grid) => grid.bounds)),
    resolution: grids[0]!.resolution,
    grids,
  };
}
