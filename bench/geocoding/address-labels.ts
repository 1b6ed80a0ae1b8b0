/**
 * Issue 29's label measure, part of `bench:addresses`: the label of every addressed element's own
 * record, against what the element and the polygons around it say. Expected, each part only when
 * known:
 * - locality: the element's `addr:city` (OpenAddresses' CITY), else the OSM or WOF locality
 *   polygon that contains it;
 * - region: the element's `addr:state` (OpenAddresses' REGION, else the state of a `us-xx-…` file);
 * - country: `addr:country` (an OpenAddresses file's country prefix), else the country polygon
 *   that contains it, else the country of the locality polygon that does.
 * A part is right when the label has it as one of its comma-separated parts (normalized; the
 * region as its name or code, the country as its name or alpha-3); a label is right when every
 * expected part is.
 */
import { basename } from 'node:path';
import type { AdminLookup } from '../../core/geocoding/admin-lookup.js';
import { countryByCode } from '../../core/geocoding/countries.js';
import { normalizeText } from '../../core/geocoding/text/normalize.js';
import { emptyOpenAddressesCounts, readOpenAddresses } from '../../data-pipeline/geocoding/openaddresses.js';
import { usStateName } from '../../data-pipeline/geocoding/us-states.js';
import type { GeocoderIndex } from '../../src/geocoding/engine/index-file.js';
import { recordOf } from '../../src/geocoding/engine/places.js';
import { label } from '../../src/geocoding/response/label.js';
import { fmtPct, markdownTable } from '../lib/report.js';

/** An addressed element or row: its record's GID, position and its own admin tags. */
export interface LabelledAddress {
  gid: string;
  at: [number, number];
  city?: string;
  /** `addr:state` or OpenAddresses' REGION: a name or a code. */
  state?: string;
  /** ISO 3166-1 alpha-2 or alpha-3. */
  country?: string;
}

interface Expected {
  locality?: string;
  region?: string[];
  country?: string[];
}

type Part = keyof Expected;
const PARTS: readonly Part[] = ['locality', 'region', 'country'];

function expected(address: LabelledAddress, admins: AdminLookup): Expected {
  const around = admins.enclosing(address.at[0], address.at[1]);
  const country = countryByCode(address.country ?? around.country?.country_a ?? around.locality?.country_a);
  const locality = address.city ?? around.locality?.name;
  const stateName = usStateName(address.state);
  return {
    ...(locality ? { locality } : {}),
    ...(address.state ? { region: stateName ? [address.state, stateName] : [address.state] } : {}),
    ...(country ? { country: [country.name, country.alpha3] } : {}),
  };
}

/** The OpenAddresses rows of a file with what its name says: `us-ak-…` is Alaska, USA. */
export async function* openAddressesLabelled(file: string): AsyncIterable<LabelledAddress> {
  const [country, state] = basename(file).split('-');
  for await (const record of readOpenAddresses(file, emptyOpenAddressesCounts())) {
    const region = record.region ?? (country === 'us' ? state?.toUpperCase() : undefined);
    yield {
      gid: record.gid,
      at: [record.lon, record.lat],
      ...(record.locality ? { city: record.locality } : {}),
      ...(region ? { state: region } : {}),
      ...(country ? { country } : {}),
    };
  }
}

interface Tally {
  labels: number;
  right: number;
  parts: Record<Part, { asked: number; right: number }>;
}

const emptyTally = (): Tally => ({
  labels: 0,
  right: 0,
  parts: { locality: { asked: 0, right: 0 }, region: { asked: 0, right: 0 }, country: { asked: 0, right: 0 } },
});

/** Scores the labels and prints a Markdown table per expected country; `misses` lists the wrong ones. */
export function scoreLabels(index: GeocoderIndex, addresses: Iterable<LabelledAddress>, misses: boolean): void {
  const tallies = new Map<string, Tally>();
  const all = emptyTally();
  for (const address of addresses) {
    const row = index.place(address.gid);
    if (row === undefined) continue;
    const text = label(recordOf(row));
    const labelParts = new Set(text.split(', ').map(normalizeText));
    const want = expected(address, index.admins);
    const country = want.country?.[1] ?? 'unknown';
    const tally = tallies.get(country) ?? emptyTally();
    tallies.set(country, tally);
    let right = true;
    for (const part of PARTS) {
      const values = want[part];
      if (values === undefined) continue;
      const ok = [values].flat().some((value) => labelParts.has(normalizeText(value)));
      for (const t of [tally, all]) {
        t.parts[part].asked++;
        if (ok) t.parts[part].right++;
      }
      right &&= ok;
    }
    for (const t of [tally, all]) {
      t.labels++;
      if (right) t.right++;
    }
    if (!right && misses) console.log(`label miss: ${address.gid} ${JSON.stringify(text)} expected ${JSON.stringify(want)}`);
  }
  const share = (n: number, of: number) => (of ? `${fmtPct(n / of)} of ${of}` : '–');
  const rows = [...[...tallies].sort(([a], [b]) => a.localeCompare(b)), ['all', all] as const].map(([country, t]) => [
    country,
    String(t.labels),
    fmtPct(t.right / t.labels),
    ...PARTS.map((part) => share(t.parts[part].right, t.parts[part].asked)),
  ]);
  console.log("\nLabels of the addresses' own records (locality, region, country as the element and the polygons around it say)\n");
  console.log(markdownTable(['country', 'labels', 'right', 'locality right', 'region right', 'country right'], rows));
}
