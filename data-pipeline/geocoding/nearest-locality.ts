/**
 * The nearest GeoNames locality of a point, for records no admin polygon places: many extracts
 * carry no boundary relations (the Heidelberg one has none), and GeoNames has no polygons. The
 * country of such a record, and its locality when GeoNames is imported (so the GID resolves),
 * come from the nearest populated place within a few kilometres. Also guesses an extract's country.
 */
import KDBush from 'kdbush';
import { kilometresBetween } from '../../core/geo/distance.js';
import type { PlaceRecord } from '../../core/geocoding/place-record.js';
import { normalizeText } from '../../core/geocoding/text/normalize.js';

/** How far a place may be from the GeoNames locality it is said to belong to. */
const LOCALITY_RADIUS_KM = 15;
/** How far a place may be from the GeoNames locality whose country it is said to be in. */
const COUNTRY_RADIUS_KM = 100;
const KM_PER_DEGREE = 111.32;
/** The first circle searched, and how much wider each next one is. */
const FIRST_SEARCH_RADIUS_KM = 5;
const SEARCH_RADIUS_GROWTH = 4;

export class NearestLocality {
  private readonly index: KDBush;

  constructor(private readonly localities: readonly PlaceRecord[]) {
    this.index = new KDBush(Math.max(1, localities.length));
    for (const place of localities) this.index.add(place.lon, place.lat);
    if (localities.length === 0) this.index.add(0, 0);
    this.index.finish();
  }

  /**
   * The nearest locality within `radiusKm`, or undefined. Searched in growing circles: most
   * places have a locality within a few kilometres, and a 100 km box holds thousands of them. The
   * nearest one found within a circle is the nearest of all, as every place nearer lies inside it.
   */
  nearest(lon: number, lat: number, radiusKm: number): PlaceRecord | undefined {
    for (let radius = Math.min(FIRST_SEARCH_RADIUS_KM, radiusKm); ; radius = Math.min(radius * SEARCH_RADIUS_GROWTH, radiusKm)) {
      const found = this.nearestWithin(lon, lat, radius);
      if (found !== undefined || radius === radiusKm) return found;
    }
  }

  /** The nearest locality within `radiusKm` whose normalized name is `name` (normalized too), or undefined. */
  named(lon: number, lat: number, name: string, radiusKm: number): PlaceRecord | undefined {
    return this.nearestWithin(lon, lat, radiusKm, (place) => normalizeText(place.name) === name);
  }

  private nearestWithin(lon: number, lat: number, radiusKm: number, accept?: (place: PlaceRecord) => boolean): PlaceRecord | undefined {
    // A box in degrees wide enough at this latitude; the exact distance decides.
    const degrees = radiusKm / KM_PER_DEGREE / Math.max(0.05, Math.cos((lat * Math.PI) / 180));
    let best: PlaceRecord | undefined;
    let bestKm = radiusKm;
    for (const id of this.index.within(lon, lat, degrees)) {
      const place = this.localities[id];
      if (place === undefined || (accept && !accept(place))) continue;
      const km = kilometresBetween(lon, lat, place.lon, place.lat);
      if (km <= bestKm) [best, bestKm] = [place, km];
    }
    return best;
  }

  /**
   * Fills a record's missing country from the nearest locality (within 100 km), and its missing
   * locality too (within 15 km) when `withLocality` (the localities are in the index). Admin areas
   * at or above locality keep theirs.
   */
  complete(record: PlaceRecord, withLocality: boolean): PlaceRecord {
    const needsLocality =
      withLocality &&
      record.locality === undefined &&
      (record.layer === 'venue' || record.layer === 'address' || record.layer === 'street' || record.layer === 'neighbourhood');
    if (record.country_a !== undefined && !needsLocality) return record;
    const near = this.nearest(record.lon, record.lat, COUNTRY_RADIUS_KM);
    if (near === undefined) return record;
    const completed = { ...record };
    if (record.country_a === undefined && near.country_a !== undefined) {
      completed.country_a = near.country_a;
      if (near.country !== undefined) completed.country = near.country;
    }
    if (needsLocality && kilometresBetween(record.lon, record.lat, near.lon, near.lat) <= LOCALITY_RADIUS_KM) {
      completed.locality = near.name;
      completed.locality_gid = near.gid;
    }
    return completed;
  }
}
