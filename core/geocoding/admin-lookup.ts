/**
 * Point-in-polygon admin lookup: which country, region, locality and neighbourhood enclose a
 * point. Built once from generic admin polygons (WOF today, OSM boundaries later): all rings of
 * all polygons in one Float64Array of coordinates, a flatbush R-tree over the polygons' bounding
 * boxes, and an exact even-odd test over every ring of a candidate (outer rings, holes and the
 * parts of a MultiPolygon alike). Memory: 16 bytes per vertex, 4 per ring, about 50 per polygon
 * for the R-tree and offsets, plus the names and GIDs (the GeoJSON geometries are not kept).
 */
import Flatbush from 'flatbush';
import type { MultiPolygon, Polygon } from 'geojson';
import { countryByCode } from './countries.js';
import { ADMIN_LAYERS, type AdminHierarchy, type AdminLayer, type PlaceRecord } from './place-record.js';

/** An admin area of any source, as the lookup needs it. */
export interface AdminPolygon {
  layer: AdminLayer;
  name: string;
  gid: string;
  /** ISO 3166-1 alpha-3 of the country the area belongs to, when known. */
  country_a?: string;
  /** A region's short code (`MD`, `BW`: WOF `wof:shortcode`, OSM `ISO3166-2`), for labels. */
  abbreviation?: string;
  geometry: Polygon | MultiPolygon;
}

/** An admin area without its geometry: what the lookup keeps and answers. */
export type AdminArea = Omit<AdminPolygon, 'geometry'>;

/** What `enclosing` returns: the smallest enclosing area of each admin layer found. */
export type EnclosingAdmins = Partial<Record<AdminLayer, AdminArea>>;

/** What `candidates` returns: every enclosing area of each admin layer, smallest first. */
export type EnclosingCandidates = Partial<Record<AdminLayer, AdminArea[]>>;

export class AdminLookup {
  /** The areas in input order; the geometries live only in the typed arrays below. */
  readonly admins: readonly AdminArea[];
  /** x0, y0, x1, y1, … of every ring, ring after ring. */
  private readonly coords: Float64Array;
  /** Ring r spans vertices ringStart[r] .. ringStart[r + 1] - 1. */
  private readonly ringStart: Uint32Array;
  /** Admin i spans rings adminRingStart[i] .. adminRingStart[i + 1] - 1. */
  private readonly adminRingStart: Uint32Array;
  /** Area of each admin in square degrees (outer rings minus holes), to prefer the smallest. */
  private readonly areas: Float64Array;
  private readonly index: Flatbush | null;

  /** Reads the areas one at a time: only their typed arrays are kept, never all GeoJSON geometries at once. */
  constructor(admins: Iterable<AdminPolygon>) {
    const areas: AdminArea[] = [];
    const coords: number[] = [];
    const ringStart: number[] = [];
    const adminRingStart: number[] = [];
    const adminAreas: number[] = [];
    const boxes: number[] = [];
    for (const { geometry, ...area } of admins) {
      areas.push(area);
      adminRingStart.push(ringStart.length);
      let minX = Infinity,
        minY = Infinity,
        maxX = -Infinity,
        maxY = -Infinity;
      let adminArea = 0;
      for (const polygon of polygonsOf(geometry)) {
        for (let r = 0; r < polygon.length; r++) {
          const ring = polygon[r]!;
          ringStart.push(coords.length / 2);
          for (const [x, y] of ring as [number, number][]) {
            coords.push(x, y);
            if (x < minX) minX = x;
            if (y < minY) minY = y;
            if (x > maxX) maxX = x;
            if (y > maxY) maxY = y;
          }
          const area = Math.abs(ringArea(ring));
          adminArea += r === 0 ? area : -area;
        }
      }
      adminAreas.push(adminArea);
      boxes.push(minX, minY, maxX, maxY);
    }
    adminRingStart.push(ringStart.length);
    ringStart.push(coords.length / 2);
    this.admins = areas;
    this.coords = Float64Array.from(coords);
    this.ringStart = Uint32Array.from(ringStart);
    this.adminRingStart = Uint32Array.from(adminRingStart);
    this.areas = Float64Array.from(adminAreas);
    this.index = areas.length > 0 ? new Flatbush(areas.length) : null;
    for (let i = 0; i < areas.length; i++) this.index!.add(boxes[i * 4]!, boxes[i * 4 + 1]!, boxes[i * 4 + 2]!, boxes[i * 4 + 3]!);
    this.index?.finish();
  }

  /** The smallest admin area of each layer that contains the point. */
  enclosing(lon: number, lat: number): EnclosingAdmins {
    const found: EnclosingAdmins = {};
    for (const [layer, areas] of Object.entries(this.candidates(lon, lat))) found[layer as AdminLayer] = areas[0];
    return found;
  }

  /** Every admin area that contains the point, by layer, smallest first (sources may disagree: see hierarchy.ts). */
  candidates(lon: number, lat: number): EnclosingCandidates {
    const found: { admin: number; area: number }[] = [];
    if (!this.index) return {};
    for (const i of this.index.search(lon, lat, lon, lat)) if (this.contains(i, lon, lat)) found.push({ admin: i, area: this.areas[i]! });
    found.sort((a, b) => a.area - b.area);
    const byLayer: EnclosingCandidates = {};
    for (const { admin } of found) {
      const area = this.admins[admin]!;
      (byLayer[area.layer] ??= []).push(area);
    }
    return byLayer;
  }

  /**
   * The record with its hierarchy filled by point-in-polygon: every admin layer above the
   * record's own (an admin record also names itself at its own layer). A layer no polygon
   * answers keeps the record's own value, e.g. the country GeoNames gives by ISO code; a record
   * with only `country_a` gets the country's name from the ISO table. `found` chooses other
   * areas than the smallest ones.
   */
  withHierarchy(record: PlaceRecord, found: EnclosingAdmins = this.enclosing(record.lon, record.lat)): PlaceRecord {
    const filled: PlaceRecord = { ...record };
    for (const layer of ADMIN_LAYERS) {
      if (layer === record.layer) {
        setAdmin(filled, layer, record.name, record.gid);
        break;
      }
      const admin = found[layer];
      if (admin) setAdmin(filled, layer, admin.name, admin.gid);
      if (admin?.abbreviation && layer === 'region') filled.region_a = admin.abbreviation;
    }
    // The country of the areas found: its polygon's, else that of the smaller areas (an extract often
    // cuts its country's relation, which then has no polygon; the communes and quartiers know theirs).
    const within = found.country ?? found.region ?? found.locality ?? found.neighbourhood;
    const countryA = record.layer === 'country' ? undefined : within?.country_a;
    if (countryA && countryA !== filled.country_a && !found.country) {
      delete filled.country;
      delete filled.country_gid;
    }
    if (countryA) filled.country_a = countryA;
    if (!filled.country && filled.country_a) {
      const country = countryByCode(filled.country_a);
      if (country) filled.country = country.name;
    }
    return filled;
  }

  /** Even-odd test over all rings of admin i. */
  private contains(i: number, x: number, y: number): boolean {
    const coords = this.coords;
    let inside = false;
    for (let r = this.adminRingStart[i]!; r < this.adminRingStart[i + 1]!; r++) {
      const start = this.ringStart[r]!;
      const end = this.ringStart[r + 1]!;
      for (let a = start, b = end - 1; a < end; b = a++) {
        const ax = coords[a * 2]!,
          ay = coords[a * 2 + 1]!;
        const bx = coords[b * 2]!,
          by = coords[b * 2 + 1]!;
        if (ay > y !== by > y && x < ((bx - ax) * (y - ay)) / (by - ay) + ax) inside = !inside;
      }
    }
    return inside;
  }
}

/** Signed shoelace area of a ring, in square degrees. */
function ringArea(ring: number[][]): number {
  let sum = 0;
  for (let a = 0, b = ring.length - 1; a < ring.length; b = a++) sum += (ring[b]![0]! - ring[a]![0]!) * (ring[b]![1]! + ring[a]![1]!);
  return sum / 2;
}

function polygonsOf(geometry: Polygon | MultiPolygon): number[][][][] {
  return (geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates) as number[][][][];
}

function setAdmin(record: AdminHierarchy, layer: AdminLayer, name: string, gid: string): void {
  record[layer] = name;
  record[`${layer}_gid`] = gid;
}
