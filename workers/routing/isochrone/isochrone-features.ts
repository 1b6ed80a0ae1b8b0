/**
 * The isochrone body: a GeoJSON FeatureCollection with one feature per contour, the largest first, each
 * the area reached from the centre within `contour` minutes ((Multi)Polygon with holes, or its outline
 * as (Multi)LineString when `polygons` is false).
 */
import type { Feature, FeatureCollection, Geometry, Position } from 'geojson';
import type { TravelMode } from '../../../core/routing/network.js';
import type { ReachedPiece } from '../path.js';
import { position } from '../response/rounding.js';
import { reachedPolygons, type Polygon } from './contour-polygons.js';
import { localProjection, type LocalProjection } from './local-projection.js';
import { timeGrid } from './time-grid.js';
import type { LonLat } from '../../../core/geo/types.js';

export interface IsochroneOptions {
  mode: TravelMode;
  /** Metres; simplifies the contours (and coarsens the grid to match). */
  generalize?: number;
  /** False: the outlines of the areas instead of the areas. */
  polygons: boolean;
}

export interface IsochroneProperties {
  contour: number;
  mode: TravelMode;
}

function geometryOf(polygons: Polygon[], projection: LocalProjection, asPolygons: boolean): Geometry {
  const lonLat = polygons.map((rings) => rings.map((ring) => ring.map((point): Position => position(projection.toLonLat(point)))));
  if (asPolygons) {
    return lonLat.length === 1 ? { type: 'Polygon', coordinates: lonLat[0]! } : { type: 'MultiPolygon', coordinates: lonLat };
  }
  const lines = lonLat.flat();
  return lines.length === 1 ? { type: 'LineString', coordinates: lines[0]! } : { type: 'MultiLineString', coordinates: lines };
}

/** `contoursMinutes` in any order; the features come largest first, as Mapbox's isochrone API draws them. */
export function isochroneFeatures(
  pieces: readonly ReachedPiece[],
  center: LonLat,
  contoursMinutes: readonly number[],
  options: IsochroneOptions,
): FeatureCollection<Geometry, IsochroneProperties> {
  const projection = localProjection(center);
  const metric = pieces.map((piece) => ({ points: piece.coordinates.map(projection.toMetres), seconds: piece.seconds }));
  const grid = timeGrid(metric, options.generalize);
  const minutes = [...new Set(contoursMinutes)].sort((a, b) => b - a);
  const areas = reachedPolygons(
    grid,
    minutes.map((limit) => limit * 60),
    options.generalize,
  );
  return {
    type: 'FeatureCollection',
    features: minutes.map(
      (contour, index): Feature<Geometry, IsochroneProperties> => ({
        type: 'Feature',
        properties: { contour, mode: options.mode },
        geometry: geometryOf(areas[index]!, projection, options.polygons),
      }),
    ),
  };
}
