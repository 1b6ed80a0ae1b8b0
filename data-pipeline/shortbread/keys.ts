// Every OSM key the Shortbread rules read. osmium drops all other tags (and objects left without
// any), which keeps the stream small; a rule that reads a new key must add it here.
export const SHORTBREAD_OSM_KEYS = [
  'name',
  'name:en',
  'name:de',
  'area',
  'layer',
  'ref',
  // water
  'natural',
  'water',
  'waterway',
  'landuse',
  'man_made',
  // land, sites, buildings
  'wetland',
  'leisure',
  'amenity',
  'military',
  'building',
  // boundaries and places
  'boundary',
  'admin_level',
  'maritime',
  'disputed',
  'place',
  'population',
  'capital',
  // peaks
  'ele',
  'mountain_pass',
  // streets and transport
  'highway',
  'railway',
  'aeroway',
  'area:aeroway',
  'aerialway',
  'route',
  'motor_vehicle',
  'tunnel',
  'covered',
  'bridge',
  'surface',
  'bicycle',
  'horse',
  'foot',
  'tracktype',
  'service',
  'oneway',
  'iata',
  // pois and addresses
  'shop',
  'tourism',
  'historic',
  'emergency',
  'office',
  'addr:housenumber',
  'addr:housename',
  'cuisine',
  'sport',
  'vending',
  'information',
  'tower:type',
  'religion',
  'denomination',
  'recycling:glass_bottles',
  'recycling:paper',
  'recycling:clothes',
  'recycling:scrap_metal',
  'atm',
];

/**
 * The keys of the line rules (coastlines, water lines, boundaries, streets, transport): a closed
 * way comes as a line only when it carries one of them. The rest (buildings above all) are read
 * as areas alone, which halves osmium's output.
 */
export const SHORTBREAD_LINEAR_TAGS = ['natural=coastline', 'waterway', 'boundary', 'highway', 'railway', 'aeroway', 'aerialway', 'route'];
