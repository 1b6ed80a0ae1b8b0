/**
 * A style's layers made ready to draw: each layer's filter and properties compiled once with the
 * style spec's own evaluation (featureFilter, normalizePropertyExpression against the `latest`
 * spec), so filters, expressions, zoom functions and the served `lang` behave as in MapLibre.
 */
import type { VectorTileFeature } from '@mapbox/vector-tile';
import {
  featureFilter,
  latest,
  normalizePropertyExpression,
  type FeatureFilter,
  type LayerSpecification,
  type StylePropertyExpression,
  type StylePropertySpecification,
  type StyleSpecification,
} from '@maplibre/maplibre-gl-style-spec';

export type DrawnLayerType = 'background' | 'fill' | 'fill-extrusion' | 'line' | 'circle' | 'symbol' | 'hillshade';
const DRAWN_TYPES: ReadonlySet<string> = new Set<DrawnLayerType>([
  'background',
  'fill',
  'fill-extrusion',
  'line',
  'circle',
  'symbol',
  'hillshade',
]);

/** A property's value for a feature at the render's zoom; camera and constant values are computed once. */
export type PropertyAt<T> = (feature?: VectorTileFeature) => T;

type SpecSection = Record<string, StylePropertySpecification>;
const spec = latest as unknown as Record<string, SpecSection>;

export class CompiledLayer {
  readonly id: string;
  readonly type: DrawnLayerType;
  /** The style source it reads (none for background). */
  readonly source: string | undefined;
  readonly sourceLayer: string | undefined;
  /** Equal for layers that select the same features: same source layer and filter. */
  readonly filterKey: string;
  /** Whether the filter reads the geometry (`within`, `distance`), not only the feature's type, id and properties. */
  readonly filterNeedsGeometry: boolean;
  private readonly minzoom: number;
  private readonly maxzoom: number;
  private readonly visible: boolean;
  private readonly filter: FeatureFilter;
  private readonly expressions = new Map<string, StylePropertyExpression | null>();
  private readonly specification: LayerSpecification;

  constructor(layer: LayerSpecification) {
    this.specification = layer;
    this.id = layer.id;
    this.type = layer.type as DrawnLayerType;
    this.source = 'source' in layer ? layer.source : undefined;
    this.sourceLayer = 'source-layer' in layer ? layer['source-layer'] : undefined;
    this.minzoom = layer.minzoom ?? 0;
    this.maxzoom = layer.maxzoom ?? 24;
    this.visible = layer.layout?.visibility !== 'none';
    const filter = 'filter' in layer ? layer.filter : undefined;
    this.filter = featureFilter(filter, layer.id);
    this.filterKey = JSON.stringify([this.sourceLayer, filter]);
    this.filterNeedsGeometry = this.filter.needGeometry;
  }

  /** Whether the layer is shown at `zoom` (MapLibre: minzoom ≤ zoom < maxzoom). */
  shownAt(zoom: number): boolean {
    return this.visible && zoom >= this.minzoom && zoom < this.maxzoom;
  }

  passes(zoom: number, feature: VectorTileFeature): boolean {
    return this.filter.filter({ zoom }, feature);
  }

  /** Whether the style sets `name` itself (rather than leaving the spec's default). */
  sets(name: string): boolean {
    const { paint, layout } = this.specification as { paint?: Record<string, unknown>; layout?: Record<string, unknown> };
    return paint?.[name] !== undefined || layout?.[name] !== undefined;
  }

  /** `name` (paint or layout) at `zoom`, or undefined where it is unset and the spec has no default. */
  property<T>(name: string, zoom: number): PropertyAt<T> {
    const expression = this.expression(name);
    if (expression === null) return () => undefined as T;
    if (expression.kind === 'constant' || expression.kind === 'camera') {
      const value = expression.evaluate({ zoom }) as T;
      return () => value;
    }
    return (feature) => expression.evaluate({ zoom }, feature) as T;
  }

  private expression(name: string): StylePropertyExpression | null {
    let compiled = this.expressions.get(name);
    if (compiled !== undefined) return compiled;
    const { paint, layout } = this.specification as { paint?: Record<string, unknown>; layout?: Record<string, unknown> };
    const inPaint = spec[`paint_${this.type}`]?.[name];
    const propertySpec = inPaint ?? spec[`layout_${this.type}`]?.[name];
    if (propertySpec === undefined) throw new Error(`${name} is not a ${this.type} property`);
    const value = (inPaint ? paint?.[name] : layout?.[name]) ?? propertySpec.default;
    compiled = value === undefined ? null : normalizePropertyExpression(value as never, this.id, propertySpec);
    this.expressions.set(name, compiled);
    return compiled;
  }
}

const compiledStyles = new Map<string, CompiledLayer[]>();
/** Styles kept compiled per thread: every slug × language fits. */
const MAX_COMPILED_STYLES = 32;

/**
 * The drawn layers of `style`, compiled once per thread. A job's style arrives as a structured
 * clone, so it is recognised by its layers' JSON rather than by identity.
 */
export function compiledLayers(style: StyleSpecification): CompiledLayer[] {
  const key = JSON.stringify(style.layers);
  let layers = compiledStyles.get(key);
  if (layers === undefined) {
    if (compiledStyles.size >= MAX_COMPILED_STYLES) compiledStyles.delete(compiledStyles.keys().next().value!);
    layers = style.layers.filter((layer) => DRAWN_TYPES.has(layer.type)).map((layer) => new CompiledLayer(layer));
    compiledStyles.set(key, layers);
  }
  return layers;
}
