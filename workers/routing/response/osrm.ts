/** The body of OSRM v5's route service, as Waymark writes it (the fields OSRM clients read). */
import type { LineString } from 'geojson';

/** `polyline` / `polyline6` strings, or a GeoJSON LineString for `geometries=geojson`. */
export type OsrmGeometry = string | LineString;

export type StepMode = 'driving' | 'walking' | 'cycling' | 'ferry' | 'pushing bike' | 'train';

export type ManeuverType =
  | 'depart'
  | 'arrive'
  | 'turn'
  | 'new name'
  | 'continue'
  | 'on ramp'
  | 'off ramp'
  | 'end of road'
  | 'roundabout'
  | 'exit roundabout'
  | 'notification';

export type Modifier = 'uturn' | 'sharp right' | 'right' | 'slight right' | 'straight' | 'slight left' | 'left' | 'sharp left';

export interface OsrmManeuver {
  type: ManeuverType;
  modifier?: Modifier;
  /** Exit number of a roundabout step that leaves the roundabout. */
  exit?: number;
  location: [number, number];
  bearing_before: number;
  bearing_after: number;
  instruction: string;
}

export interface OsrmIntersection {
  location: [number, number];
  /** Bearings of the roads at the intersection, ascending. */
  bearings: number[];
  entry: boolean[];
  /** Index into `bearings` of the road the route comes from (absent at departure). */
  in?: number;
  /** Index into `bearings` of the road the route takes (absent at arrival). */
  out?: number;
}

export interface OsrmStep {
  distance: number;
  duration: number;
  weight: number;
  geometry: OsrmGeometry;
  name: string;
  ref?: string;
  mode: StepMode;
  driving_side: 'right';
  maneuver: OsrmManeuver;
  intersections: OsrmIntersection[];
}

export interface OsrmLeg {
  distance: number;
  duration: number;
  weight: number;
  summary: string;
  steps: OsrmStep[];
  /** Present when `annotations` are asked (route service only). */
  annotation?: OsrmAnnotation;
}

/** Per piece of a leg's polyline, what `annotations` asked (response/annotation.ts). */
export interface OsrmAnnotation {
  distance?: number[];
  duration?: number[];
  datasources?: number[];
  weight?: number[];
  speed?: number[];
  /** The OSM node id of each point of the leg's polyline (one more than the pieces), 0 where not known. */
  nodes?: number[];
  metadata?: { datasource_names: string[] };
}

export interface OsrmRoute {
  distance: number;
  duration: number;
  weight: number;
  weight_name: 'duration';
  /** Absent with `overview=false`. */
  geometry?: OsrmGeometry;
  legs: OsrmLeg[];
  /** With `elevation=true` (response/route-elevation.ts): metres climbed and descended, null without any elevation on the route. */
  ascent?: number | null;
  descent?: number | null;
  /** With `elevation=true`: [metres from the start, elevation or null] per point of `geometry` (of the whole line with overview=false). */
  elevation_profile?: [number, number | null][];
}

export interface OsrmWaypoint {
  name: string;
  location: [number, number];
  /** Metres between the requested position and `location`. */
  distance: number;
  /** OSRM's hint: sent back with the same coordinate, it places the point again without a search (OSRM paths only). */
  hint?: string;
}

export interface DirectionsBody {
  code: 'Ok';
  routes: OsrmRoute[];
  waypoints: OsrmWaypoint[];
}

/** A trip's waypoint: where the point snapped, and where the trip visits it. */
export interface TripWaypoint extends OsrmWaypoint {
  /** Index into `trips` of the trip visiting the point (Waymark answers one trip: always 0). */
  trips_index: number;
  /** Index of the point among the trip's stops (the start of leg `waypoint_index`). */
  waypoint_index: number;
}

/** OSRM's trip service body: the trips, and the points in request order. */
export interface TripBody {
  code: 'Ok';
  trips: OsrmRoute[];
  waypoints: TripWaypoint[];
}

/** `/optimize`: the directions body of the trip (waypoints in the order visited) and, per waypoint, the index of its point in the request. */
export interface OptimizeBody extends DirectionsBody {
  order: number[];
}

/** OSRM's table service body: a row per source, a column per destination, null where no route. */
export interface TableBody {
  code: 'Ok';
  /** Seconds; present when asked (`annotations` holds `duration`). */
  durations?: (number | null)[][];
  /** Metres; present when asked (`annotations` holds `distance`). */
  distances?: (number | null)[][];
  sources: OsrmWaypoint[];
  destinations: OsrmWaypoint[];
}

/** A waypoint of OSRM's nearest: the OSM node ids of the snapped piece's ends, in OSRM's order (graph/osm-nodes.ts), 0 where not known. */
export interface NearestWaypoint extends OsrmWaypoint {
  nodes: [number, number];
}

/** OSRM's nearest service body: the nearest road position, or the `number` nearest roads. */
export interface NearestBody {
  code: 'Ok';
  waypoints: NearestWaypoint[];
}

/** A trace point of OSRM's match service body: where it was matched, and in which matching. */
export interface OsrmTracepoint extends OsrmWaypoint {
  /** Index into `matchings`. */
  matchings_index: number;
  /** Index of the leg end (waypoint) the point is within its matching. */
  waypoint_index: number;
  /** How many other candidates of the point some likely matching still passes through. */
  alternatives_count: number;
}

/** OSRM's match service body: one route per matched part of the trace, and per trace point its tracepoint or null (not matched). */
export interface MatchBody {
  code: 'Ok';
  matchings: (OsrmRoute & { confidence: number })[];
  tracepoints: (OsrmTracepoint | null)[];
}
