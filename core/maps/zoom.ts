/** The last zoom of a dataset's vector tiles: every feature reaches it, and clients overzoom beyond it. */
export const TILE_MAX_ZOOM = 14;
