/**
 * Reading `maxspeed` values into km/h (OSRM `WayHandlers.parse_maxspeed` and its tables): a
 * number (`50`), with a unit (`30 mph`, `10 knots`), an implicit zone (`DE:urban`, `FR:rural`),
 * `none` and `walk`.
 */

const KMH_PER_MPH = 1.609344;
const KMH_PER_KNOT = 1.852;

/** Implicit limits by zone when a country has no exception below (OSM wiki "Speed limits"). */
const ZONE_DEFAULTS: Readonly<Record<string, number>> = { urban: 50, rural: 90, trunk: 110, motorway: 130 };

/** Country zones that differ from the defaults (OSRM car.lua `maxspeed_table`). 0: no limit. */
const COUNTRY_ZONES: Readonly<Record<string, number>> = {
  'at:rural': 100,
  'at:trunk': 100,
  'be:motorway': 120,
  'by:urban': 60,
  'by:motorway': 110,
  'ch:rural': 80,
  'ch:trunk': 100,
  'ch:motorway': 120,
  'cz:trunk': 0,
  'cz:motorway': 0,
  'de:living_street': 7,
  'de:rural': 100,
  'de:motorway': 0,
  'dk:rural': 80,
  'fr:rural': 80,
  'gb:nsl_single': 60 * KMH_PER_MPH,
  'gb:nsl_dual': 70 * KMH_PER_MPH,
  'gb:motorway': 70 * KMH_PER_MPH,
  'nl:rural': 80,
  'nl:trunk': 100,
  'no:rural': 80,
  'no:motorway': 110,
  'pl:rural': 100,
  'pl:trunk': 120,
  'pl:motorway': 140,
  'ro:trunk': 100,
  'ru:living_street': 20,
  'ru:urban': 60,
  'ru:motorway': 110,
  'uk:nsl_single': 60 * KMH_PER_MPH,
  'uk:nsl_dual': 70 * KMH_PER_MPH,
  'uk:motorway': 70 * KMH_PER_MPH,
  'za:urban': 60,
  'za:rural': 100,
};

/** `none` (no limit, German motorways) counts as this (OSRM). */
const NO_LIMIT_KMH = 140;
/** `walk` (walking pace, e.g. German living streets): as `DE:living_street`. */
const WALK_KMH = 7;

const NUMBER_WITH_UNIT = /^(\d+(?:\.\d+)?)\s*(mph|knots|km\/h|kmh|kph)?$/;

/** The limit in km/h; undefined when there is none or the value is not understood (`signals`, `variable`). */
export function parseMaxspeed(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim().toLowerCase();
  const number = NUMBER_WITH_UNIT.exec(text);
  if (number) {
    const kmh = Number(number[1]) * (number[2] === 'mph' ? KMH_PER_MPH : number[2] === 'knots' ? KMH_PER_KNOT : 1);
    return kmh > 0 ? kmh : undefined;
  }
  if (text === 'none') return NO_LIMIT_KMH;
  if (text === 'walk') return WALK_KMH;
  const zone = COUNTRY_ZONES[text] ?? ZONE_DEFAULTS[text.slice(text.indexOf(':') + 1)];
  return zone === undefined || zone === 0 ? undefined : zone;
}
