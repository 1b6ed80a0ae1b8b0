/**
 * Generated fuzzing of every route a Waymark node serves: the public API (maps, geocoding,
 * routing, usage) under /api/v1 and /v1, the system pages, the dashboard API and the operator API,
 * on a real Monaco dataset (tiles, geocoder with Who's On First, routing graphs). Each request
 * fills the parameters, path segments and body fields of its route with valid values and hostile
 * ones (operators, quotes, control characters, edge numbers, invalid percent escapes, empty and
 * huge values, wrong JSON types), one at a time or many at once, given twice or left out, with real
 * credentials most of the time; sometimes with another method, a mangled path, odd headers or a
 * chunked body. Every answer must be below 500, and every error the uniform `{statusCode, error,
 * message}` body.
 *
 * Each request is generated from its own seed (FUZZ_SEED and its number), so a failure printed
 * with its number, request and answer is reproducible; FUZZ_SEED and FUZZ_REQUESTS explore further.
 * Requests are sent 16 at a time.
 *
 * A second test (no dataset needed) sends raw bytes: random request lines (methods, targets,
 * protocol versions HTTP/0.9 to 2.0 and junk), 0 to 100 header fields, sometimes malformed ones.
 * Every request must get an answer below 500 or a closed connection, never silence; well-formed
 * HTTP/1.1 ones must be answered. FUZZ_RAW_REQUESTS sets how many.
 */
import test, { type ExecutionContext } from 'ava';
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { runImport } from '../data-pipeline/index.js';
import { TRAVEL_MODES } from '../core/routing/network.js';
import { CidrSet } from '../core/cidr.js';
import { SERVICES } from '../src/control-plane/types.js';
import { LAYERS, SOURCES } from '../core/geocoding/indexed-record.js';
import { LABEL_LANGUAGES, STYLES } from '../core/maps/style-catalog.js';
import { parseImportRequest } from '../src/operator/import-request.js';
import { customer, serve, tempDataDir } from './helpers/fixtures.js';
import {
  call,
  errorBodyFault,
  hostileJsonBody,
  hostileUrlValue,
  inParallel,
  junk,
  pick,
  seededRandom,
  type Answer,
  type FuzzBody,
} from './helpers/http.js';
import type { Account, TestServer } from './helpers/server.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';
import { tileAt } from './helpers/vector-tiles.js';
import { WAIT_CEILING_MS } from './helpers/waits.js';

const MONACO = sharedFile('osm', 'monaco.osm.pbf');
const WOF_MONACO = sharedFile('wof', 'mc');
const MONACO_DEM = sharedFile('dem', 'N43E007.hgt.zip');
const SEED = Number(process.env.FUZZ_SEED ?? 20261115);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 12_000);
const IN_FLIGHT = 16;
/** Sign-outs that end a real session (the others carry a junk or no cookie). */
const SPARE_SESSIONS = 30;
/**
 * uWebSockets.js closes, without an answer, a connection whose request head is over 4 KB and does
 * not arrive in one read (a known limit, see src/http/server.ts): such a request may get no answer.
 */
const UWS_ONE_READ_HEAD_BYTES = 4096;
const OPERATOR_TOKEN = 'operator-token-for-the-route-fuzz-0123456789';
const PASSWORD = 'correct horse battery';

type Random = () => number;
type Generate = (random: Random) => string;

/** What the generators draw real values from: the served dataset, and the accounts made for the fuzz. */
interface World {
  /** An all-scopes key of an Enterprise organization, and a maps-only one of it. */
  key: string;
  mapsKey: string;
  /** The dashboard account fuzzed (another organization than the keys'). */
  dashboard: Account;
  /** Sessions of that account for sign-outs, used up one per sign-out. */
  spareSessions: Account[];
  keyIds: string[];
  /** Invitations of the dashboard organization, when the server offers them: one to revoke, one to preview and accept. */
  invitations: { revocableId: string; token: string } | null;
}

interface FuzzRoute {
  method: string;
  /** `{name}` segments are filled per request. */
  path: string;
  /** Served under both /api/v1 and /v1. */
  api?: boolean;
  /** Valid values of the path segments, drawn together (a tile's z, x and y go together). */
  segments?: (random: Random, world: World) => Record<string, string>;
  query?: Record<string, Generate>;
  /** The JSON object body: each field with a generator of valid values. */
  body?: (world: World) => Record<string, (random: Random) => unknown>;
  credentials: 'key' | 'session' | 'spare session' | 'operator' | 'none';
  /** False where generated requests are not expected to succeed (sign-in is throttled after five failures). */
  succeeds?: boolean;
  /** Part of the members and invitations API, which answers 404 on a server without it. */
  invitations?: boolean;
}

interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: FuzzBody['body'];
  /** The body sent in chunks (Transfer-Encoding: chunked) rather than with a Content-Length. */
  chunked: boolean;
}

// ---------------------------------------------------------------------------------------------
// Valid values in Monaco

const decimal = (random: Random, min: number, max: number) => (min + random() * (max - min)).toFixed(6);
const lat: Generate = (random) => decimal(random, 43.724, 43.751);
const lon: Generate = (random) => decimal(random, 7.408, 7.439);
const latLng: Generate = (random) => `${lat(random)},${lon(random)}`;
const whole =
  (min: number, max: number): Generate =>
  (random) =>
    String(min + Math.floor(random() * (max - min + 1)));
/** Points of a generated /match trace (waypoints 0|2 and 0|1|2 are valid for it, 0|1 is not). */
const TRACE_POINTS = 3;
const oneOf =
  (values: readonly string[]): Generate =>
  (random) =>
    pick(random, values);
const someOf =
  (values: readonly string[]): Generate =>
  (random) =>
    values.filter(() => random() < 0.4).join(',') || values[0]!;

const PLACES = [
  'Monaco',
  'Monte-Carlo',
  'Casino de Monte-Carlo',
  'Boulevard Albert 1er',
  'Avenue Princesse Grace',
  'Port Hercule',
  'Rue Grimaldi',
  'Fontvieille',
  "Place d'Armes",
  '12 Rue Grimaldi',
  'La Condamine',
  'Stade Louis II',
  'Jardin Exotique',
  'Moneghetti',
];
const placeText: Generate = (random) => pick(random, PLACES);
const typedText: Generate = (random) => {
  const text = pick(random, PLACES);
  return text.slice(0, 1 + Math.floor(random() * text.length));
};
const GIDS = [
  'whosonfirst:country:85633285',
  'whosonfirst:locality:101831917',
  'wof:region:85686311',
  'openstreetmap:venue:node/1',
  'osm:address:way/2',
  'oa:address:x:1',
];
const LANGUAGES = ['en', 'fr', 'de', 'it', 'en-GB', 'de-CH', 'pt', 'zh-Hans'];

const tile = (random: Random) => {
  const { z, x, y } = tileAt(Number(lon(random)), Number(lat(random)), Math.floor(random() * 15));
  return { tileset: 'shortbread', z: String(z), x: String(x), y: String(y) };
};

/** `count` OSRM coordinates (`lon,lat;…`) in Monaco. */
const osrmCoords = (random: Random, count: number) => Array.from({ length: count }, () => `${lon(random)},${lat(random)}`).join(';');
/** `count` OSRM coordinates of a short drive in Monaco: consecutive points 30 to 60 m apart, so that most traces match. */
const osrmTrace = (random: Random, count: number) => {
  let [la, lo] = [Number(lat(random)), Number(lon(random))];
  return Array.from({ length: count }, () => {
    (la += (random() - 0.5) * 0.0008), (lo += (random() - 0.5) * 0.0008);
    return `${lo.toFixed(6)},${la.toFixed(6)}`;
  }).join(';');
};
/** OSRM's per-coordinate options with one entry per coordinate, each entry valid or empty. */
const osrmPlacement = (count: number): Record<string, Generate> => {
  const entries = (values: readonly string[]) => (random: Random) => Array.from({ length: count }, () => pick(random, values)).join(';');
  return {
    bearings: entries(['', '90,45', '0,180']),
    radiuses: entries(['', 'unlimited', '500']),
    approaches: entries(['', 'curb', 'unrestricted', 'opposite']),
    hints: entries(['']),
    snapping: oneOf(['default', 'any']),
    generate_hints: oneOf(['true', 'false']),
  };
};

/** OSRM's route `annotations` (route, match, trip), `nodes` among them, and some it refuses. */
const osrmAnnotations = oneOf(['true', 'false', 'duration,distance', 'speed,weight,datasources', 'nodes', 'duration,nodes', 'nodes,nodes']);

const geocodingFilters = {
  size: whole(1, 40),
  layers: someOf([...LAYERS, 'coarse']),
  sources: someOf([...SOURCES, 'osm', 'wof', 'oa', 'gn']),
  'boundary.country': oneOf(['MC', 'MCO', 'FR', 'fra']),
  lang: oneOf(LANGUAGES),
};
const focus = { 'focus.point.lat': lat, 'focus.point.lon': lon };

/** The fuzzed account's email, or a new one. */
const email = (world: World) => (random: Random) =>
  random() < 0.5 ? world.dashboard.email : `fuzz-${Math.floor(random() * 1e9)}@example.com`;
const password = (random: Random) => (random() < 0.8 ? PASSWORD : junk(random, 20));

// ---------------------------------------------------------------------------------------------
// Every route

const ROUTES: FuzzRoute[] = [
  // Maps
  { method: 'GET', path: '/tiles/{tileset}/{z}/{x}/{y}.pbf', api: true, segments: tile, credentials: 'key' },
  { method: 'GET', path: '/tiles/{tileset}.json', api: true, segments: () => ({ tileset: 'shortbread' }), credentials: 'key' },
  {
    method: 'GET',
    path: '/tiles/terrain/{z}/{x}/{name}',
    api: true,
    credentials: 'key',
    segments: (random) => {
      const { z, x, y } = tile(random);
      return { z, x, name: `${y}.${pick(random, ['png', 'webp'])}` };
    },
  },
  { method: 'GET', path: '/tiles/terrain.json', api: true, credentials: 'key' },
  {
    method: 'GET',
    path: '/tiles/contours/{z}/{x}/{y}.pbf',
    api: true,
    credentials: 'key',
    segments: (random) => {
      const { z, x, y } = tile(random);
      return { z, x, y };
    },
  },
  { method: 'GET', path: '/tiles/contours.json', api: true, credentials: 'key' },
  { method: 'GET', path: '/styles', api: true, credentials: 'key' },
  {
    method: 'GET',
    path: '/styles/{slug}/style.json',
    api: true,
    credentials: 'key',
    segments: (random) => ({ slug: pick(random, STYLES).slug }),
    query: { lang: oneOf([...LABEL_LANGUAGES, ...LANGUAGES]) },
  },
  {
    method: 'GET',
    path: '/fonts/{fontstack}/{range}.pbf',
    api: true,
    credentials: 'key',
    segments: (random) => {
      const start = 256 * Math.floor(random() * 256);
      return {
        fontstack: pick(random, ['noto_sans_regular', 'noto_sans_bold', 'noto_sans_regular,noto_sans_bold']),
        range: `${start}-${start + 255}`,
      };
    },
  },
  {
    method: 'GET',
    path: '/sprites/{name}.json',
    api: true,
    segments: (random) => ({ name: pick(random, ['base', 'base@2x']) }),
    credentials: 'key',
  },
  {
    method: 'GET',
    path: '/sprites/{name}.png',
    api: true,
    segments: (random) => ({ name: pick(random, ['base', 'base@2x']) }),
    credentials: 'key',
  },
  {
    method: 'GET',
    path: '/styles/{slug}/tiles/{z}/{x}/{name}',
    api: true,
    credentials: 'key',
    segments: (random) => {
      const { z, x, y } = tile(random);
      return { slug: pick(random, STYLES).slug, z, x, name: `${y}${pick(random, ['', '@2x'])}.${pick(random, ['png', 'webp', 'jpg'])}` };
    },
    query: { lang: oneOf([...LABEL_LANGUAGES, ...LANGUAGES]) },
  },
  {
    method: 'GET',
    path: '/styles/{slug}/tiles.json',
    api: true,
    credentials: 'key',
    segments: (random) => ({ slug: pick(random, STYLES).slug }),
    query: { lang: oneOf([...LABEL_LANGUAGES, ...LANGUAGES]), scale: oneOf(['1', '2']), format: oneOf(['png', 'webp', 'jpg']) },
  },
  {
    // Small pictures: the fuzz is about the parameters, not the rendering time.
    method: 'GET',
    path: '/staticmap',
    api: true,
    credentials: 'key',
    query: {
      style: (random) => pick(random, STYLES).slug,
      size: (random) => `${whole(1, 64)(random)}x${whole(1, 64)(random)}`,
      center: latLng,
      zoom: whole(10, 17),
      scale: oneOf(['1', '2']),
      format: oneOf(['png', 'webp', 'jpg']),
      markers: (random) => `color:${pick(random, ['red', 'blue', '0x00ff00'])}|label:${pick(random, ['A', '1'])}|${latLng(random)}`,
      path: (random) => `color:0xff0000cc|width:${whole(1, 8)(random)}|${latLng(random)}|${latLng(random)}`,
    },
  },
  // Elevation: points, a path's samples, and the same as a POST body (JSON here; the key in the URL)
  {
    method: 'GET',
    path: '/elevation',
    api: true,
    credentials: 'key',
    query: { locations: (random) => Array.from({ length: 1 + Math.floor(random() * 8) }, () => latLng(random)).join('|') },
  },
  {
    method: 'GET',
    path: '/elevation',
    api: true,
    credentials: 'key',
    query: { path: (random) => `${latLng(random)}|${latLng(random)}`, samples: whole(1, 512), format: oneOf(['json', 'pbf']) },
  },
  {
    method: 'POST',
    path: '/elevation',
    api: true,
    credentials: 'key',
    body: () => ({ path: (random) => `${latLng(random)}|${latLng(random)}`, samples: (random) => 1 + Math.floor(random() * 512) }),
  },
  // Geocoding
  { method: 'GET', path: '/geocoding/search', api: true, credentials: 'key', query: { text: placeText, ...focus, ...geocodingFilters } },
  {
    method: 'GET',
    path: '/geocoding/autocomplete',
    api: true,
    credentials: 'key',
    query: { text: typedText, ...focus, ...geocodingFilters },
  },
  { method: 'GET', path: '/geocode', api: true, credentials: 'key', query: { q: placeText, ...focus, ...geocodingFilters } },
  {
    method: 'GET',
    path: '/geocoding/reverse',
    api: true,
    credentials: 'key',
    query: { 'point.lat': lat, 'point.lon': lon, ...geocodingFilters },
  },
  {
    method: 'GET',
    path: '/geocoding/place',
    api: true,
    credentials: 'key',
    query: { ids: (random) => GIDS.filter(() => random() < 0.4).join(',') || GIDS[0]!, lang: oneOf(LANGUAGES) },
  },
  // Routing
  {
    method: 'GET',
    path: '/directions',
    api: true,
    credentials: 'key',
    query: {
      origin: latLng,
      destination: latLng,
      waypoints: (random) => Array.from({ length: 1 + Math.floor(random() * 3) }, () => latLng(random)).join('|'),
      mode: oneOf(TRAVEL_MODES),
      alternatives: oneOf(['true', 'false', '0', '1', '2', '3']),
      steps: oneOf(['true', 'false']),
      geometries: oneOf(['polyline', 'polyline6', 'geojson']),
      overview: oneOf(['simplified', 'full', 'false']),
      lang: oneOf(LANGUAGES),
      // Walking and cycling may avoid ferries only: the others are a 400 for them.
      avoid: oneOf(['ferries', 'motorways', 'tolls', 'motorways,tolls', 'ferries,tolls,motorways']),
      elevation: oneOf(['true', 'false']),
    },
  },
  {
    method: 'GET',
    path: '/match',
    api: true,
    credentials: 'key',
    query: {
      // A short drive: consecutive points 30 to 60 m apart, so most traces match; timestamps and
      // radiuses of as many points, so that a request of valid values all through can succeed.
      points: (random) => {
        let [la, lo] = [Number(lat(random)), Number(lon(random))];
        const steps = Array.from({ length: TRACE_POINTS }, () => {
          (la += (random() - 0.5) * 0.0008), (lo += (random() - 0.5) * 0.0008);
          return `${la.toFixed(6)},${lo.toFixed(6)}`;
        });
        return steps.join('|');
      },
      timestamps: () => Array.from({ length: TRACE_POINTS }, (_, i) => 1_700_000_000 + 5 * i).join('|'),
      radiuses: (random) => Array.from({ length: TRACE_POINTS }, () => pick(random, ['', '5', '10', '25.5'])).join('|'),
      waypoints: (random) => pick(random, ['0|1', '0|2', '0|1|2']),
      gaps: oneOf(['split', 'ignore']),
      tidy: oneOf(['true', 'false']),
      elevation: oneOf(['true', 'false']),
      mode: oneOf(TRAVEL_MODES),
      steps: oneOf(['true', 'false']),
      geometries: oneOf(['polyline', 'polyline6', 'geojson']),
      overview: oneOf(['simplified', 'full', 'false']),
      lang: oneOf(LANGUAGES),
    },
  },
  {
    method: 'GET',
    path: '/optimize',
    api: true,
    credentials: 'key',
    query: {
      points: (random) => Array.from({ length: 2 + Math.floor(random() * 5) }, () => latLng(random)).join('|'),
      mode: oneOf(TRAVEL_MODES),
      roundtrip: oneOf(['true', 'false']),
      source: oneOf(['any', 'first']),
      destination: oneOf(['any', 'last']),
      elevation: oneOf(['true', 'false']),
      steps: oneOf(['true', 'false']),
      geometries: oneOf(['polyline', 'polyline6', 'geojson']),
      overview: oneOf(['simplified', 'full', 'false']),
      lang: oneOf(LANGUAGES),
    },
  },
  {
    method: 'GET',
    path: '/matrix',
    api: true,
    credentials: 'key',
    query: {
      sources: (random) => `${latLng(random)}|${latLng(random)}`,
      destinations: latLng,
      mode: oneOf(TRAVEL_MODES),
      annotations: oneOf(['duration', 'distance', 'duration,distance']),
      source_bearings: oneOf(['90,90|', '|0,180', '|']),
      source_radiuses: oneOf(['unlimited|2000', '|']),
      destination_bearings: oneOf(['270,90', '']),
      destination_radiuses: oneOf(['unlimited', '1500']),
      snapping: oneOf(['default', 'any']),
    },
  },
  // OSRM's services: three coordinates for route and table (per-coordinate lists of three), one for nearest.
  {
    method: 'GET',
    path: '/osrm/route/v1/{profile}/{coords}',
    api: true,
    credentials: 'key',
    segments: (random) => ({ profile: pick(random, TRAVEL_MODES), coords: osrmCoords(random, 3) }),
    query: {
      ...osrmPlacement(3),
      alternatives: oneOf(['true', 'false', '2']),
      steps: oneOf(['true', 'false']),
      annotations: osrmAnnotations,
      waypoints: oneOf(['0;2', '0;1;2']),
      continue_straight: oneOf(['default', 'true', 'false']),
      overview: oneOf(['simplified', 'full', 'false']),
    },
  },
  {
    method: 'GET',
    path: '/osrm/match/v1/{profile}/{coords}',
    api: true,
    credentials: 'key',
    segments: (random) => ({ profile: pick(random, TRAVEL_MODES), coords: osrmTrace(random, 3) }),
    query: {
      ...osrmPlacement(3),
      // Match takes radiuses up to 100 m.
      radiuses: oneOf(['10;10;10', ';25;', '5;;50']),
      annotations: osrmAnnotations,
      tidy: oneOf(['true', 'false']),
      overview: oneOf(['simplified', 'full', 'false']),
    },
  },
  {
    method: 'GET',
    path: '/osrm/trip/v1/{profile}/{coords}',
    api: true,
    credentials: 'key',
    segments: (random) => ({ profile: pick(random, TRAVEL_MODES), coords: osrmCoords(random, 3) }),
    query: { ...osrmPlacement(3), annotations: osrmAnnotations, roundtrip: oneOf(['true', 'false']), source: oneOf(['any', 'first']) },
  },
  {
    method: 'GET',
    path: '/osrm/table/v1/{profile}/{coords}',
    api: true,
    credentials: 'key',
    segments: (random) => ({ profile: pick(random, TRAVEL_MODES), coords: osrmCoords(random, 3) }),
    query: {
      ...osrmPlacement(3),
      sources: oneOf(['all', '0;1', '2']),
      destinations: oneOf(['all', '1;2']),
      annotations: oneOf(['duration', 'distance', 'duration,distance']),
    },
  },
  {
    method: 'GET',
    path: '/osrm/nearest/v1/{profile}/{coords}',
    api: true,
    credentials: 'key',
    segments: (random) => ({ profile: pick(random, TRAVEL_MODES), coords: osrmCoords(random, 1) }),
    query: { ...osrmPlacement(1), number: whole(1, 100) },
  },
  {
    method: 'GET',
    path: '/isochrone',
    api: true,
    credentials: 'key',
    query: {
      center: latLng,
      time: (random) => (random() < 0.7 ? whole(1, 30)(random) : '5,10,15'),
      mode: oneOf(TRAVEL_MODES),
      generalize: whole(0, 200),
      polygons: oneOf(['true', 'false']),
    },
  },
  // Usage and the system pages
  { method: 'GET', path: '/usage/current', api: true, credentials: 'key' },
  { method: 'GET', path: '/attribution', credentials: 'none' },
  { method: 'GET', path: '/healthz', credentials: 'none' },
  { method: 'GET', path: '/metrics', credentials: 'none' },
  // Dashboard
  {
    method: 'POST',
    path: '/dashboard/api/signup',
    credentials: 'none',
    body: (world) => ({
      email: email(world),
      password,
      organization: (random) => `Fuzz ${Math.floor(random() * 1e9)}`,
      invitation: () => world.invitations?.token ?? 'no-invitation',
    }),
  },
  {
    method: 'POST',
    path: '/dashboard/api/signin',
    credentials: 'none',
    succeeds: false,
    body: (world) => ({ email: email(world), password }),
  },
  { method: 'POST', path: '/dashboard/api/signout', credentials: 'spare session' },
  { method: 'GET', path: '/dashboard/api/me', credentials: 'session' },
  { method: 'GET', path: '/dashboard/api/keys', credentials: 'session' },
  {
    method: 'POST',
    path: '/dashboard/api/keys',
    credentials: 'session',
    body: () => ({ name: (random) => `key ${Math.floor(random() * 1000)}`, scopes: (random) => SERVICES.filter(() => random() < 0.6) }),
  },
  {
    method: 'POST',
    path: '/dashboard/api/keys/{id}/revoke',
    credentials: 'session',
    segments: (random, world) => ({ id: pick(random, world.keyIds) }),
  },
  {
    method: 'PUT',
    path: '/dashboard/api/billing',
    credentials: 'session',
    body: () => ({ tier: (random) => pick(random, ['free', 'pro', 'enterprise', 'Pro']) }),
  },
  { method: 'GET', path: '/dashboard/api/usage', credentials: 'session' },
  { method: 'GET', path: '/dashboard/api/members', credentials: 'session', invitations: true },
  { method: 'GET', path: '/dashboard/api/invitations', credentials: 'session', invitations: true },
  { method: 'POST', path: '/dashboard/api/invitations', credentials: 'session', body: () => ({}), invitations: true },
  {
    method: 'POST',
    path: '/dashboard/api/invitations/{id}/revoke',
    credentials: 'session',
    invitations: true,
    segments: (_random, world) => ({ id: world.invitations?.revocableId ?? 'no-invitation' }),
  },
  {
    method: 'POST',
    path: '/dashboard/api/invitations/preview',
    credentials: 'none',
    invitations: true,
    body: (world) => ({ invitation: () => world.invitations?.token ?? 'no-invitation' }),
  },
  {
    method: 'PUT',
    path: '/dashboard/api/password',
    credentials: 'session',
    // Never the account's current password: a change would end the fuzz's other sessions.
    succeeds: false,
    body: () => ({ currentPassword: (random) => `not the password ${Math.floor(random() * 1e9)}`, newPassword: password }),
  },
  {
    method: 'POST',
    path: '/dashboard/api/password/reset',
    credentials: 'none',
    succeeds: false,
    body: () => ({ token: () => `wmr_${'A'.repeat(43)}`, password }),
  },
  {
    method: 'POST',
    path: '/dashboard/api/members/{id}/remove',
    credentials: 'session',
    succeeds: false,
    invitations: true,
    segments: (random) => ({ id: `usr_${Math.floor(random() * 1e9)}` }),
    body: () => ({ revokeKeys: (random) => random() < 0.5 }),
  },
  // Operator
  {
    method: 'POST',
    path: '/operator/imports',
    credentials: 'operator',
    succeeds: false,
    body: () => ({
      osm: () => ['/nowhere/monaco.osm.pbf'],
      world: (random) => random() < 0.5,
      wof: () => ['/nowhere/wof'],
      oa: () => ['https://example.com/oa.csv'],
      geonames: (random) => random() < 0.5,
    }),
  },
  { method: 'GET', path: '/operator/imports', credentials: 'operator' },
  { method: 'GET', path: '/operator/imports/{id}', credentials: 'operator', segments: () => ({ id: randomUUID() }), succeeds: false },
];

const routeName = (route: FuzzRoute) => `${route.method} ${route.api ? '/api/v1' : ''}${route.path}`;

// ---------------------------------------------------------------------------------------------
// Requests

/** Junk that may go in a header value (printable ASCII). */
const asciiJunk = (random: Random, length: number) => junk(random, length).replace(/[^\x20-\x7e]/g, '');

/**
 * How much of one request is hostile: either one parameter or path segment alone (the rest valid,
 * so the hostile value reaches deep into the handler), or each one by chance.
 */
interface Mood {
  missing: number;
  hostile: number;
  /** The one parameter or segment made hostile. */
  target?: string;
}

function moodOf(random: Random, route: FuzzRoute, segments: Record<string, string>): Mood {
  const names = [...Object.keys(segments), ...Object.keys(route.query ?? {})];
  if (names.length > 0 && random() < 0.4) return { missing: 0, hostile: 0, target: pick(random, names) };
  return { missing: pick(random, [0, 0.05, 0.3]), hostile: pick(random, [0.02, 0.1, 0.4]) };
}

/** Whether a parameter or segment gets a hostile value, as the mood says. */
const isHostile = (random: Random, mood: Mood, name: string) =>
  mood.target === undefined ? random() < mood.hostile : mood.target === name;

/** A query parameter: valid, hostile (sometimes given twice) or missing, as the mood says. */
function queryPairs(random: Random, mood: Mood, name: string, valid: string): string[] {
  const pair = (value: string) => `${encodeURIComponent(name)}=${value}`;
  if (random() < mood.missing) return [];
  if (!isHostile(random, mood, name)) return [pair(encodeURIComponent(valid))];
  if (random() < 0.15)
    return [pair(encodeURIComponent(valid)), pair(random() < 0.5 ? encodeURIComponent(valid) : hostileUrlValue(random, valid))];
  return [pair(hostileUrlValue(random, valid))];
}

interface Credentials {
  query: string[];
  headers: Record<string, string>;
}

/** The route's credentials: right most of the time, else missing, wrong, malformed or in another place. */
function credentials(random: Random, route: FuzzRoute, world: World): Credentials {
  const right = random() < 0.85;
  switch (route.credentials) {
    case 'key': {
      if (right) return { query: [`key=${world.key}`], headers: {} };
      return pick<Credentials>(random, [
        { query: [], headers: { 'x-api-key': world.key } },
        { query: [], headers: { authorization: `Bearer ${world.key}` } },
        { query: [`key=${world.mapsKey}`], headers: {} },
        { query: [`key=${hostileUrlValue(random, world.key)}`], headers: {} },
        { query: [`key=${world.key}`], headers: { 'x-api-key': asciiJunk(random, 50) } },
        { query: [], headers: { cookie: world.dashboard.cookie } },
        { query: [], headers: {} },
      ]);
    }
    case 'session':
    case 'spare session': {
      const account = route.credentials === 'session' ? world.dashboard : world.spareSessions.pop();
      const session: Record<string, string> = account
        ? { cookie: account.cookie, 'x-csrf-token': account.csrfToken }
        : { cookie: `waymark_session=${'A'.repeat(43)}` };
      if (right) return { query: [], headers: session };
      return pick<Credentials>(random, [
        { query: [], headers: {} },
        { query: [], headers: { ...session, 'x-csrf-token': asciiJunk(random, 43) } },
        { query: [], headers: { cookie: `waymark_session=${asciiJunk(random, 60)}` } },
        { query: [], headers: { ...session, origin: pick(random, ['null', 'http://[', 'https://evil.example', asciiJunk(random, 30)]) } },
        { query: [], headers: { ...session, 'sec-fetch-site': 'cross-site' } },
      ]);
    }
    case 'operator': {
      if (right) return { query: [], headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } };
      const wrong: Record<string, string>[] = [
        {},
        { authorization: `Bearer ${asciiJunk(random, 60)}` },
        { authorization: OPERATOR_TOKEN },
        { 'x-api-key': world.key },
      ];
      return { query: [], headers: pick(random, wrong) };
    }
    default:
      return { query: [], headers: {} };
  }
}

/** Headers some route reads besides credentials (absolute URLs, caching, request ids), with hostile values. */
function extraHeaders(random: Random): Record<string, string> {
  if (random() > 0.1) return {};
  const name = pick(random, [
    'x-forwarded-host',
    'x-forwarded-proto',
    'if-none-match',
    'x-request-id',
    'accept-encoding',
    'accept-language',
    'origin',
  ]);
  return { [name]: pick(random, ['', '*', 'evil.example:99999', 'https', '"x", W/"y"', asciiJunk(random, 80)]) };
}

/** A body the operator API would accept starts a real import (replacing the fuzzed dataset): those get an unknown field. */
function refusedByOperator(body: FuzzBody): FuzzBody {
  try {
    const parsed = parseImportRequest(Buffer.from(body.body));
    return { ...body, body: JSON.stringify({ ...parsed, fuzz: true }) };
  } catch {
    return body;
  }
}

function fuzzRequest(random: Random, route: FuzzRoute, world: World, baseUrl: string): FuzzRequest {
  const valid = route.segments?.(random, world) ?? {};
  const mood = moodOf(random, route, valid);
  let path = route.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    isHostile(random, mood, name) ? hostileUrlValue(random, valid[name]!) : encodeURIComponent(valid[name]!),
  );
  if (route.api) path = `${random() < 0.5 ? '/api/v1' : '/v1'}${path}`;
  if (random() < 0.03)
    path = pick(random, [`${path}/`, `${path}//`, path.toUpperCase(), path.replace(/\//g, '//'), `${path}/..`, `${path};x`]);
  const auth = credentials(random, route, world);
  const query = [...auth.query];
  for (const [name, generate] of Object.entries(route.query ?? {})) query.push(...queryPairs(random, mood, name, generate(random)));
  if (random() < 0.1) query.push(`${hostileUrlValue(random, 'x')}=${hostileUrlValue(random, 'y')}`);
  const method = random() < 0.97 ? route.method : pick(random, ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);
  const headers: Record<string, string> = { ...auth.headers, ...extraHeaders(random) };
  let body: FuzzBody | undefined;
  const hasBody = method !== 'GET' && method !== 'HEAD';
  if (route.body && hasBody) {
    body = hostileJsonBody(
      random,
      Object.fromEntries(Object.entries(route.body(world)).map(([name, generate]) => [name, () => generate(random)])),
    );
    if (route.credentials === 'operator') body = refusedByOperator(body);
  } else if (hasBody && random() < 0.2) {
    body = { body: junk(random, 100), contentType: 'application/json' };
  }
  if (body?.contentType !== undefined) headers['content-type'] = body.contentType;
  const url = `${baseUrl}${path}${query.length > 0 ? `?${query.join('&')}` : ''}`;
  return { method, url, headers, ...(body === undefined ? {} : { body: body.body }), chunked: body !== undefined && random() < 0.1 };
}

/** The fetch options of a request; a chunked body is streamed in two pieces. */
function requestInit({ method, headers, body, chunked }: FuzzRequest): RequestInit & { duplex?: 'half' } {
  if (body === undefined || !chunked) return { method, headers, body };
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes.subarray(0, bytes.length >> 1));
      controller.enqueue(bytes.subarray(bytes.length >> 1));
      controller.close();
    },
  });
  return { method, headers, body: stream, duplex: 'half' };
}

/** What is wrong with an answer: a 5xx, or an error body (HEAD answers have none) that is not the uniform one. */
function fault(request: FuzzRequest, answer: Answer): string | null {
  if (answer.status >= 500) return `answered ${answer.status}`;
  if (answer.status >= 400 && request.method !== 'HEAD') return errorBodyFault(answer);
  return null;
}

/** The request line and headers as sent, about (fetch adds a few headers of its own). */
const headBytes = (request: FuzzRequest) =>
  Buffer.byteLength(request.url) +
  Object.entries(request.headers).reduce((sum, [name, value]) => sum + name.length + value.length + 4, 0) +
  200;

const shorten = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text);

function describe(number: number, route: FuzzRoute, request: FuzzRequest, outcome: string): string {
  const { method, url, headers, body, chunked } = request;
  const shownBody =
    body === undefined
      ? ''
      : ` body ${shorten(typeof body === 'string' ? JSON.stringify(body) : `bytes ${Buffer.from(body).toString('hex')}`, 300)}`;
  const sent = `${method} ${shorten(url, 400)} headers ${JSON.stringify(headers)}${shownBody}${chunked ? ' (chunked)' : ''}`;
  return `#${number} ${routeName(route)}: ${sent} → ${outcome}`;
}

// ---------------------------------------------------------------------------------------------
// The world: a Monaco dataset, a server with the operator API, and the accounts

async function makeWorld(t: ExecutionContext): Promise<{ server: TestServer; world: World }> {
  const dataDir = tempDataDir(t);
  await runImport({ dataDir, osm: [MONACO], wof: [WOF_MONACO], dem: [MONACO_DEM], world: false }, () => {});
  // The server reads its operator API settings from the environment.
  process.env.WAYMARK_OPERATOR_TOKEN = OPERATOR_TOKEN;
  // Loopback is a trusted proxy, so the hostile X-Forwarded-Host and -Proto values reach their readers.
  const server = await serve(t, { dataDir, trustedProxies: CidrSet.parse(['127.0.0.1', '::1']) });
  const api = await customer(server);
  await server.store.setTier(api.account.orgId, 'enterprise');
  const mapsKey = (await server.createKey(api.account, { name: 'maps only', scopes: ['maps'] })).value;
  const dashboard = await server.signUp();
  const keyIds: string[] = [];
  for (let i = 0; i < 5; i++) keyIds.push((await server.createKey(dashboard, { name: `revocable ${i}` })).id);
  // One after another: the sign-in throttle counts each attempt as a failure until it proves right,
  // so more than 5 parallel sign-ins of one account are refused, right password or not.
  const spareSessions: Account[] = [];
  for (let i = 0; i < SPARE_SESSIONS; i++) {
    const signIn = await call(`${server.url}/dashboard/api/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: dashboard.email, password: PASSWORD }),
    });
    spareSessions.push({ ...dashboard, cookie: signIn.headers.get('set-cookie')!.split(';')[0]!, csrfToken: signIn.body.csrfToken });
  }
  const invite = async () => {
    const res = await server.dashboard(dashboard, 'POST', '/invitations', {});
    return res.status === 201 ? ((await res.json()) as { invitation: { id: string }; token: string }) : null;
  };
  const [revocable, accepted] = [await invite(), await invite()];
  const invitations = revocable && accepted && { revocableId: revocable.invitation.id, token: accepted.token };
  return { server, world: { key: api.key.value, mapsKey, dashboard, spareSessions, keyIds, invitations } };
}

dataTest(
  `fuzz: ${REQUESTS} generated requests over every route and parameter, never a 5xx, every error the uniform body`,
  [MONACO, WOF_MONACO, MONACO_DEM],
  async (t) => {
    // Minutes on a loaded machine, with no assertion before the end: past AVA's inactivity timeout.
    t.timeout(3 * WAIT_CEILING_MS);
    const { server, world } = await makeWorld(t);
    const statuses = new Map<string, Map<number, number>>();
    const failures: string[] = [];
    let dropped = 0;
    await inParallel(REQUESTS, IN_FLIGHT, async (number) => {
      const random = seededRandom((SEED + Math.imul(number, 0x9e3779b9)) >>> 0);
      const route = ROUTES[number % ROUTES.length]!;
      const request = fuzzRequest(random, route, world, server.url);
      let answer: Answer;
      try {
        answer = await call(request.url, requestInit(request));
      } catch (error) {
        if (headBytes(request) > UWS_ONE_READ_HEAD_BYTES) dropped++;
        else failures.push(describe(number, route, request, `no answer: ${(error as Error).cause ?? error}`));
        return;
      }
      const byStatus = statuses.get(routeName(route)) ?? new Map<number, number>();
      byStatus.set(answer.status, (byStatus.get(answer.status) ?? 0) + 1);
      statuses.set(routeName(route), byStatus);
      const problem = fault(request, answer);
      if (problem !== null) failures.push(describe(number, route, request, `${answer.status} ${shorten(answer.text, 300)}: ${problem}`));
    });
    t.log(`${dropped} requests with a head over ${UWS_ONE_READ_HEAD_BYTES} bytes got no answer`);
    t.log(Object.fromEntries([...statuses].map(([name, counts]) => [name, Object.fromEntries([...counts].sort(([a], [b]) => a - b))])));
    t.deepEqual(failures.slice(0, 30), [], `${failures.length} of ${REQUESTS} requests failed (FUZZ_SEED=${SEED}; the first are shown)`);
    // The generated requests reach the handlers: every route served answered some of them with a success.
    const expected = ROUTES.filter((route) => route.succeeds !== false && (world.invitations !== null || !route.invitations));
    const neverSucceeded = expected.filter((route) => ![...(statuses.get(routeName(route))?.keys() ?? [])].some((status) => status < 400));
    t.deepEqual(neverSucceeded.map(routeName), []);
    t.is((await call(`${server.url}/healthz`)).status, 200);
  },
);

// ---------------------------------------------------------------------------------------------
// Request lines, header counts and protocol versions, as raw bytes

const RAW_REQUESTS = Number(process.env.FUZZ_RAW_REQUESTS ?? 400);
/**
 * uWebSockets.js 20.30 closes, without an answer, a connection whose request it cannot parse (any
 * version but HTTP/1.1, more than 48 header fields, no Host) only at its idle timeout (10 s,
 * checked every 4 s): they are sent many at a time, and the guard is well past that.
 */
const RAW_IN_FLIGHT = 128;
const RAW_GUARD_MS = 30_000;
const MOST_UWS_FIELDS = 48;

const VALID_METHODS = ['GET', 'HEAD', 'OPTIONS', 'POST', 'DELETE'];
const HOSTILE_METHODS = ['get', 'G ET', 'GE\0T', 'CONNECT', 'TRACE', 'PRI', 'BREW', '', 'GET'.repeat(100), '\u00c9T', 'GET\t'];
const VALID_TARGETS = [
  '/healthz',
  '/api/v1/test/maps',
  '/v1/usage/current',
  '/dashboard/api/me',
  '/attribution',
  '/nowhere',
  '/metrics?x=1',
];
const HOSTILE_TARGETS = [
  '*',
  'http://127.0.0.1/healthz',
  '127.0.0.1:80',
  '',
  '//',
  '/a b',
  '/%00',
  '/\0',
  '/\u00e9',
  '/\x7f',
  `/${'a'.repeat(9000)}`,
  '/?\r',
  'healthz',
  '/..',
];
const VALID_VERSION = 'HTTP/1.1';
const HOSTILE_VERSIONS = [
  'HTTP/1.0',
  'HTTP/0.9',
  'HTTP/2.0',
  'HTTP/2',
  'HTTP/1.2',
  'HTTP/9.9',
  'http/1.1',
  'HTTP/1.1 ',
  'HTTP/',
  'HTTX/1.1',
  'HTTP/1.10',
  '',
];

interface RawFuzzRequest {
  bytes: Buffer;
  /** An HTTP/1.1 request uWS can parse: it must be answered. */
  wellFormed: boolean;
}

/** A field line: some header with junk ASCII in its value. */
const fieldLine = (random: Random, i: number) =>
  `${pick(random, ['X-Fuzz', 'Accept', 'User-Agent', 'X-Forwarded-For', 'Cookie'])}-${i}: ${asciiJunk(random, 40)}`;
/** Field lines no parser should take: no colon, a space before it, control characters, a NUL. */
const MALFORMED_FIELDS = ['X-No-Colon', 'X-Space : v', 'X-Control: a\x01b', 'X-Nul: a\0b', ' X-Folded: v', 'X-Ctl\x7f: v', ': no name'];

function rawFuzzRequest(random: Random): RawFuzzRequest {
  const validMethod = random() < 0.7;
  const validTarget = random() < 0.7;
  const validVersion = random() < 0.6;
  const method = validMethod ? pick(random, VALID_METHODS) : pick(random, HOSTILE_METHODS);
  const target = validTarget ? pick(random, VALID_TARGETS) : pick(random, HOSTILE_TARGETS);
  const version = validVersion ? VALID_VERSION : pick(random, HOSTILE_VERSIONS);
  const eol = random() < 0.95 ? '\r\n' : '\n';
  const count = Math.floor(random() * 101);
  // Host first and Connection: close last, most of the time, so a well-formed request is answered at once.
  const lines: string[] = [];
  let host = false;
  for (let i = 0; i < count; i++) {
    if (i === 0 && random() < 0.9) {
      lines.push('Host: 127.0.0.1');
      host = true;
    } else if (i === count - 1 && random() < 0.9) lines.push('Connection: close');
    else lines.push(fieldLine(random, i));
  }
  // One malformed field line, sometimes.
  const valid = !(count > 1 && random() < 0.15);
  if (!valid) lines.splice(1 + Math.floor(random() * (count - 1)), 0, pick(random, MALFORMED_FIELDS));
  const requestLine = version === '' ? `${method} ${target}` : `${method} ${target} ${version}`;
  const bytes = Buffer.from([requestLine, ...lines, '', ''].join(eol), 'utf8');
  const wellFormed = validMethod && validTarget && validVersion && eol === '\r\n' && valid && host && count <= MOST_UWS_FIELDS;
  return { bytes, wellFormed };
}

/** Writes the bytes and reads until the server closes; the answer's status, or null when it closed without one. Rejects at the guard. */
function rawExchangeStatus(port: number, bytes: Buffer): Promise<{ status: number | null; head: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const guard = setTimeout(() => {
      socket.destroy();
      reject(new Error(`neither an answer nor a close in ${RAW_GUARD_MS} ms`));
    }, RAW_GUARD_MS);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      clearTimeout(guard);
      const text = Buffer.concat(chunks).toString('latin1');
      const status = /^HTTP\/1\.[01] (\d{3}) /.exec(text);
      resolve({ status: status ? Number(status[1]) : null, head: text.slice(0, 200) });
    });
    socket.write(bytes);
  });
}

test(`fuzz: ${RAW_REQUESTS} raw requests with random request lines, 0 to 100 header fields and protocol versions, never a 5xx or silence`, async (t) => {
  const server = await serve(t);
  const failures: string[] = [];
  const outcomes = new Map<string, number>();
  await inParallel(RAW_REQUESTS, RAW_IN_FLIGHT, async (number) => {
    const random = seededRandom((SEED + 0x5eed + Math.imul(number, 0x9e3779b9)) >>> 0);
    const request = rawFuzzRequest(random);
    const sent = shorten(JSON.stringify(request.bytes.toString('utf8')), 300);
    try {
      const { status, head } = await rawExchangeStatus(server.port, request.bytes);
      const outcome = status === null ? (head === '' ? 'closed' : 'not HTTP') : String(status);
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      if (status === null && head !== '') failures.push(`#${number} ${sent} → not an HTTP answer: ${JSON.stringify(head)}`);
      else if (status !== null && status >= 500) failures.push(`#${number} ${sent} → ${status}`);
      else if (status === null && request.wellFormed) failures.push(`#${number} ${sent} → closed without an answer`);
    } catch (error) {
      failures.push(`#${number} ${sent} → ${(error as Error).message}`);
    }
  });
  t.log(Object.fromEntries(outcomes));
  t.deepEqual(
    failures.slice(0, 30),
    [],
    `${failures.length} of ${RAW_REQUESTS} raw requests failed (FUZZ_SEED=${SEED}; the first are shown)`,
  );
  t.is((await call(`${server.url}/healthz`)).status, 200);
});
