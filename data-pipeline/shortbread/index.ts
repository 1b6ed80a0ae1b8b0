// Maps OSM objects to Shortbread 1.0 tile features: each object goes through the rules of every
// layer group that can apply to its shape; coastlines are kept aside to build the sea at the end.
import type { Position } from 'geojson';
import type { TileFeature } from '../features.js';
import { boundaryAreas, boundaryLines } from './boundaries.js';
import { collector } from './rule-helpers.js';
import type { OsmElement } from '../osm/element.js';
import { landAreas } from './land.js';
import { oceanPolygons } from '../../core/geo/sea-polygons.js';
import type { BBox } from '../../core/geo/types.js';
import { OCEAN_MINZOOM } from './ocean.js';
import { peaks, type ElevationAt } from './peaks.js';
import { placeLabels } from './places.js';
import { poisAndAddresses, publicTransport } from './pois.js';
import { motorwayJunctions, streetAreas, streetLines, transportLines } from './streets.js';
import { waterAreas, waterLines } from './water.js';

export { SHORTBREAD_LAYERS } from './layers.js';
import { TILE_MAX_ZOOM } from '../../core/maps/zoom.js';

export class ShortbreadMapper {
  /** Every coastline way's nodes: the only OSM data held until the end (the sea needs all of it). */
  readonly coastlines: Position[][] = [];

  /** `elevationAt`: the import's DEMs, for the peaks OSM gives no `ele`. */
  constructor(private readonly elevationAt?: ElevationAt) {}

  /** Appends the features of one OSM object to `out`. */
  map(el: OsmElement, out: TileFeature[]): void {
    const emit = collector(out);
    switch (el.shape) {
      case 'point':
        placeLabels(el, emit);
        peaks(el, emit, this.elevationAt);
        motorwayJunctions(el, emit);
        publicTransport(el, emit);
        poisAndAddresses(el, emit);
        break;
      case 'line':
        if (el.tags.natural === 'coastline') this.coastlines.push(el.line);
        waterLines(el, emit);
        boundaryLines(el, emit);
        streetLines(el, emit);
        transportLines(el, emit);
        break;
      case 'area':
        if (el.tags.area === 'no') break;
        waterAreas(el, emit);
        landAreas(el, emit);
        streetAreas(el, emit);
        boundaryAreas(el, emit);
        publicTransport(el, emit);
        poisAndAddresses(el, emit);
        break;
    }
  }

  /** The sea inside the extract's bounding box, once every coastline has been seen. */
  ocean(box: BBox): TileFeature[] {
    return seaFeatures(this.coastlines, box);
  }
}

/** The sea inside an extract's bounding box from all its coastline ways (gathered by one or more mappers). */
export function seaFeatures(coastlines: Position[][], box: BBox): TileFeature[] {
  return oceanPolygons(coastlines, box).map((rings) => ({
    layer: 'ocean',
    minzoom: OCEAN_MINZOOM,
    maxzoom: TILE_MAX_ZOOM,
    geometry: { type: 'Polygon', coordinates: rings },
    properties: {},
  }));
}
