/**
 * OpenStreetMap importer for geocoding, read through osmium (`data-pipeline/osm/osmium.ts`):
 * admin areas with their polygons (`readOsmAdminAreas`), and venues, addresses, place nodes and
 * merged streets, streamed (`readOsmPlaces`). Rules and decisions: docs/GEOCODING.md, "Data sources".
 */
export { readOsmAdminAreas, type OsmAdminImport, type OsmAdminOptions } from './osm/admin-areas.js';
export { emptyOsmPlaceCounts, readOsmPlaces, type OsmPlaceCounts } from './osm/places.js';
