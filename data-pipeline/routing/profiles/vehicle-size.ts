/**
 * Size and weight limits against a vehicle's size (OSRM `lib/measure.lua` and
 * `WayHandlers.handle_height`, `handle_width`, `handle_length`, `handle_weight`): a way, or one
 * direction of it, whose limit the vehicle exceeds is closed to it.
 */
import { firstTagValue, type Direction } from './access.js';
import type { Tags } from '../../osm/tags.js';

export interface VehicleSize {
  heightMetres: number;
  widthMetres: number;
  lengthMetres: number;
  weightKg: number;
}

const METRES_PER_INCH = 0.0254;

/**
 * Metres from `2.5`, `2,5 m` or feet and inches (`6'6"`); undefined for anything without a number
 * (`default`, `none`, `below_default`: OSM's words for limits no car reaches).
 */
export function parseMetres(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = /\d+\.?\d*/.exec(value.replaceAll(',', '.'));
  if (number === null) return undefined;
  const feet = value.indexOf("'");
  if (feet < 0) return Number(number[0]);
  const inches = /\d+/.exec(value.slice(feet));
  return (Number(number[0]) * 12 + (inches === null ? 0 : Number(inches[0]))) * METRES_PER_INCH;
}

/** Kilograms from `3.5`, `3.5 t` (tonnes, the OSM default unit) or `1500 kg`. */
export function parseKilograms(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = /(\d+(?:\.\d+)?)\s*(kg)?/.exec(value.replaceAll(',', '.'));
  if (number === null) return undefined;
  return Number(number[1]) * (number[2] === undefined ? 1000 : 1);
}

const limit = (tags: Tags, keys: readonly string[], direction: Direction, parse: (value: string | undefined) => number | undefined) =>
  parse(firstTagValue(tags, keys, direction));

/** Whether one direction of a way is too low, narrow, short or weak for the vehicle (each key's `:forward`/`:backward` first). */
export function exceedsLimits(tags: Tags, vehicle: VehicleSize, direction: Direction): boolean {
  const height = limit(tags, ['maxheight:physical', 'maxheight'], direction, parseMetres);
  const width = limit(tags, ['maxwidth:physical', 'maxwidth', 'width', 'est_width'], direction, parseMetres);
  const length = limit(tags, ['maxlength'], direction, parseMetres);
  const weight = limit(tags, ['maxweight'], direction, parseKilograms);
  // A width equal to the vehicle's closes the way too (OSRM).
  return (
    (height !== undefined && height < vehicle.heightMetres) ||
    (width !== undefined && width <= vehicle.widthMetres) ||
    (length !== undefined && length < vehicle.lengthMetres) ||
    (weight !== undefined && weight < vehicle.weightKg)
  );
}
