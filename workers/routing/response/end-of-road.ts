/**
 * A T-intersection, where the road arrived on ends and the route turns left or right: OSRM's
 * `end of road` (guidance/turn_handler.cpp, handleThreeWayTurn with isEndOfRoad).
 */
import { deflection } from './bearings.js';

/** OSRM's NARROW_TURN_ANGLE (extractor/intersection/constants.hpp). */
const NARROW_TURN_ANGLE = 40;

/** OSRM's turn angle of a road leaving a junction: 180 straight on, below it to the right, above it to the left. */
const turnAngle = (arrival: number, leaving: number) => (((180 - deflection(arrival, leaving)) % 360) + 360) % 360;

const deviation = (a: number, b: number) => {
  const d = Math.abs(a - b) % 360;
  return d > 180 ? 360 - d : d;
};

/**
 * `right` or `left` when, at a junction of three roads, the two roads other than the one arrived on
 * (bearings `exits`, the one taken at `taken`) leave at right angles on either side, the T of
 * isEndOfRoad, and none of them is the obvious way on (`obvious`: the caller knows one continues
 * the road); undefined otherwise.
 */
export function endOfRoadSide(arrival: number, exits: readonly number[], taken: number, obvious: boolean): 'right' | 'left' | undefined {
  if (exits.length !== 2 || obvious) return undefined;
  const [right, left] = exits.map((exit) => turnAngle(arrival, exit)).sort((a, b) => a - b) as [number, number];
  const isT =
    deviation(right, 90) < NARROW_TURN_ANGLE && deviation(left, 270) < NARROW_TURN_ANGLE && deviation(right, left) > 2 * NARROW_TURN_ANGLE;
  if (!isT) return undefined;
  const angle = turnAngle(arrival, taken);
  return deviation(angle, right) <= deviation(angle, left) ? 'right' : 'left';
}
