/** The precision OSRM writes: distances and durations to 0.1, positions to 1e-6 degree (its fixed-point unit). */
import type { LonLat } from '../../../core/geo/types.js';

export const tenths = (value: number): number => Math.round(value * 10) / 10;

export const position = ([lon, lat]: Readonly<LonLat>): LonLat => [Math.round(lon * 1e6) / 1e6, Math.round(lat * 1e6) / 1e6];
