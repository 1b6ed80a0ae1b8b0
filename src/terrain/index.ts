/**
 * Elevation, as the server's products use it: the dataset's elevation store (core/terrain), opened
 * with each dataset that has one (`elevationSource`, one of the app's dataset sources) and closed
 * with it. The elevation API, the terrain tiles and contours (maps) and routes with elevation
 * (routing) read it through `datasetElevation`:
 *
 *   elevation.elevationAt(lon, lat)            metres, bilinear between the 4 samples around; null outside coverage
 *   elevation.sampleAt(lon, lat)               {elevation, resolution: metres between the farthest two of those samples}; null outside
 *   elevation.sampleGrid(lons, lats, out?)     a grid of elevations (Float32Array, row after row, NaN outside)
 *   tileAxes(z, x, y, size, buffer)            the pixel centres of a web-mercator tile, for sampleGrid
 *   bboxAxes(west, south, east, north, w, h)   the pixel centres of a longitude/latitude box, for sampleGrid
 *   elevation.bounds, elevation.grids          what it covers, and each grid's spacing
 *
 * A worker thread opens the store itself: `ElevationStore.open(file)`, `file` from `elevationFileOf`.
 */
import { existsSync } from 'node:fs';
import { paths } from '../../core/dataset-layout.js';
import { ElevationStore } from '../../core/terrain/elevation-store.js';
import { openedBy, type Dataset } from '../dataset/index.js';
import { ApiError } from '../http/errors.js';
import type { DatasetSource, SourceContext } from '../dataset/source.js';

export { ElevationStore, type ElevationGridInfo, type ElevationSample } from '../../core/terrain/elevation-store.js';
export { bboxAxes, tileAxes, type SampleAxes } from '../../core/terrain/sample-axes.js';

/** What a product asked for elevations answers (503) when the served dataset has none. */
export const NO_ELEVATION = 'the served dataset has no elevation data: the operator must import DEMs (waymark import --dem FILE_OR_DIR)';

/** The file of the dataset's elevation store, or null when it was imported without DEMs. */
export const elevationFileOf = ({ dir, manifest }: Pick<SourceContext, 'dir' | 'manifest'>): string | null =>
  manifest.elevation && existsSync(paths.elevation(dir)) ? paths.elevation(dir) : null;

export const elevationSource: DatasetSource<ElevationStore> = {
  open: (dataset) => {
    const file = elevationFileOf(dataset);
    return file === null ? null : ElevationStore.open(file);
  },
  close: (store) => store.close(),
};

/** The dataset's elevation store, or null when it was imported without DEMs. */
export const datasetElevation = (dataset: Dataset): ElevationStore | null => openedBy(dataset, elevationSource);

/** The dataset's elevation store; a 503 saying what the operator must do when it has none. */
export function requiredElevation(dataset: Dataset): ElevationStore {
  const store = datasetElevation(dataset);
  if (store === null) throw new ApiError(503, NO_ELEVATION);
  return store;
}
