/**
 * OpenStreetMap importer for geocoding: one `osmium export` pass per file (`readOsmForGeocoding`)
 * gives the admin areas with their polygons (`OsmAdminAreas.resolve`), and venues, addresses,
 * place nodes and merged streets (`OsmPlaces.records`). Rules and decisions: docs/GEOCODING.md,
 * "Data sources".
 */
export type { OsmAdminImport, OsmAdminOptions } from './osm/admin-areas.js';
export type { OsmPlaceCounts } from './osm/places.js';
export { readOsmForGeocoding, type OsmRead, type OsmReadOptions } from './osm/read.js';
