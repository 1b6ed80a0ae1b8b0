/** The vector layers a tiling wrote: each layer's zoom range and its fields' types, as TileJSON lists them. */
import type { VectorLayerInfo } from '../../core/dataset-layout.js';
import type { FeatureValue, TileFeature } from '../features.js';

const fieldType = (value: FeatureValue) => (typeof value === 'number' ? 'Number' : typeof value === 'boolean' ? 'Boolean' : 'String');

export class LayerCatalog {
  private readonly layers = new Map<string, VectorLayerInfo>();

  constructor(private readonly maxzoom: number) {}

  /** Records the feature; false when it is shown at no zoom up to the deepest one tiled (it is left out). */
  add(feature: TileFeature): boolean {
    const minzoom = Math.max(0, feature.minzoom);
    const maxzoom = Math.min(this.maxzoom, feature.maxzoom);
    if (minzoom > maxzoom) return false;
    this.addLayer({ id: feature.layer, minzoom, maxzoom, fields: {} });
    const info = this.layers.get(feature.layer)!;
    for (const name in feature.properties) info.fields[name] ??= fieldType(feature.properties[name]!);
    return true;
  }

  /** Adds what another catalogue recorded (a worker thread's). */
  merge(layers: readonly VectorLayerInfo[]): void {
    for (const layer of layers) this.addLayer(layer);
  }

  list(): VectorLayerInfo[] {
    return [...this.layers.values()].sort((a, b) => a.id.localeCompare(b.id));
  }

  private addLayer(layer: VectorLayerInfo): void {
    const info = this.layers.get(layer.id);
    if (!info) {
      this.layers.set(layer.id, { ...layer, fields: { ...layer.fields } });
      return;
    }
    info.minzoom = Math.min(info.minzoom, layer.minzoom);
    info.maxzoom = Math.max(info.maxzoom, layer.maxzoom);
    for (const [name, type] of Object.entries(layer.fields)) info.fields[name] ??= type;
  }
}
