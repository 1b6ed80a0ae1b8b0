/** A leg's `summary` as OSRM writes it: the two roads it runs longest on, in the order they are driven. */
import type { RouteLeg } from '../path.js';

export function legSummary(leg: RouteLeg): string {
  const roads = new Map<string, { distance: number; order: number }>();
  for (const segment of leg.segments) {
    const road = segment.name || segment.ref;
    if (road === '') continue;
    const entry = roads.get(road) ?? { distance: 0, order: roads.size };
    entry.distance += segment.distance;
    roads.set(road, entry);
  }
  return [...roads]
    .sort((a, b) => b[1].distance - a[1].distance)
    .slice(0, 2)
    .sort((a, b) => a[1].order - b[1].order)
    .map(([road]) => road)
    .join(', ');
}
