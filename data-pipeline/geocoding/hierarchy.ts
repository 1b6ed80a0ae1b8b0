/**
 * The admin hierarchy of an imported place: what a local would write. Sources disagree (Who's On
 * First's Vaduz polygon covers central Schaan; an extract's edge puts an Austrian town under a
 * Liechtenstein polygon), so of the polygons that contain the point:
 *
 * 1. none of another country than the place's own (its `addr:country`, GeoNames' code);
 * 2. the one the place's own names (`addr:city`, `addr:place`, OpenAddresses' CITY) agree with;
 * 3. when the place names a town that no polygon around it is called, no locality polygon: the
 *    GeoNames locality of that name within 15 km, else the name itself;
 * 4. else OSM's boundary before the others (drawn to the land register, WOF's often roughly),
 *    the smallest first;
 * 5. the country and region of the chosen locality's country.
 *
 * Then what no polygon gives comes from GeoNames (`NearestLocality.complete`: the nearest place,
 * never over a containing polygon), and a US place's state from `us-atlas` when no region polygon
 * was imported.
 */
import { AdminLookup, type AdminArea, type EnclosingAdmins, type EnclosingCandidates } from '../../core/geocoding/admin-lookup.js';
import { countryByCode } from '../../core/geocoding/countries.js';
import type { AdminLayer, PlaceLayer, PlaceRecord } from '../../core/geocoding/place-record.js';
import { normalizeText } from '../../core/geocoding/text/normalize.js';
import type { NearestLocality } from './nearest-locality.js';
import { usStatePolygons } from './us-states.js';

/** How far a place may be from the GeoNames locality its own city name names. */
const NAMED_LOCALITY_RADIUS_KM = 15;
/** How far a US place outside the states' polygons may be from the GeoNames place whose state it takes. */
const US_STATE_RADIUS_KM = 100;
/** Layers whose records carry a country of their own that polygons of another country must not override. */
const OWN_COUNTRY_LAYERS: ReadonlySet<PlaceLayer> = new Set(['venue', 'address', 'street']);
/** Layers given a locality by name or from GeoNames when no polygon gives one. */
const LOCAL_LAYERS: ReadonlySet<PlaceLayer> = new Set(['venue', 'address', 'street', 'neighbourhood']);
/** The order layers are chosen in: the locality decides the country when polygons of two countries overlap. */
const CHOICE_ORDER: readonly AdminLayer[] = ['locality', 'neighbourhood', 'region', 'country'];

export class PlaceHierarchy {
  private usStates: AdminLookup | undefined;

  /** `withGeonames`: GeoNames localities are in the index, so a record may name one by GID. */
  constructor(
    private readonly lookup: AdminLookup,
    private readonly nearest: NearestLocality,
    private readonly withGeonames: boolean,
  ) {}

  /** The record with its country, region, locality and neighbourhood. */
  place(record: PlaceRecord): PlaceRecord {
    const cityNames = new Set((record.admin_names ?? []).map(normalizeText));
    const ownCountry = OWN_COUNTRY_LAYERS.has(record.layer) || record.source === 'geonames' ? record.country_a : undefined;
    const chosen = chooseAdmins(this.lookup.candidates(record.lon, record.lat), cityNames, ownCountry);
    const filled = this.withNamedLocality(this.lookup.withHierarchy(record, chosen), cityNames, chosen);
    return this.withUsState(this.nearest.complete(filled, this.withGeonames));
  }

  /**
   * A place that names its town where no polygon does: the GeoNames locality of that name, else
   * the name. Across a border the polygons do not know (WOF's Fontvieille reaches into Èze), the
   * chosen areas of another country are dropped and the town's country is the place's.
   */
  private withNamedLocality(record: PlaceRecord, cityNames: ReadonlySet<string>, chosen: EnclosingAdmins): PlaceRecord {
    if (record.locality !== undefined || !LOCAL_LAYERS.has(record.layer) || cityNames.size === 0) return record;
    // addr:city before addr:place: the town before a hamlet or quarter of it.
    const named = this.withGeonames
      ? [...cityNames]
          .map((name) => this.nearest.named(record.lon, record.lat, name, NAMED_LOCALITY_RADIUS_KM))
          .find((place) => place !== undefined)
      : undefined;
    if (named === undefined) return { ...record, locality: record.admin_names![0]! };
    const filled: PlaceRecord = { ...record, locality: named.name, locality_gid: named.gid };
    if (named.country_a === undefined) return filled;
    for (const layer of ['region', 'neighbourhood'] as const) {
      const area = chosen[layer];
      if (area?.country_a === undefined || area.country_a === named.country_a) continue;
      delete filled[layer];
      delete filled[`${layer}_gid`];
      if (layer === 'region') delete filled.region_a;
    }
    if (filled.country_a !== named.country_a) {
      delete filled.country;
      delete filled.country_gid;
      filled.country_a = named.country_a;
      if (named.country !== undefined) filled.country = named.country;
    }
    return filled;
  }

  /**
   * A US place without a region polygon: its state from `us-atlas`, else (the 1:10m coast cuts
   * off shores and islets) the state of the nearest US GeoNames place within 100 km.
   */
  private withUsState(record: PlaceRecord): PlaceRecord {
    if (record.region !== undefined || (record.country_a !== undefined && record.country_a !== 'USA')) return record;
    this.usStates ??= new AdminLookup(usStatePolygons());
    const state = this.usStates.enclosing(record.lon, record.lat).region;
    const near = state ? undefined : this.nearest.nearest(record.lon, record.lat, US_STATE_RADIUS_KM);
    const region = state
      ? { region: state.name, region_a: state.abbreviation! }
      : near?.country_a === 'USA' && near.region
        ? { region: near.region, region_a: near.region_a! }
        : undefined;
    if (region === undefined) return record;
    return { ...record, ...region, country_a: 'USA', country: countryByCode('USA')!.name };
  }
}

const isOsm = (area: AdminArea) => area.gid.startsWith('openstreetmap:');

/** The polygon of each layer by the rules above (numbered in the module comment). */
function chooseAdmins(candidates: EnclosingCandidates, cityNames: ReadonlySet<string>, ownCountry: string | undefined): EnclosingAdmins {
  const named = (area: AdminArea) => cityNames.has(normalizeText(area.name));
  const namesAnyArea = Object.values(candidates).some((areas) => areas.some(named));
  let country = ownCountry;
  const chosen: EnclosingAdmins = {};
  for (const layer of CHOICE_ORDER) {
    const areas = (candidates[layer] ?? []).filter(
      (area) => country === undefined || area.country_a === undefined || area.country_a === country,
    );
    const ordered = [...areas.filter(isOsm), ...areas.filter((area) => !isOsm(area))];
    const area = ordered.find(named) ?? (layer === 'locality' && cityNames.size > 0 && !namesAnyArea ? undefined : ordered[0]);
    if (area === undefined) continue;
    // Another source's area of the same name may know the short code (WOF's shortcode, not OSM's Andorran parishes).
    const coded = area.abbreviation
      ? undefined
      : areas.find((other) => other.abbreviation && normalizeText(other.name) === normalizeText(area.name));
    chosen[layer] = coded ? { ...area, abbreviation: coded.abbreviation! } : area;
    country ??= area.country_a;
  }
  return chosen;
}
