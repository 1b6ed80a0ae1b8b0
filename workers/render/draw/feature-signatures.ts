/**
 * Features that evaluate alike, shared by the tiles of one render. A filter or property expression
 * reads the zoom (one per render) and the feature's geometry type, id and properties, so features
 * equal in those (the same signature) get the same result: a filter is evaluated once per
 * signature, by the style spec, however many features and tiles have it.
 */
import type { VectorTileFeature } from '@mapbox/vector-tile';
import type { CompiledLayer } from './style-layers.js';

export class FeatureSignatures {
  private readonly numbers = new Map<string, number>();
  /** Filter results by the layers' filter key, then by signature. */
  private readonly verdicts = new Map<string, boolean[]>();

  /** `zoom`: the style zoom the render evaluates at. */
  constructor(private readonly zoom: number) {}

  /** The number of the feature's signature. */
  of(feature: VectorTileFeature): number {
    const content = JSON.stringify([feature.type, feature.id, feature.properties]);
    let number = this.numbers.get(content);
    if (number === undefined) this.numbers.set(content, (number = this.numbers.size));
    return number;
  }

  /** Whether a feature passes the layer's filter, as a test of a feature and its signature's number. */
  filter(layer: CompiledLayer): (feature: VectorTileFeature, signature: number) => boolean {
    // Filters reading the geometry (`within`, `distance`) can tell features of one signature apart.
    if (layer.filterNeedsGeometry) return (feature) => layer.passes(this.zoom, feature);
    let verdicts = this.verdicts.get(layer.filterKey);
    if (verdicts === undefined) this.verdicts.set(layer.filterKey, (verdicts = []));
    const known = verdicts;
    return (feature, signature) => (known[signature] ??= layer.passes(this.zoom, feature));
  }
}
