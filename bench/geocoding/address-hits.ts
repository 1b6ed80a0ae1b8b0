/**
 * Issue 11's answer-quality measure: every addressed OSM element of the shared extracts (nodes,
 * building outlines, venues; `addr:housenumber` with `addr:street` or `addr:place`) searched in the
 * forms people type, and how often the first result is that address. A hit: the first feature is
 * an address with the house number and street asked, within 100 m of an element that carries
 * that address (the same door may carry its address on a node and on the building, which search
 * gives once; a large building has several entrances with one address; without a city, the same
 * street and number in two towns are both right).
 *
 *   npm run bench:addresses [-- --index FILE] [-- --misses]
 *
 * Builds the geocoder index of the shared data (as the query table tests do) unless `--index`
 * names one, and prints a Markdown table of hit rates per query form, then how many labels of
 * the addresses (these and the OpenAddresses rows) are right, per country (address-labels.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildGeocoderIndex } from '../../data-pipeline/geocoding/index/build.js';
import { readOsmElements } from '../../data-pipeline/osm/osmium.js';
import { lineIsArea } from '../../data-pipeline/osm/element.js';
import { labelPoint } from '../../data-pipeline/geocoding/osm/geometry.js';
import { metresBetween } from '../../core/geo/distance.js';
import { houseNumberKey } from '../../core/geocoding/house-number.js';
import { streetKey } from '../../core/geocoding/street-lines.js';
import { PACKAGE_ROOT } from '../../core/package-root.js';
import { GeocoderIndex } from '../../src/geocoding/engine/index-file.js';
import { search } from '../../src/geocoding/engine/search.js';
import { sanitizeSearch } from '../../src/geocoding/sanitize/endpoints.js';
import { fmtPct, markdownTable } from '../lib/report.js';
import { withTypo } from '../../test/helpers/osm-addresses.js';
import { openAddressesLabelled, scoreLabels, type LabelledAddress } from './address-labels.js';

const DATA_DIR = join(PACKAGE_ROOT, '..', 'shared', 'data');
const EXTRACTS = ['monaco', 'andorra', 'heidelberg'];
const OA_FILES = ['ca-ab-banff.csv', 'us-ak-kodiak_island_borough.csv'];
const HIT_RADIUS_M = 100;

interface OsmAddress {
  gid: string;
  housenumber: string;
  street: string;
  city?: string;
  postcode?: string;
  state?: string;
  country?: string;
  venue: boolean;
  at: [number, number];
}

/** "12a" as "12 A" and "12 A" as "12a"; undefined for a number without a letter. */
function otherSpelling(housenumber: string): string | undefined {
  const parts = /^(\d+)(\s?)(\p{L})$/u.exec(housenumber);
  if (!parts) return undefined;
  return parts[2] ? `${parts[1]}${parts[3]!.toLowerCase()}` : `${parts[1]} ${parts[3]!.toUpperCase()}`;
}

/** The query forms measured, each a text made from the address (undefined: the form does not apply). */
export const FORMS: Record<string, (a: OsmAddress) => string | undefined> = {
  'street number, city': (a) => (a.city ? `${a.street} ${a.housenumber}, ${a.city}` : undefined),
  'number street, postcode city': (a) => (a.city && a.postcode ? `${a.housenumber} ${a.street}, ${a.postcode} ${a.city}` : undefined),
  'street number': (a) => `${a.street} ${a.housenumber}`,
  'number street': (a) => `${a.housenumber} ${a.street}`,
  'street with a typo number, city': (a) =>
    a.city && withTypo(a.street) !== a.street ? `${withTypo(a.street)} ${a.housenumber}, ${a.city}` : undefined,
  'street number, postcode': (a) => (a.postcode ? `${a.street} ${a.housenumber}, ${a.postcode}` : undefined),
  'number letter spelt otherwise (12a ↔ 12 A), city': (a) => {
    const spelt = otherSpelling(a.housenumber);
    return a.city && spelt ? `${a.street} ${spelt}, ${a.city}` : undefined;
  },
};

async function* osmAddresses(file: string): AsyncIterable<OsmAddress> {
  const keys = [
    'addr:housenumber',
    'addr:street',
    'addr:place',
    'addr:city',
    'addr:postcode',
    'addr:state',
    'addr:country',
    'name',
    'amenity',
    'shop',
    'tourism',
    'leisure',
    'office',
  ];
  for await (const el of readOsmElements(file, { keys, linearTags: [] }, () => undefined)) {
    if (el.shape === 'line' && lineIsArea(el)) continue;
    const housenumber = el.tags['addr:housenumber']?.trim();
    const street = (el.tags['addr:street'] ?? el.tags['addr:place'])?.trim();
    if (!housenumber || !street) continue;
    const city = el.tags['addr:city']?.trim();
    const postcode = el.tags['addr:postcode']?.trim();
    const state = el.tags['addr:state']?.trim();
    const country = el.tags['addr:country']?.trim();
    yield {
      gid: `openstreetmap:address:${el.type}/${el.id}`,
      housenumber,
      street,
      venue: el.tags.name !== undefined,
      at: labelPoint(el) as [number, number],
      ...(city ? { city } : {}),
      ...(postcode ? { postcode } : {}),
      ...(state ? { state } : {}),
      ...(country ? { country } : {}),
    };
  }
}

/** The elements that carry the same address: with the city when the query names it, else anywhere. */
const addressKey = (a: OsmAddress, withCity: boolean) =>
  [houseNumberKey(a.housenumber), streetKey(a.street), withCity ? (a.city ?? '') : ''].join('|');

function isHit(index: GeocoderIndex, text: string, carriers: readonly OsmAddress[]): boolean {
  const { params } = sanitizeSearch(new URLSearchParams({ text, size: '1' }));
  const feature = search(index, params, false).features[0];
  const first = feature?.properties;
  if (first === undefined || first.layer !== 'address' || first.housenumber === undefined || first.street === undefined) return false;
  const [lon, lat] = feature!.geometry.coordinates;
  const asked = carriers[0]!;
  return (
    houseNumberKey(first.housenumber) === houseNumberKey(asked.housenumber) &&
    streetKey(first.street) === streetKey(asked.street) &&
    carriers.some(({ at }) => metresBetween(lon, lat, at[0], at[1]) <= HIT_RADIUS_M)
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { index: { type: 'string' }, misses: { type: 'boolean', default: false } } });
  const workDir = mkdtempSync(join(tmpdir(), 'waymark-address-hits-'));
  try {
    const osmFiles = EXTRACTS.map((name) => join(DATA_DIR, 'osm', `${name}.osm.pbf`));
    const indexFile = values.index ?? join(workDir, 'geocoder.sqlite');
    if (values.index === undefined) {
      await buildGeocoderIndex(
        {
          osmFiles,
          wofDirs: ['mc', 'ad'].map((d) => join(DATA_DIR, 'wof', d)),
          oaFiles: OA_FILES.map((f) => join(DATA_DIR, 'oa', f)),
          geonames: true,
        },
        indexFile,
        () => undefined,
      );
    }
    const index = new GeocoderIndex(indexFile);
    const addresses: OsmAddress[] = [];
    for (const file of osmFiles) for await (const address of osmAddresses(file)) addresses.push(address);
    const carriers = new Map<string, OsmAddress[]>();
    for (const address of addresses) {
      for (const withCity of [true, false]) {
        const key = addressKey(address, withCity);
        carriers.set(key, [...(carriers.get(key) ?? []), address]);
      }
    }
    const tally = new Map<string, { asked: number; hits: number; venueAsked: number; venueHits: number }>();
    const elements = addresses.length;
    for (const address of addresses) {
      for (const [form, make] of Object.entries(FORMS)) {
        const text = make(address);
        if (text === undefined) continue;
        const row = tally.get(form) ?? { asked: 0, hits: 0, venueAsked: 0, venueHits: 0 };
        tally.set(form, row);
        const hit = isHit(index, text, carriers.get(addressKey(address, form.includes('city')))!);
        row.asked++;
        if (hit) row.hits++;
        if (address.venue) row.venueAsked++;
        if (address.venue && hit) row.venueHits++;
        if (!hit && values.misses) console.log(`miss: ${address.gid} ${JSON.stringify(text)}`);
      }
    }
    const labelled: LabelledAddress[] = [...addresses];
    for (const file of OA_FILES) for await (const row of openAddressesLabelled(join(DATA_DIR, 'oa', file))) labelled.push(row);
    console.log(
      `${elements} addressed OSM elements in ${EXTRACTS.join(', ')}; a hit: the first result is the address (number, street, within ${HIT_RADIUS_M} m)\n`,
    );
    const rows = [...tally].map(([form, t]) => [
      form,
      String(t.asked),
      fmtPct(t.hits / t.asked),
      `${t.venueAsked}`,
      t.venueAsked ? fmtPct(t.venueHits / t.venueAsked) : '–',
    ]);
    console.log(markdownTable(['query form', 'queries', 'hit at rank 1', 'of which named venues', 'venues hit at rank 1'], rows));
    scoreLabels(index, labelled, values.misses);
    index.close();
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

await main();
