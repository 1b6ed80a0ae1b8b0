// Shortbread street and transport lines from OSM: streets, street_labels, street_polygons,
// streets_polygons_labels, street_labels_points, bridges, aerialways, ferries.
import type { FeatureValue } from '../features.js';
import { areaGeometry, isExplicitArea, pointOf, type AreaElement, type LineElement, type PointElement } from '../osm/element.js';
import { isBridge, isTunnel, layerNumber, nameProperties, type Emit } from './rule-helpers.js';
import type { Tags } from '../osm/tags.js';

interface StreetClass {
  kind: string;
  minzoom: number;
  link: boolean;
  rail: boolean;
}

const road = (kind: string, minzoom: number, link = false): StreetClass => ({ kind, minzoom, link, rail: false });

/** `highway=*` value → class in the streets layer (links keep the class of their road). */
const HIGHWAYS: Record<string, StreetClass> = {
  motorway: road('motorway', 5),
  motorway_link: road('motorway', 5, true),
  trunk: road('trunk', 6),
  trunk_link: road('trunk', 6, true),
  primary: road('primary', 8),
  primary_link: road('primary', 8, true),
  secondary: road('secondary', 9),
  secondary_link: road('secondary', 9, true),
  tertiary: road('tertiary', 10),
  tertiary_link: road('tertiary', 10, true),
  unclassified: road('unclassified', 12),
  residential: road('residential', 12),
  busway: road('busway', 12),
  bus_guideway: road('bus_guideway', 12),
  living_street: road('living_street', 13),
  service: road('service', 13),
  pedestrian: road('pedestrian', 13),
  track: road('track', 13),
  footway: road('footway', 13),
  steps: road('steps', 13),
  path: road('path', 13),
  cycleway: road('cycleway', 13),
};

const AEROWAYS: Record<string, StreetClass> = { runway: road('runway', 11), taxiway: road('taxiway', 13) };

/** Main railway lines from zoom 8; their sidings, yards and spurs (`service=*`) and other rail from 10. */
const MAIN_LINE_RAILWAYS = new Set(['rail', 'narrow_gauge']);
const OTHER_RAILWAYS = new Set(['light_rail', 'tram', 'subway', 'funicular', 'monorail']);

function railwayClass(t: Tags): StreetClass | undefined {
  const railway = t.railway!;
  if (MAIN_LINE_RAILWAYS.has(railway)) return { kind: railway, minzoom: t.service === undefined ? 8 : 10, link: false, rail: true };
  if (OTHER_RAILWAYS.has(railway)) return { kind: railway, minzoom: 10, link: false, rail: true };
  return undefined;
}

function streetClass(t: Tags): StreetClass | undefined {
  if (t.highway !== undefined) return HIGHWAYS[t.highway];
  if (t.railway !== undefined) return railwayClass(t);
  if (t.aeroway !== undefined) return AEROWAYS[t.aeroway];
  return undefined;
}

/** First zoom of street labels, by the raw `highway=*` value (rail and aeroways use their class's). */
const HIGHWAY_LABEL_MINZOOM: Record<string, number> = {
  motorway: 10,
  motorway_link: 13,
  trunk: 12,
  trunk_link: 13,
  primary: 12,
  primary_link: 13,
  secondary: 13,
  secondary_link: 13,
  tertiary: 13,
  tertiary_link: 14,
};
const MINOR_STREET_LABEL_MINZOOM = 14;
const RAIL_LABEL_MINZOOM = 10;

function labelMinZoom(t: Tags, cls: StreetClass): number {
  if (cls.rail) return RAIL_LABEL_MINZOOM;
  if (t.highway === undefined) return cls.minzoom;
  return HIGHWAY_LABEL_MINZOOM[t.highway] ?? MINOR_STREET_LABEL_MINZOOM;
}

const ONEWAY_VALUES = new Set(['yes', '1', 'true', '-1']);

function streetProperties(t: Tags, cls: StreetClass): Record<string, FeatureValue> {
  const oneway = !cls.rail && t.oneway !== undefined && ONEWAY_VALUES.has(t.oneway);
  const props: Record<string, FeatureValue> = {
    kind: cls.kind,
    link: cls.link,
    rail: cls.rail,
    tunnel: isTunnel(t),
    bridge: isBridge(t),
    oneway,
    oneway_reverse: oneway && t.oneway === '-1',
    surface: t.surface ?? '',
    bicycle: t.bicycle ?? '',
    horse: t.horse ?? '',
    foot: t.foot ?? '',
    layer: layerNumber(t),
  };
  if (t.tracktype !== undefined) props.tracktype = t.tracktype;
  if (t.service !== undefined) props.service = t.service;
  return props;
}

/** `ref` with semicolons turned into line breaks, and its size in rows and columns. */
function refProperties(ref: string, props: Record<string, FeatureValue>): void {
  const parts = ref
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  props.ref = parts.join('\n');
  props.ref_rows = parts.length;
  props.ref_cols = parts.reduce((max, part) => Math.max(max, part.length), 0);
}

export function streetLines(el: LineElement, emit: Emit): void {
  const t = el.tags;
  if (isExplicitArea(el)) return;
  const cls = streetClass(t);
  if (cls === undefined) return;
  const geometry = { type: 'LineString' as const, coordinates: el.line };
  emit('streets', cls.minzoom, geometry, streetProperties(t, cls));
  if (t.name === undefined && t.ref === undefined) return;
  const label: Record<string, FeatureValue> = { kind: t.highway ?? t.railway ?? t.aeroway!, tunnel: isTunnel(t) };
  refProperties(t.ref ?? '', label);
  emit('street_labels', labelMinZoom(t, cls), geometry, nameProperties(t, label));
}

const STREET_POLYGON_HIGHWAYS: Record<string, number> = { pedestrian: 14, service: 14 };
const STREET_POLYGON_AEROWAYS: Record<string, number> = { runway: 11, taxiway: 13 };
const STREET_POLYGON_LABEL_MINZOOM = 14;

export function streetAreas(el: AreaElement, emit: Emit): void {
  const t = el.tags;
  if (t.man_made === 'bridge') emit('bridges', 12, areaGeometry(el.polygons), { kind: 'bridge' });
  if (!isExplicitArea(el)) return;
  let kind: string | undefined;
  let minzoom: number | undefined;
  if (t.highway !== undefined && STREET_POLYGON_HIGHWAYS[t.highway] !== undefined) {
    kind = t.highway;
    minzoom = STREET_POLYGON_HIGHWAYS[kind];
  } else if (t['area:aeroway'] !== undefined && STREET_POLYGON_AEROWAYS[t['area:aeroway']] !== undefined) {
    kind = t['area:aeroway'];
    minzoom = STREET_POLYGON_AEROWAYS[kind];
  }
  if (kind === undefined || minzoom === undefined) return;
  const props: Record<string, FeatureValue> = { kind, rail: false, tunnel: isTunnel(t), bridge: isBridge(t), surface: t.surface ?? '' };
  if (t.service !== undefined) props.service = t.service;
  emit('street_polygons', minzoom, areaGeometry(el.polygons), props);
  if (t.name !== undefined) {
    emit('streets_polygons_labels', STREET_POLYGON_LABEL_MINZOOM, pointOf(el), nameProperties(t, { kind }));
  }
}

export function motorwayJunctions(el: PointElement, emit: Emit): void {
  const t = el.tags;
  if (t.highway !== 'motorway_junction') return;
  emit(
    'street_labels_points',
    12,
    { type: 'Point', coordinates: el.point },
    nameProperties(t, { kind: 'motorway_junction', ref: t.ref ?? '' }),
  );
}

/** `aerialway=*` value → kind (the schema spells rope tows with a hyphen). */
const AERIALWAY_KINDS: Record<string, string> = {
  cable_car: 'cable_car',
  gondola: 'gondola',
  goods: 'goods',
  chair_lift: 'chair_lift',
  drag_lift: 'drag_lift',
  't-bar': 't-bar',
  'j-bar': 'j-bar',
  platter: 'platter',
  rope_tow: 'rope-tow',
};

export function transportLines(el: LineElement, emit: Emit): void {
  const t = el.tags;
  const geometry = { type: 'LineString' as const, coordinates: el.line };
  const aerialway = t.aerialway === undefined ? undefined : AERIALWAY_KINDS[t.aerialway];
  if (aerialway !== undefined) emit('aerialways', 12, geometry, { kind: aerialway });
  if (t.route === 'ferry') emit('ferries', t.motor_vehicle === 'no' ? 12 : 10, geometry, nameProperties(t, { kind: 'ferry' }));
}
