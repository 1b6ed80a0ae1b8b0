/** The precision OSRM writes: distances and durations to 0.1, positions to 1e-6 degree (its fixed-point unit). */

export const tenths = (value: number): number => Math.round(value * 10) / 10;

export const position = ([lon, lat]: readonly [number, number]): [number, number] => [
  Math.round(lon * 1e6) / 1e6,
  Math.round(lat * 1e6) / 1e6,
];
