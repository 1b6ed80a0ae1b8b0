/** Reading `oneway` values (OSRM `WayHandlers.oneway`, OSM wiki Key:oneway). */

/**
 * `forward`: only along the way's node order; `backward`: only against it (`-1`); `both`: an
 * explicit `no`, which also cancels an implied oneway; `reversible`: direction changes with time
 * (`reversible`, `alternating`), which a static network cannot follow.
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
  ['reversible', 'reversible'],
  ['alternating', 'reversible'],
]);

/** Undefined for no value or one not understood. */
export function parseOneway(value: string | undefined): Oneway | undefined {
  return value === undefined ? undefined : ONEWAY_VALUES.get(value);
}
