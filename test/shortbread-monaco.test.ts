import type { Polygon } from 'geojson';
import { osmFeatures } from '../data-pipeline/osm/index.js';
import { polygonContains } from '../core/geo/rings.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';

const MONACO = sharedFile('osm', 'monaco.osm.pbf');

dataTest('Monaco: sea from the coastline, buildings, named streets, POIs, places and addresses', [MONACO], async (t) => {
  const counts = new Map<string, number>();
  const ocean: Polygon[] = [];
  let progressReports = 0;
  for await (const feature of osmFeatures(MONACO, () => progressReports++)) {
    counts.set(feature.layer, (counts.get(feature.layer) ?? 0) + 1);
    t.true(feature.minzoom >= 0 && feature.minzoom <= feature.maxzoom && feature.maxzoom === 14, feature.layer);
    if (feature.layer === 'ocean') ocean.push(feature.geometry as Polygon);
  }
  t.log(Object.fromEntries(counts));
  for (const layer of ['ocean', 'buildings', 'streets', 'street_labels', 'pois', 'place_labels', 'addresses']) {
    t.true((counts.get(layer) ?? 0) > 0, `${layer} has features`);
  }
  t.true(progressReports > 0);
  const isSea = (lat: number, lon: number) => ocean.some((p) => polygonContains(p.coordinates, lon, lat));
  t.true(isSea(43.735, 7.44), 'the sea off Monte-Carlo');
  t.false(isSea(43.7394, 7.4281), 'Place du Casino');
});
