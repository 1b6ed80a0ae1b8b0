/**
 * Monaco (../shared/data/osm/monaco.osm.pbf, OSM 2016) through the Shortbread rules: per layer, a
 * feature of the real city with its kind, first zoom and key attributes, where
 * test/shortbread-monaco.test.ts asks only that each layer has features. Every layer the extract
 * fills has a row here.
 *
 * `where` picks the features a row is about, by `key=value` pairs:
 *   - `at=lat,lon`: polygons covering the point, or points within 1 m of it;
 *   - `near=lat,lon`: lines with a vertex within 10 m of it;
 *   - `labelled="…"`: lines with the geometry of a label so named (streets carry no names);
 *   - any other pair: the feature's attribute (`name="Stade Louis II"`, `maritime=true`).
 * At least one feature must match, and every match must have the row's kind, first zoom and
 * `properties` (attributes not listed are not compared).
 */
import type { Geometry, Position } from 'geojson';
import type { TileFeature } from '../data-pipeline/features.js';
import { osmFeatures } from '../data-pipeline/osm/index.js';
import { polygonContains } from '../core/geo/rings.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';
import { parsePairs, parseProperties, table } from './helpers/tables.js';

const MONACO = sharedFile('osm', 'monaco.osm.pbf');

const known = table`
  | layer                   | where                                              | kind              | minzoom | properties                                  |
  | ocean                   | at=43.7355,7.4235                                  |                   | 8       |                                             | # the water of Port Hercule, the harbour
  | ferries                 | name="Bateau Bus"                                  | ferry             | 10      |                                             | # the boat across Port Hercule
  | pier_polygons           | at=43.73363,7.42683                                | pier              | 12      |                                             | # a pier in Port Hercule
  | pier_lines              | near=43.7358327,7.4224042                          | pier              | 12      |                                             | # a quay-side pier in Port Hercule
  | peaks                   | name="Mont Gros"                                   | peak              | 11      | ele=688                                     | # above Monaco, in France (issue 28)
  | streets                 | labelled="La Provençale"                           | motorway          | 5       | link=false oneway=true                      | # the A 8
  | streets                 | labelled="Tunnel de Monaco"                        | motorway          | 5       | link=true tunnel=true layer=-2              | # the A 500 link down to Monaco
  | streets                 | labelled="Boulevard Princesse Charlotte"           | primary           | 8       | link=false                                  |
  | streets                 | labelled="Basse Corniche"                          | secondary         | 9       |                                             |
  | streets                 | labelled="Avenue de Monte-Carlo"                   | residential       | 12      |                                             |
  | streets                 | labelled="Rue Grimaldi" kind=footway               | footway           | 13      | foot=yes                                    |
  | street_labels           | name="La Provençale"                               | motorway          | 10      | ref="A 8" ref_rows=1 ref_cols=3             |
  | street_labels           | name="Boulevard Princesse Charlotte"               | primary           | 12      | ref=''                                      |
  | street_labels           | name="Basse Corniche"                              | secondary         | 13      | ref="M 6098"                                |
  | street_labels           | name="Tunnel de Monaco"                            | motorway_link     | 13      | ref="A 500" tunnel=true                     |
  | street_labels           | name="Avenue de Monte-Carlo"                       | residential       | 14      |                                             |
  | street_labels_points    | ref="56"                                           | motorway_junction | 12      | name=Monaco                                 | # the A 8 exit to Monaco
  | street_polygons         | at=43.73104,7.42092                                | pedestrian        | 14      |                                             | # Place du Palais
  | streets_polygons_labels | name="Place du Palais"                             | pedestrian        | 14      |                                             |
  | place_labels            | name=Monaco                                        | capital           | 4       | population=36371                            |
  | place_labels            | name=Beausoleil                                    | town              | 7       | population=13515                            |
  | place_labels            | name=Monte-Carlo                                   | suburb            | 10      | population=15507                            |
  | place_labels            | name=Fontvieille                                   | suburb            | 10      | population=1000                             | # no population tag: the kind's default
  | boundaries              | maritime=true                                      |                   | 0       | admin_level=2                               | # the sea border
  | buildings               | at=43.73035,7.42266                                |                   | 14      |                                             | # Cathédrale Notre-Dame-Immaculée
  | buildings               | at=43.73128,7.42021                                |                   | 14      |                                             | # Palais Princier
  | pois                    | name="Palais Princier de Monaco"                   |                   | 14      | historic=castle                             |
  | pois                    | name="Cathédrale Notre-Dame-Immaculée"             |                   | 14      | amenity=place_of_worship religion=christian denomination=catholic |
  | pois                    | name="Stade Louis II"                              |                   | 14      | leisure=stadium                             |
  | pois                    | name="Palais de Justice"                           |                   | 14      | amenity=courthouse name_en=Courthouse housenumber="5" |
  | addresses               | housename="Villa Paloma"                           |                   | 14      | housenumber="56"                            |
  | public_transport        | name="Monaco - Monte Carlo"                        | station           | 13      |                                             | # the railway station
  | public_transport        | name="Terminal Croisiere"                          | ferry_terminal    | 12      |                                             |
  | public_transport        | at=43.7364624,7.4181966                            | helipad           | 13      |                                             |
  | land                    | at=43.7293,7.4113                                  | cemetery          | 13      |                                             | # Cimetière de Monaco
  | land                    | at=43.7461,7.4337                                  | beach             | 10      |                                             | # Larvotto beach
  | land                    | at=43.7302,7.4240                                  | garden            | 11      |                                             | # Jardins Saint-Martin on the Rock
  | sites                   | name="Lycée Albert-1er"                            | school            | 14      |                                             |
  | sites                   | name="Monte Carlo Sporting Club and Casino"        | sports_centre     | 14      |                                             |
  | water_polygons          | at=43.74235,7.43101                                | water             | 8       |                                             | # a 1,379 m² pond: still water shown once 0.01 px² (zoom 8)
  | water_lines             | labelled="Le Paillon"                              | river             | 9       | tunnel=false                                |
  | water_lines_labels      | name="Le Paillon"                                  | river             | 12      |                                             |
`;

let loaded: Promise<TileFeature[]> | undefined;
/** Monaco's features, read once for all rows. */
function monaco(): Promise<TileFeature[]> {
  loaded ??= (async () => {
    const features: TileFeature[] = [];
    for await (const feature of osmFeatures(MONACO, () => {})) features.push(feature);
    return features;
  })();
  return loaded;
}

const METRES_PER_DEGREE = 111_195;

function latLon(text: string): [lon: number, lat: number] {
  const [lat, lon] = text.split(',').map(Number);
  return [lon!, lat!];
}

const polygonsOf = (g: Geometry): Position[][][] =>
  g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : [];
const verticesOf = (g: Geometry): Position[] =>
  g.type === 'Point' ? [g.coordinates] : g.type === 'LineString' ? g.coordinates : g.type === 'MultiLineString' ? g.coordinates.flat() : [];

/** Metres between two lon/lat positions (equirectangular: fine over a few metres). */
function metresBetween([x1, y1]: Position, [x2, y2]: Position): number {
  const dx = (x1! - x2!) * Math.cos((y1! * Math.PI) / 180);
  return Math.hypot(dx, y1! - y2!) * METRES_PER_DEGREE;
}

function select(features: TileFeature[], layer: string, where: string): TileFeature[] {
  const pairs = parsePairs(where);
  const { at, near, labelled } = pairs;
  const filters = parseProperties(where);
  for (const key of ['at', 'near', 'labelled']) delete filters[key];
  const labelGeometries = new Set(
    labelled === undefined
      ? []
      : features.filter((f) => f.layer.endsWith('_labels') && f.properties.name === labelled).map((f) => JSON.stringify(f.geometry)),
  );
  return features.filter((f) => {
    if (f.layer !== layer) return false;
    if (at !== undefined) {
      const [lon, lat] = latLon(at);
      const covers = polygonsOf(f.geometry).some((rings) => polygonContains(rings, lon, lat));
      if (!covers && !(f.geometry.type === 'Point' && metresBetween(f.geometry.coordinates, [lon, lat]) < 1)) return false;
    }
    if (near !== undefined && !verticesOf(f.geometry).some((p) => metresBetween(p, latLon(near)) < 10)) return false;
    if (labelled !== undefined && !labelGeometries.has(JSON.stringify(f.geometry))) return false;
    return Object.entries(filters).every(([key, value]) => f.properties[key] === value);
  });
}

for (const row of known) {
  const { layer, where, kind, minzoom, properties } = row.cells;
  dataTest(`Monaco ${row.text}${row.comment ? ` (${row.comment})` : ''}`, [MONACO], async (t) => {
    const found = select(await monaco(), layer!, where!);
    t.true(found.length > 0, `${row.named}: no ${layer} feature where ${where}`);
    const expected = parseProperties(properties);
    for (const feature of found) {
      const actual = Object.fromEntries(Object.keys(expected).map((key) => [key, feature.properties[key]]));
      t.deepEqual(
        { minzoom: feature.minzoom, kind: feature.properties.kind, ...actual },
        { minzoom: Number(minzoom), kind, ...expected },
        row.named,
      );
    }
  });
}

dataTest('Monaco: every layer the extract fills has a known feature in the table above', [MONACO], async (t) => {
  const filled = [...new Set((await monaco()).map((f) => f.layer))].sort();
  const pinned = [...new Set(known.map((row) => row.cells.layer!))].sort();
  t.deepEqual(filled, pinned);
});
