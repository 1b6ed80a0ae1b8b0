/** The geocoding product's part of a dataset: its geocoder index, none for a dataset built before geocoding existed. */
import { existsSync } from 'node:fs';
import { paths } from '../../core/dataset-layout.js';
import type { DatasetSource } from '../dataset/source.js';
import { GeocoderIndex } from './engine/index-file.js';

export const geocoderIndexSource: DatasetSource<GeocoderIndex> = {
  open: ({ dir }) => (existsSync(paths.geocoder(dir)) ? new GeocoderIndex(paths.geocoder(dir)) : null),
  close: (index) => index.close(),
};
