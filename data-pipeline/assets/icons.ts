/**
 * Where each sprite icon the styles reference comes from. @versatiles/style names its icons
 * `icon-<name>`, `transport-<name>`, `marking-<name>` and `pattern-<name>`; an icon is drawn from the
 * @mapbox/maki SVG of the same name (underscores as hyphens) when Maki has one, else from the Maki
 * icon MAKI_SUBSTITUTES names. The three fill patterns are drawn here. Icons are single-colour
 * masks marked `sdf`, so the styles' `icon-color` tints them; patterns are drawn in colour.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const MAKI_ICONS = join(dirname(require.resolve('@mapbox/maki/package.json')), 'icons');

/** VersaTiles icon names whose Maki icon has another name (or is the nearest Maki has). */
const MAKI_SUBSTITUTES: Readonly<Record<string, string>> = {
  'icon-artwork': 'art-gallery',
  'icon-atm': 'bank',
  'icon-beauty': 'hairdresser',
  'icon-beer_mug': 'beer',
  'icon-bench': 'park',
  'icon-beverages': 'convenience',
  'icon-books': 'library',
  'icon-butcher': 'slaughterhouse',
  'icon-car_wash': 'car',
  'icon-caravan': 'campsite',
  'icon-chalet': 'lodging',
  'icon-clothes': 'clothing-store',
  'icon-community': 'residential-community',
  'icon-dharma_wheel': 'religious-buddhist',
  'icon-do_it_yourself': 'hardware',
  'icon-dog': 'dog-park',
  'icon-dry_cleaning': 'laundry',
  'icon-emergency_access': 'caution',
  'icon-fountain': 'water',
  'icon-fuel_pump': 'fuel',
  'icon-garden_center': 'garden-centre',
  'icon-greengrocer': 'grocery',
  'icon-hunting_stand': 'observation-tower',
  'icon-hydrant': 'fire-station',
  'icon-ice_rink': 'skiing',
  'icon-justice': 'town-hall',
  'icon-khanda': 'place-of-worship',
  'icon-latin_cross': 'religious-christian',
  'icon-marketplace': 'commercial',
  'icon-newsagent': 'shop',
  'icon-newspaper': 'convenience',
  'icon-nursing_home': 'home',
  'icon-om': 'place-of-worship',
  'icon-outdoor': 'mountain',
  'icon-person_kneeling_and_praying': 'place-of-worship',
  'icon-pill': 'pharmacy',
  'icon-pint_glass': 'beer',
  'icon-police_officer': 'police',
  'icon-postbox': 'post',
  'icon-restrooms': 'toilet',
  'icon-ring': 'jewelry-store',
  'icon-rocking_horse': 'gift',
  'icon-scissors_and_comb': 'hairdresser',
  'icon-seesaw': 'playground',
  'icon-shoes': 'shoe',
  'icon-shrine': 'landmark',
  'icon-sports': 'pitch',
  'icon-star_and_crescent': 'religious-muslim',
  'icon-star_of_david': 'religious-jewish',
  'icon-stationery': 'shop',
  'icon-surveillance': 'caution',
  'icon-theater': 'theatre',
  'icon-travel_agent': 'suitcase',
  'icon-tube_and_toothbrush': 'pharmacy',
  'icon-vending_machine': 'convenience',
  'icon-video': 'cinema',
  'icon-wastewater': 'water',
  'icon-water_park': 'swimming',
  'icon-waterworks': 'water',
  'icon-yin_yang': 'place-of-worship',
  'transport-tram': 'rail-light',
  // Maki's arrow points east; the styles rotate the oneway marking by ±90°, so it must point north.
  'marking-oneway': 'arrow',
};
const ROTATIONS: Readonly<Record<string, number>> = { 'marking-oneway': -90 };

/** Diagonal hatching and stripes for the fill patterns (8 × 8 tiles that repeat seamlessly). */
const hatch = (width: number) => `<path d="M-2,2 L2,-2 M0,8 L8,0 M6,10 L10,6" stroke="#000" stroke-opacity="0.6" stroke-width="${width}"/>`;
const PATTERNS: Readonly<Record<string, string>> = {
  'pattern-hatched': hatch(1.5),
  'pattern-hatched_thin': hatch(0.75),
  'pattern-striped': '<rect x="0" y="0" width="8" height="3" fill="#000" fill-opacity="0.6"/>',
};

export interface IconSource {
  name: string;
  /** Size at 1× in pixels (square). */
  size: number;
  viewBox: string;
  /** SVG content to place inside an `<svg viewBox=…>` element. */
  content: string;
  /** A single-colour mask tinted by `icon-color`. */
  sdf: boolean;
}

const ICON_SIZE = 20;
const PATTERN_SIZE = 8;
const makiNames = new Set(readdirSync(MAKI_ICONS).map((file) => file.replace(/\.svg$/, '')));
const SVG_ROOT = /<svg\b[^>]*\bviewBox="([^"]+)"[^>]*>([\s\S]*)<\/svg>/;

/** The Maki icon for a VersaTiles icon name, or undefined when there is none. */
function makiName(icon: string): string | undefined {
  const substitute = MAKI_SUBSTITUTES[icon];
  if (substitute) return substitute;
  const direct = icon.replace(/^(?:icon|transport|marking)-/, '').replace(/_/g, '-');
  return makiNames.has(direct) ? direct : undefined;
}

/** How to draw `icon`; throws for an icon neither Maki nor PATTERNS provides. */
export function iconSource(icon: string): IconSource {
  const pattern = PATTERNS[icon];
  if (pattern) return { name: icon, size: PATTERN_SIZE, viewBox: `0 0 ${PATTERN_SIZE} ${PATTERN_SIZE}`, content: pattern, sdf: false };
  const maki = makiName(icon);
  if (!maki) throw new Error(`no icon source for the sprite icon "${icon}": add it to MAKI_SUBSTITUTES in data-pipeline/assets/icons.ts`);
  const svg = SVG_ROOT.exec(readFileSync(join(MAKI_ICONS, `${maki}.svg`), 'utf8'));
  if (!svg) throw new Error(`unexpected SVG in @mapbox/maki/icons/${maki}.svg`);
  const viewBox = svg[1]!;
  const rotation = ROTATIONS[icon];
  const [, , width, height] = viewBox.split(/[\s,]+/).map(Number);
  const content = rotation ? `<g transform="rotate(${rotation} ${width! / 2} ${height! / 2})">${svg[2]}</g>` : svg[2]!;
  return { name: icon, size: ICON_SIZE, viewBox, content, sdf: true };
}
