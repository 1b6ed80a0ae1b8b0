// The Shortbread 1.0 layer catalogue as TileJSON `vector_layers`: each layer's zoom range and fields.
import type { VectorLayerInfo } from '../../core/dataset-layout.js';

type Fields = Record<string, 'String' | 'Number' | 'Boolean'>;

const NAMES: Fields = { name: 'String', name_en: 'String', name_de: 'String' };
const KIND: Fields = { kind: 'String' };

const layer = (id: string, minzoom: number, fields: Fields, description: string): VectorLayerInfo => ({
  id,
  minzoom,
  maxzoom: 14,
  fields,
  description,
});

const POI_FIELDS: Fields = {
  amenity: 'String',
  leisure: 'String',
  tourism: 'String',
  shop: 'String',
  man_made: 'String',
  historic: 'String',
  emergency: 'String',
  highway: 'String',
  office: 'String',
  ...NAMES,
  housename: 'String',
  housenumber: 'String',
  cuisine: 'String',
  sport: 'String',
  vending: 'String',
  information: 'String',
  'tower:type': 'String',
  religion: 'String',
  denomination: 'String',
  'recycling:glass_bottles': 'Boolean',
  'recycling:paper': 'Boolean',
  'recycling:clothes': 'Boolean',
  'recycling:scrap_metal': 'Boolean',
  atm: 'Boolean',
};

const STREET_FIELDS: Fields = {
  kind: 'String',
  link: 'Boolean',
  rail: 'Boolean',
  tunnel: 'Boolean',
  bridge: 'Boolean',
  oneway: 'Boolean',
  oneway_reverse: 'Boolean',
  tracktype: 'String',
  surface: 'String',
  service: 'String',
  bicycle: 'String',
  horse: 'String',
  foot: 'String',
  layer: 'Number',
};

export const SHORTBREAD_LAYERS: VectorLayerInfo[] = [
  layer('ocean', 0, {}, "Sea: Natural Earth below zoom 8, the imported extracts' coastlines from 8"),
  layer('water_polygons', 4, { ...KIND, way_area: 'Number' }, 'Inland water bodies and glaciers'),
  layer('water_polygons_labels', 4, { ...KIND, way_area: 'Number', ...NAMES }, 'Label points of named water polygons'),
  layer('water_lines', 9, { ...KIND, tunnel: 'Boolean', bridge: 'Boolean' }, 'Rivers, canals, streams and ditches'),
  layer('water_lines_labels', 12, { ...KIND, ...NAMES }, 'Named waterways for labelling'),
  layer('dam_lines', 12, KIND, 'Dams mapped as lines'),
  layer('dam_polygons', 12, KIND, 'Dams mapped as areas'),
  layer('pier_lines', 12, KIND, 'Piers, breakwaters and groynes mapped as lines'),
  layer('pier_polygons', 12, KIND, 'Piers, breakwaters and groynes mapped as areas'),
  layer('boundaries', 0, { admin_level: 'Number', maritime: 'Boolean', disputed: 'Boolean' }, 'Country and state borders'),
  layer('boundary_labels', 2, { admin_level: 'Number', way_area: 'Number', ...NAMES }, 'Label points of countries and states'),
  layer('land', 7, KIND, 'Land use and land cover'),
  layer('sites', 14, { ...KIND, ...NAMES }, 'Campuses, car parks, construction sites and other sites'),
  layer('buildings', 14, {}, 'Building footprints'),
  layer('addresses', 14, { housenumber: 'String', housename: 'String' }, 'House numbers and names'),
  layer('streets', 5, STREET_FIELDS, 'Roads, paths, railways, runways and taxiways'),
  layer(
    'street_polygons',
    11,
    { ...KIND, rail: 'Boolean', tunnel: 'Boolean', bridge: 'Boolean', surface: 'String', service: 'String' },
    'Pedestrian and service areas, runway and taxiway areas',
  ),
  layer('streets_polygons_labels', 14, { ...KIND, ...NAMES }, 'Label points of named street polygons'),
  layer(
    'street_labels',
    10,
    { ...KIND, tunnel: 'Boolean', ref: 'String', ref_rows: 'Number', ref_cols: 'Number', ...NAMES },
    'Named or numbered streets for labelling',
  ),
  layer('street_labels_points', 12, { ...KIND, ref: 'String', ...NAMES }, 'Motorway exits'),
  layer('aerialways', 12, KIND, 'Cable cars, gondolas and ski lifts'),
  layer('public_transport', 11, { ...KIND, iata: 'String', ...NAMES }, 'Stations, stops, airports and ferry terminals'),
  layer('bridges', 12, KIND, 'Bridges mapped as areas'),
  layer('ferries', 10, { ...KIND, ...NAMES }, 'Ferry routes'),
  layer('place_labels', 4, { ...KIND, population: 'Number', ...NAMES }, 'Cities, towns, villages and other places'),
  layer('pois', 14, POI_FIELDS, 'Points of interest'),
  // Waymark's extension (docs/SHORTBREAD.md): Shortbread has no peaks.
  layer('peaks', 11, { ...KIND, ele: 'Number', ...NAMES }, 'Summits, volcanoes and mountain passes with their elevation in metres'),
];
