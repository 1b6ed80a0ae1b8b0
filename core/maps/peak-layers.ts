/**
 * The peaks of the `outdoors` style: Waymark's `peaks` tile layer (docs/SHORTBREAD.md) drawn as
 * Maki's mountain (volcano, and a hollow triangle for passes) with "Name\n2942 m" below, the
 * highest placed first. They come from OSM, so they are drawn with or without elevation data.
 */
import type { ExpressionSpecification, LayerSpecification, StyleSpecification } from '@maplibre/maplibre-gl-style-spec';
import { CONTOUR_LABEL_FONT } from './terrain-layers.js';

export const PEAKS_LAYER = 'peaks';

const COLOR = 'rgb(105, 75, 45)';

/** "Name\n2942 m", or the one of them the feature has; `name` is the name field of the label language. */
function label(name: string): ExpressionSpecification {
  const metres: ExpressionSpecification = ['concat', ['to-string', ['get', 'ele']], ' m'];
  return ['case', ['!', ['has', 'ele']], ['get', name], ['!', ['has', name]], metres, ['concat', ['get', name], '\n', metres]];
}

/** `source`: the Shortbread source's name; `sprite`: the sprite sheet's. */
function peaksLayer(source: string, sprite: string, name: string): LayerSpecification {
  return {
    id: 'label-peak',
    type: 'symbol',
    source,
    'source-layer': PEAKS_LAYER,
    minzoom: 11,
    layout: {
      'icon-image': [
        'match',
        ['get', 'kind'],
        'volcano',
        `${sprite}:icon-volcano`,
        ['saddle', 'mountain_pass'],
        `${sprite}:icon-triangle_stroked`,
        `${sprite}:icon-mountain`,
      ],
      'icon-size': ['interpolate', ['linear'], ['zoom'], 11, 0.6, 15, 0.8],
      'text-field': label(name),
      'text-font': [CONTOUR_LABEL_FONT],
      'text-size': ['interpolate', ['linear'], ['zoom'], 11, 10, 15, 12],
      'text-anchor': 'top',
      'text-offset': [0, 0.7],
      'text-max-width': 8,
      // Higher summits first (MapLibre places the lowest sort key first).
      'symbol-sort-key': ['-', 0, ['coalesce', ['get', 'ele'], 0]],
    },
    paint: {
      'icon-color': COLOR,
      'text-color': COLOR,
      'text-halo-color': 'rgba(255, 255, 255, 0.85)',
      'text-halo-width': 1.2,
    },
  };
}

/**
 * Adds the peaks (in place) just below the place labels, from their source, so towns and villages
 * win where they meet; `name` is the name field of the label language (`name`, `name_en`…).
 */
export function addPeaks(style: StyleSpecification, sprite: string, name: string): void {
  const layers = style.layers;
  const places = layers.findIndex((layer) => 'source-layer' in layer && layer['source-layer'] === 'place_labels');
  const placeLayer = layers[places];
  if (placeLayer === undefined || !('source' in placeLayer)) throw new Error('the style has no place labels to put the peaks below');
  layers.splice(places, 0, peaksLayer(placeLayer.source, sprite, name));
}
