/**
 * What the styles draw from the elevation data, added to a style document when the served dataset
 * has it: the `terrain` source (raster-dem, Terrain-RGB, the one MapLibre's 3D terrain reads too,
 * `map.setTerrain({source: 'terrain'})`), a hillshade over the land and its cover, and, in
 * `outdoors`, the contour lines (major ones heavier) with their elevation in metres along them.
 */
import type { LayerSpecification, SourceSpecification, StyleSpecification } from '@maplibre/maplibre-gl-style-spec';

/** What a style draws from the elevation data. */
export type TerrainDrawing = 'none' | 'hillshade' | 'outdoors';

/** The raster-dem source of the terrain tiles, for hillshade and `map.setTerrain`. */
export const TERRAIN_SOURCE = 'terrain';
export const CONTOURS_SOURCE = 'contours';
/** The font of contour labels: one the base styles already use, so the asset build makes its glyphs. */
export const CONTOUR_LABEL_FONT = 'noto_sans_regular';

const hillshade: LayerSpecification = {
  id: 'terrain-hillshade',
  type: 'hillshade',
  source: TERRAIN_SOURCE,
  paint: {
    'hillshade-exaggeration': ['interpolate', ['linear'], ['zoom'], 6, 0.45, 14, 0.3],
    'hillshade-shadow-color': 'rgba(60, 50, 40, 0.6)',
    'hillshade-highlight-color': 'rgba(255, 255, 250, 0.35)',
    'hillshade-accent-color': 'rgba(60, 50, 40, 0.3)',
  },
};

const contourLine = (level: 'minor' | 'major', width: [number, number]): LayerSpecification => ({
  id: `contour-${level}`,
  type: 'line',
  source: CONTOURS_SOURCE,
  'source-layer': 'contour',
  filter: ['==', ['get', 'level'], level],
  layout: { 'line-join': 'round' },
  paint: {
    'line-color': 'rgba(150, 110, 70, 0.55)',
    'line-width': ['interpolate', ['linear'], ['zoom'], 11, width[0], 16, width[1]],
  },
});

const contourLabel: LayerSpecification = {
  id: 'contour-label',
  type: 'symbol',
  source: CONTOURS_SOURCE,
  'source-layer': 'contour',
  filter: ['==', ['get', 'level'], 'major'],
  layout: {
    'symbol-placement': 'line',
    'symbol-spacing': 350,
    'text-field': ['concat', ['to-string', ['get', 'ele']], ' m'],
    'text-font': [CONTOUR_LABEL_FONT],
    'text-size': ['interpolate', ['linear'], ['zoom'], 12, 9, 16, 11],
    'text-max-angle': 30,
  },
  paint: { 'text-color': 'rgb(130, 95, 60)', 'text-halo-color': 'rgba(255, 255, 255, 0.8)', 'text-halo-width': 1.2 },
};

/** Index of the first layer matching, else the end. */
const indexOf = (layers: LayerSpecification[], match: (layer: LayerSpecification) => boolean) => {
  const index = layers.findIndex(match);
  return index < 0 ? layers.length : index;
};

/**
 * Adds the terrain source and layers to `style` (in place): hillshade and contour lines just
 * below the waterways (above the land cover), contour labels below every other label. `urls`
 * are the TileJSON URLs of the terrain and contour tiles.
 */
export function addTerrain(style: StyleSpecification, drawing: TerrainDrawing, urls: { terrain: string; contours: string }): void {
  if (drawing === 'none') return;
  const sources: Record<string, SourceSpecification> = {
    [TERRAIN_SOURCE]: { type: 'raster-dem', url: urls.terrain, tileSize: 512, encoding: 'mapbox' },
  };
  const below: LayerSpecification[] = [hillshade];
  if (drawing === 'outdoors') {
    sources[CONTOURS_SOURCE] = { type: 'vector', url: urls.contours };
    below.push(contourLine('minor', [0.5, 1]), contourLine('major', [0.9, 1.8]));
  }
  Object.assign(style.sources, sources);
  const layers = style.layers;
  layers.splice(
    indexOf(layers, (layer) => 'source-layer' in layer && layer['source-layer'] === 'water_lines'),
    0,
    ...below,
  );
  if (drawing === 'outdoors')
    layers.splice(
      indexOf(layers, (layer) => layer.type === 'symbol'),
      0,
      contourLabel,
    );
}
