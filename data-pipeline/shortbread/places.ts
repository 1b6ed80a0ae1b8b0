// Shortbread place_labels from OSM `place=*` nodes: kind, first zoom and default population per place type.
import { nameProperties, type Emit } from './rule-helpers.js';
import type { PointElement } from '../osm/element.js';

const PLACES: Record<string, { minzoom: number; population: number }> = {
  city: { minzoom: 6, population: 100000 },
  town: { minzoom: 7, population: 5000 },
  village: { minzoom: 10, population: 100 },
  hamlet: { minzoom: 10, population: 50 },
  suburb: { minzoom: 10, population: 1000 },
  quarter: { minzoom: 10, population: 500 },
  neighbourhood: { minzoom: 10, population: 100 },
  isolated_dwelling: { minzoom: 10, population: 5 },
  farm: { minzoom: 10, population: 5 },
  island: { minzoom: 10, population: 0 },
  locality: { minzoom: 10, population: 0 },
};

/** Settlements that can be capitals: `capital=yes` (national) and `capital=4` (state) show from zoom 4. */
const SETTLEMENTS = new Set(['city', 'town', 'village', 'hamlet']);
const CAPITAL_KINDS: Record<string, string> = { yes: 'capital', '4': 'state_capital' };
const CAPITAL_MINZOOM = 4;

/** `population=*` as a number ("12 345" and "12,345" included), undefined when unreadable. */
function parsePopulation(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value.replace(/[\s,]/g, ''));
  return Number.isFinite(n) && n >= 0 ? Math.round(n) : undefined;
}

export function placeLabels(el: PointElement, emit: Emit): void {
  const t = el.tags;
  const rule = t.place === undefined ? undefined : PLACES[t.place];
  if (rule === undefined || t.name === undefined) return;
  const capital = SETTLEMENTS.has(t.place!) && t.capital !== undefined ? CAPITAL_KINDS[t.capital] : undefined;
  const population = parsePopulation(t.population) ?? rule.population;
  emit(
    'place_labels',
    capital === undefined ? rule.minzoom : CAPITAL_MINZOOM,
    { type: 'Point', coordinates: el.point },
    nameProperties(t, { kind: capital ?? t.place!, population }),
  );
}
