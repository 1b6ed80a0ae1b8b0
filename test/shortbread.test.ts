import test from 'ava';
import { join } from 'node:path';
import type { Point, Polygon, Position } from 'geojson';
import type { TileFeature } from '../data-pipeline/features.js';
import { osmFeatures } from '../data-pipeline/osm/index.js';
import { signedRingArea } from '../core/geo/rings.js';
import { polygonContains } from '../core/geo/rings.js';
import { oceanPolygons } from '../core/geo/sea-polygons.js';
import { SHORTBREAD_LAYERS } from '../data-pipeline/shortbread/index.js';

const fixture = (name: string) => join(process.cwd(), 'test', 'fixtures', 'osm', name);

async function featuresOf(name: string): Promise<TileFeature[]> {
  const features: TileFeature[] = [];
  for await (const feature of osmFeatures(fixture(name), () => {})) features.push(feature);
  return features;
}

const inLayer = (features: TileFeature[], layer: string) => features.filter((f) => f.layer === layer);

test('a coastline island in the extract: the whole box is sea with the island as a hole', async (t) => {
  const ocean = inLayer(await featuresOf('coastline-island.osm'), 'ocean');
  t.is(ocean.length, 1);
  const sea = ocean[0]!;
  t.is(sea.minzoom, 8);
  t.is(sea.maxzoom, 14);
  const rings = (sea.geometry as Polygon).coordinates;
  t.is(rings.length, 2);
  t.true(signedRingArea(rings[0]!) > 0, 'outer ring counter-clockwise');
  t.true(signedRingArea(rings[1]!) < 0, 'hole clockwise');
  t.true(polygonContains(rings, 0.1, 0.1));
  t.true(polygonContains(rings, 0.9, 0.9));
  t.false(polygonContains(rings, 0.5, 0.5), 'the island is land');
});

test('an open coastline across the extract: sea on its right (south), land on its left (north)', async (t) => {
  const ocean = inLayer(await featuresOf('coastline-open.osm'), 'ocean');
  t.is(ocean.length, 1);
  const rings = (ocean[0]!.geometry as Polygon).coordinates;
  t.is(rings.length, 1);
  t.true(polygonContains(rings, 0.5, 0.1));
  t.true(polygonContains(rings, 0.05, 0.4));
  t.true(polygonContains(rings, 0.99, 0.3), 'the cut end is continued to the box edge');
  t.false(polygonContains(rings, 0.5, 0.9));
  t.false(polygonContains(rings, 0.2, 0.6));
  for (const [x, y] of rings[0]!) t.true(x! >= 0 && x! <= 1 && y! >= 0 && y! <= 1, 'clipped to the box');
});

const box: [number, number, number, number] = [0, 0, 1, 1];
const contains = (polygons: Position[][][], x: number, y: number) => polygons.some((rings) => polygonContains(rings, x, y));

test('ocean: the same coastline drawn east to west puts the sea north', (t) => {
  const polygons = oceanPolygons(
    [
      [
        [1.2, 0.5],
        [0.5, 0.5],
        [-0.2, 0.5],
      ],
    ],
    box,
  );
  t.true(contains(polygons, 0.5, 0.9));
  t.false(contains(polygons, 0.5, 0.1));
});

test('ocean: no coastline, no sea; a coastline bay crossing one edge twice gives the bay', (t) => {
  t.deepEqual(oceanPolygons([], box), []);
  // Enters through the south edge and leaves through it again, water on the right (inside the loop).
  const bay = oceanPolygons(
    [
      [
        [0.3, -0.1],
        [0.3, 0.5],
        [0.7, 0.5],
        [0.7, -0.1],
      ],
    ],
    box,
  );
  t.is(bay.length, 1);
  t.true(contains(bay, 0.5, 0.2));
  t.false(contains(bay, 0.1, 0.2));
  t.false(contains(bay, 0.5, 0.8));
});

test('ocean: a clockwise ring (water enclosed by land) is sea; an island inside it is a hole', (t) => {
  const lagoon = [
    [0.2, 0.2],
    [0.2, 0.8],
    [0.8, 0.8],
    [0.8, 0.2],
    [0.2, 0.2],
  ];
  const island = [
    [0.4, 0.4],
    [0.6, 0.4],
    [0.6, 0.6],
    [0.4, 0.6],
    [0.4, 0.4],
  ];
  const polygons = oceanPolygons([lagoon, island], box);
  t.is(polygons.length, 1);
  t.is(polygons[0]!.length, 2);
  t.true(contains(polygons, 0.3, 0.3));
  t.false(contains(polygons, 0.5, 0.5));
  t.false(contains(polygons, 0.1, 0.1));
});

test('a multipolygon lake with an island: water polygon with a hole, label point on the water', async (t) => {
  const features = await featuresOf('lake-with-island.osm');
  const [lake, ...more] = inLayer(features, 'water_polygons');
  t.is(more.length, 0);
  t.is(lake!.properties.kind, 'water');
  t.true((lake!.properties.way_area as number) > 3e6);
  t.true(lake!.minzoom >= 4 && lake!.minzoom <= 14);
  const rings = (lake!.geometry as Polygon).coordinates;
  t.is(lake!.geometry.type, 'Polygon');
  t.is(rings.length, 2);
  const [label, ...moreLabels] = inLayer(features, 'water_polygons_labels');
  t.is(moreLabels.length, 0);
  t.is(label!.geometry.type, 'Point');
  t.like(label!.properties, { kind: 'water', name: 'Testsee', name_en: 'Test Lake', name_de: 'Testsee' });
  const [x, y] = (label!.geometry as Point).coordinates;
  t.true(polygonContains(rings, x!, y!), `label ${x},${y} lies on the water, not on the island`);
  t.is(inLayer(features, 'land').length, 0);
});

test('streets: bridge flag and bridges polygon, oneway and reverse oneway, names and refs on labels, rail is never oneway', async (t) => {
  const features = await featuresOf('town.osm');
  const streets = inLayer(features, 'streets');
  const byKind = (kind: string) => streets.find((f) => f.properties.kind === kind)!;
  const bridge = byKind('residential');
  t.like(bridge, { minzoom: 12, maxzoom: 14 });
  t.like(bridge.properties, { bridge: true, tunnel: false, layer: 1, oneway: false, link: false, rail: false, surface: 'asphalt' });
  t.is(bridge.geometry.type, 'LineString');
  t.like(byKind('primary'), { minzoom: 8, properties: { oneway: true, oneway_reverse: false } });
  t.like(byKind('secondary'), { minzoom: 9, properties: { oneway: true, oneway_reverse: true } });
  t.like(byKind('rail'), { minzoom: 10, properties: { rail: true, oneway: false, service: 'siding' } });

  const [bridgeArea, ...moreBridges] = inLayer(features, 'bridges');
  t.is(moreBridges.length, 0);
  t.like(bridgeArea, { minzoom: 12, properties: { kind: 'bridge' } });
  t.is(bridgeArea!.geometry.type, 'Polygon');

  const labels = inLayer(features, 'street_labels');
  const named = labels.find((f) => f.properties.name === 'Brückenstraße')!;
  t.like(named, { minzoom: 14, properties: { kind: 'residential', name_de: 'Brückenstraße', ref: '', ref_rows: 0 } });
  t.deepEqual((named.geometry as { coordinates: Position[] }).coordinates, [
    [8.001, 48.005],
    [8.003, 48.005],
    [8.005, 48.005],
  ]);
  t.like(
    labels.find((f) => f.properties.kind === 'primary'),
    { minzoom: 12, properties: { ref: 'B 3\nB 36', ref_rows: 2, ref_cols: 4 } },
  );
  t.is(labels.length, 2, 'the unnamed secondary road and the railway have no label');
});

test('a café is a POI with its name, an address point is an address, the town is a place label', async (t) => {
  const features = await featuresOf('town.osm');
  const [cafe, ...morePois] = inLayer(features, 'pois');
  t.is(morePois.length, 0);
  t.deepEqual(cafe, {
    layer: 'pois',
    minzoom: 14,
    maxzoom: 14,
    geometry: { type: 'Point', coordinates: [8.002, 48.0062] },
    properties: {
      amenity: 'cafe',
      cuisine: 'coffee_shop',
      name: 'Café Brückenblick',
      name_en: 'Café Brückenblick',
      name_de: 'Café Brückenblick',
    },
  });
  const [address, ...moreAddresses] = inLayer(features, 'addresses');
  t.is(moreAddresses.length, 0);
  t.deepEqual(address, {
    layer: 'addresses',
    minzoom: 14,
    maxzoom: 14,
    geometry: { type: 'Point', coordinates: [8.004, 48.0064] },
    properties: { housenumber: '12a' },
  });
  const [town, ...morePlaces] = inLayer(features, 'place_labels');
  t.is(morePlaces.length, 0);
  t.like(town, {
    minzoom: 7,
    maxzoom: 14,
    geometry: { type: 'Point', coordinates: [8.0045, 48.0055] },
    properties: { kind: 'town', name: 'Testingen', population: 12000 },
  });
  t.is(inLayer(features, 'ocean').length, 0, 'no coastline, no sea');
});

test('the layer catalogue lists every Shortbread 1.0 layer once, with the fields the features carry', async (t) => {
  const ids = SHORTBREAD_LAYERS.map((l) => l.id);
  t.deepEqual([...ids].sort(), [
    'addresses',
    'aerialways',
    'boundaries',
    'boundary_labels',
    'bridges',
    'buildings',
    'dam_lines',
    'dam_polygons',
    'ferries',
    'land',
    'ocean',
    'peaks',
    'pier_lines',
    'pier_polygons',
    'place_labels',
    'pois',
    'public_transport',
    'sites',
    'street_labels',
    'street_labels_points',
    'street_polygons',
    'streets',
    'streets_polygons_labels',
    'water_lines',
    'water_lines_labels',
    'water_polygons',
    'water_polygons_labels',
  ]);
  const byId = new Map(SHORTBREAD_LAYERS.map((l) => [l.id, l]));
  const features = [...(await featuresOf('town.osm')), ...(await featuresOf('lake-with-island.osm'))];
  for (const feature of features) {
    const layer = byId.get(feature.layer)!;
    t.truthy(layer, feature.layer);
    t.true(feature.minzoom >= layer.minzoom && feature.maxzoom <= layer.maxzoom, feature.layer);
    for (const [field, value] of Object.entries(feature.properties)) {
      const type = layer.fields[field];
      t.is(type, typeof value === 'string' ? 'String' : typeof value === 'number' ? 'Number' : 'Boolean', `${feature.layer}.${field}`);
    }
  }
});
