// The Shortbread ocean layer of an extract: the sea inside its box from its coastline ways (core/geo/sea-polygons.ts).
export { type BBox, oceanPolygons } from '../../core/geo/sea-polygons.js';

/** First zoom of the extract's own sea; the world layer draws the sea below it. */
export const OCEAN_MINZOOM = 8;
