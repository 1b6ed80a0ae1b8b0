/** Web Mercator as maps draw it: the latitude limit and the pixel of a position in a world of a given size. */

/** Web Mercator's latitude limit: nothing beyond it is on a map. */
export const MAX_LATITUDE = 85.051129;

/** World pixel (device pixels) of a longitude and latitude. */
export function worldPixel(worldSize: number, lon: number, lat: number): [number, number] {
  const clamped = Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lat));
  const sin = Math.sin((clamped * Math.PI) / 180);
  const x = (lon + 180) / 360;
  const y = 0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI);
  return [x * worldSize, y * worldSize];
}
