/**
 * What a product opens per dataset — geocoding its index, routing a pool of threads over its
 * graphs. Each product contributes its source (MapLibre's sources are the model); the
 * DatasetHolder opens every source with each dataset it swaps in and closes it with that dataset,
 * and knows none of them.
 */
import type { DatasetManifest } from '../../core/dataset-layout.js';

/** A dataset being opened, as a source sees it. */
export interface SourceContext {
  dir: string;
  manifest: DatasetManifest;
  /** Worker threads a source may start for the dataset (`--threads`). */
  threads: number;
}

export interface DatasetSource<T> {
  /** The product's part of the dataset, or null when this dataset has none; a throw refuses the whole dataset. */
  open(dataset: SourceContext): T | null;
  /** Releases what `open` returned, when its dataset is closed (or another source of it failed to open). */
  close(opened: T): void | Promise<void>;
}
