/**
 * The world's low-zoom shapes from Natural Earth (npm `world-atlas` TopoJSON): the sea as the
 * Shortbread `ocean` layer (a world rectangle with the land cut out), country borders as
 * `boundaries` and country names as `boundary_labels`.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Position } from 'geojson';
import { mesh, feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { TileFeature } from '../features.js';
import { largestPolygonLabelPoint } from '../../core/geo/label-point.js';
import { polygonsMercatorArea } from '../../core/geo/mercator-measures.js';
import { flatLines, flatPolygons, type Ring } from './antimeridian.js';

type AtlasFile = 'land-110m' | 'land-50m' | 'countries-50m';

const require = createRequire(import.meta.url);

function readAtlas(file: AtlasFile): Topology {
  return JSON.parse(readFileSync(require.resolve(`world-atlas/${file}.json`), 'utf8')) as Topology;
}

/** The rings of a (Multi)Polygon GeoJSON geometry, as a list of polygons; none for other types. */
function polygonsOf(geometry: GeoJSON.Geometry | null): Position[][][] {
  if (geometry?.type === 'Polygon') return [geometry.coordinates];
  if (geometry?.type === 'MultiPolygon') return geometry.coordinates;
  return [];
}

/** Flat polygons of every shape in a TopoJSON object. */
function flatShapes(topology: Topology, object: string): { name: string | undefined; polygons: Ring[][] }[] {
  const collection = feature(topology, topology.objects[object] as GeometryCollection<{ name?: string }>);
  return collection.features.map((shape) => ({
    name: shape.properties?.name,
    polygons: polygonsOf(shape.geometry).flatMap((rings) => flatPolygons(rings)),
  }));
}

const WORLD_RING: Ring = [
  [-180, -90],
  [180, -90],
  [180, 90],
  [-180, 90],
  [-180, -90],
];

/** The sea: the world minus the land polygons (their lakes become sea again). */
export function oceanFeature(file: 'land-110m' | 'land-50m', minzoom: number, maxzoom: number): TileFeature {
  const land = flatShapes(readAtlas(file), 'land').flatMap((shape) => shape.polygons);
  const sea: Ring[][] = [[WORLD_RING, ...land.map((rings) => rings[0]!)]];
  for (const rings of land) for (let i = 1; i < rings.length; i++) sea.push([rings[i]!]);
  return { layer: 'ocean', minzoom, maxzoom, geometry: { type: 'MultiPolygon', coordinates: sea }, properties: {} };
}

/** Borders between countries (each shared arc once), and a label point per country. */
export function countryFeatures(minzoom: number, maxzoom: number, labelMinzoom: number): TileFeature[] {
  const topology = readAtlas('countries-50m');
  const countries = topology.objects.countries as GeometryCollection;
  const borders = mesh(topology, countries, (a, b) => a !== b);
  const features: TileFeature[] = [
    {
      layer: 'boundaries',
      minzoom,
      maxzoom,
      geometry: { type: 'MultiLineString', coordinates: borders.coordinates.flatMap((line) => flatLines(line)) },
      properties: { admin_level: 2, disputed: false, maritime: false },
    },
  ];
  for (const country of flatShapes(topology, 'countries')) {
    if (!country.name || country.polygons.length === 0) continue;
    features.push({
      layer: 'boundary_labels',
      minzoom: labelMinzoom,
      maxzoom,
      geometry: { type: 'Point', coordinates: largestPolygonLabelPoint(country.polygons) },
      properties: {
        name: country.name,
        name_en: country.name,
        admin_level: 2,
        way_area: Math.round(polygonsMercatorArea(country.polygons)),
      },
    });
  }
  return features;
}
