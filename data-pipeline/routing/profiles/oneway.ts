/** Reading `oneway` values (OSRM `WayHandlers.oneway`, OSM wiki Key:oneway). */

/**
 * `forward`: only along the way's node order; `backward`: only against it (`-1`); `both`: an
 * explicit `no`, which also cancels an implied oneway, or `alternating` (one lane that each
 * direction takes in turn, open both ways as in OSRM); `reversible`: the direction changes a few
 * times a day, which a static network cannot follow (OSRM's car leaves such ways out).
 */
export type Oneway = 'forward' | 'backward' | 'both' | 'reversible';

const ONEWAY_VALUES: ReadonlyMap<string, Oneway> = new Map([
  ['yes', 'forward'],
  ['1', 'forward'],
  ['true', 'forward'],
  ['-1', 'backward'],
  ['reverse', 'backward'],
  ['no', 'both'],
  ['0', 'both'],
  ['false', 'both'],
  ['alternating', 'both'],
  ['reversible', 'reversible'],
]);

/** Undefined for no value or one not understood. */
export function parseOneway(value: string | undefined): Oneway | undefined {
  return value === undefined ? undefined : ONEWAY_VALUES.get(value);
}
