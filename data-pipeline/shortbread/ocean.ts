// The Shortbread ocean layer of an extract is the sea inside its box, built from its coastline ways
// by core/geo/sea-polygons.ts (shared with the server's world backdrop).

/** First zoom of the extract's own sea; the world layer draws the sea below it. */
export const OCEAN_MINZOOM = 8;
