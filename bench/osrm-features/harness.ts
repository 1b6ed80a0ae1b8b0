/**
 * OSRM v6.0.0's acceptance suite (its cucumber features, read from ../shared/reference at run time)
 * run against an engine: each supported scenario's map is written as OSM XML and loaded by the
 * engine for the scenario's profile, and each row of its route tables is asked of it with the
 * request OSRM's harness sends osrm-routed (steps=true, alternatives=false, the query options,
 * bearings, approaches). The engine is Waymark (waymarkEngine: the graph built with Waymark's own
 * pipeline, readRoadNetworks and writeRoutingGraph, car → driving, bicycle → cycling, foot →
 * walking, asked of its OSRM route service: the request checks of src/routing/osrm/ and the
 * /directions answer) or OSRM itself (osrm-engine.ts), which shows the harness right. The
 * `route`, `turns`, `modes`, `time` and `distance` columns are computed and compared as OSRM's
 * support/route.js and support/shared_steps.js do (FuzzyMatch: `+-`, `~%`, `/regex/`), the same
 * code for both engines. See docs/ROUTING.md, "OSRM acceptance suite".
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';
import type { TravelMode } from '../../core/routing/network.js';
import { writeRoutingGraph } from '../../data-pipeline/routing/graph/write.js';
import { readRoadNetworks } from '../../data-pipeline/routing/osm-network.js';
import type { Request } from '../../src/http/request.js';
import { answerDirections } from '../../workers/routing/answer/directions.js';
import { loadRoutingGraph, openRoutingGraph, type RoutingGraph } from '../../core/routing/graph-file.js';
import { osrmRouteRequest } from '../../src/routing/osrm/requests.js';
import { type Feature, parseFeature } from './gherkin.js';
import { decimal, type OsrmProfile, planScenario, type ScenarioPlan } from './scenario.js';

/** The package root (this file runs from dist/bench/osrm-features/). */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** OSRM's features folder beside the project: ../shared/reference/osrm-v6.0.0/features. */
export const FEATURES_DIR = resolve(ROOT, '..', 'shared', 'reference', 'osrm-v6.0.0', 'features');
/** The feature folders of the suite. */
export const FEATURE_DIRS = ['car', 'bicycle', 'foot'] as const;

export const MODE_OF: Record<OsrmProfile, TravelMode> = { car: 'driving', bicycle: 'cycling', foot: 'walking' };

/** The columns compared. */
export const COLUMNS = ['route', 'turns', 'modes', 'time', 'distance'] as const;
export type Column = (typeof COLUMNS)[number];

/** OSRM's FuzzyMatch.match (features/support/data_classes.js) for the columns compared here. */
export function fuzzyMatch(got: string | undefined, want: string): boolean {
  if (want === '' && (got === '' || got === undefined)) return true;
  if (got === want) return true;
  const gotText = got ?? '';
  const inRange = (margin: number, value: string, target: string) => {
    const from = Number.parseFloat(target) - margin;
    const to = Number.parseFloat(target) + margin;
    return Number.parseFloat(value) >= from && Number.parseFloat(value) <= to;
  };
  const matchPercent = /(.*)\s+~(.+)%$/.exec(want);
  const matchAbs = /(.*)\s+\+-(.+)$/.exec(want);
  const matchRe = /^\/(.*)\/$/.exec(want);
  const matchRangeNumbers = /\d+\+-\d+/.exec(want);
  if (matchPercent) {
    const target = Number.parseFloat(matchPercent[1]!);
    if (target === 0) return true;
    return 100 * Math.abs(1 - Number.parseFloat(gotText) / target) < Number.parseFloat(matchPercent[2]!);
  }
  if (matchAbs) return inRange(Number.parseFloat(matchAbs[2]!), gotText, matchAbs[1]!);
  if (matchRe) return new RegExp(matchRe[1]!).test(gotText);
  if (matchRangeNumbers) {
    const [target, margin] = want.split('+-');
    return inRange(Number.parseFloat(margin!.trim()), gotText, String(Number.parseFloat(target!.trim())));
  }
  return false;
}

export interface OsrmStep {
  name: string;
  mode: string;
  duration: number;
  distance: number;
  maneuver: { type: string; modifier?: string; exit?: number };
  rotary_name?: string;
}
export interface OsrmRoute {
  distance: number;
  duration: number;
  legs: { steps: OsrmStep[] }[];
}

/** OSRM's turnList (support/route.js). */
function turnOf(step: OsrmStep): string {
  const { type, modifier, exit } = step.maneuver;
  switch (type) {
    case 'depart':
    case 'arrive':
      return type;
    case 'roundabout':
      return `roundabout-exit-${exit}`;
    case 'rotary':
      return step.rotary_name !== undefined ? `${step.rotary_name}-exit-${exit}` : `rotary-exit-${exit}`;
    case 'roundabout turn':
      return `${type} ${modifier} exit-${exit}`;
    default:
      return `${type} ${modifier}`;
  }
}

/** The columns of a route as OSRM's harness computes them (shared_steps.js), '' for each when there is none. */
export function columnsOf(route: OsrmRoute | undefined, row: Record<string, string>): Record<Column, string> {
  if (route === undefined) return { route: '', turns: '', modes: '', time: '', distance: '' };
  const steps = route.legs.flatMap((leg) => leg.steps);
  return {
    route: steps
      .map((s) => s.name)
      .join(',')
      .trim(),
    turns: steps.map(turnOf).join(','),
    modes: steps.map((s) => s.mode).join(','),
    time: format('%ds', route.duration),
    distance: (row.distance ?? '').length > 0 ? format('%dm', route.distance) : '',
  };
}

export interface RowResult {
  /** The route table's line in the feature file. */
  line: number;
  waypoints: string;
  /** The row's columns among COLUMNS, as expected and as the engine answered. */
  expected: Partial<Record<Column, string>>;
  got: Partial<Record<Column, string>>;
  met: Partial<Record<Column, boolean>>;
  /** Why the engine refused the request (an option Waymark lacks), when it did: the row's columns are misses. */
  refused?: string;
}

export interface ScenarioResult {
  file: string;
  line: number;
  name: string;
  profile: OsrmProfile;
  rows: RowResult[];
  /** A build that failed: every row a miss. */
  error?: string;
  /** The scenario sets `the query options` (issue 24 counted the suite without these). */
  queryOptions: boolean;
}

/** One row's request as OSRM's harness builds it (route.js requestRoute, http.js paramsToString). */
export interface RouteRequest {
  profile: OsrmProfile;
  /** `lon,lat;lon,lat…`, each number as OSRM's harness writes it (ensureDecimal). */
  coords: string;
  /** The query, in OSRM's harness's order: steps, alternatives, the query options, the row's params, bearings, approaches. */
  params: Record<string, string>;
}

/** What an engine answers for one row: OSRM's first route, none (no route, an error answer), or a refusal. */
export interface RouteAnswer {
  route?: OsrmRoute;
  refused?: string;
}

/** A map state loaded by an engine, answering the rows asked on it. */
export interface LoadedMap {
  route(request: RouteRequest): Promise<RouteAnswer>;
  close(): Promise<void>;
}

/**
 * What turns (map, request) into an OSRM route answer: Waymark (its own pipeline and route
 * service, in process) or OSRM itself (osrm-engine.ts). Everything else, the reading of the
 * features and the comparison of the columns, is the same for both.
 */
export interface RouteEngine {
  /** The engine's name in reports: "Waymark", "OSRM". */
  readonly name: string;
  /** What answers, in a sentence for the report. */
  readonly description: string;
  /** Builds one map state (OSM XML) for a profile; throws when the build fails. */
  load(xml: string, profile: OsrmProfile): Promise<LoadedMap>;
}

export interface HarnessOptions {
  /** Called on each OSM XML before it is built (tests use it to break a map on purpose). */
  editOsm?: (xml: string) => string;
  /** The engine asked; Waymark's when not given. */
  engine?: RouteEngine;
}

/** Builds the graph of one mode from OSM XML with Waymark's own pipeline. */
async function buildGraph(xml: string, mode: TravelMode): Promise<RoutingGraph> {
  const dir = mkdtempSync(join(tmpdir(), 'waymark-osrm-features-'));
  try {
    const osm = join(dir, 'map.osm');
    writeFileSync(osm, xml);
    const networks = await readRoadNetworks([osm], () => {});
    const file = join(dir, `${mode}.graph`);
    writeRoutingGraph(networks[mode], file);
    return openRoutingGraph(loadRoutingGraph(file).shared);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Waymark: the graph built with its own pipeline, each row asked of its OSRM route service (the request checks of src/routing/osrm/ and the /directions answer). */
export const waymarkEngine: RouteEngine = {
  name: 'Waymark',
  description: "Waymark's graph built with its own pipeline, each row asked of its OSRM route service",
  async load(xml, profile) {
    const graph = await buildGraph(xml, MODE_OF[profile]);
    return {
      async route({ profile, coords, params }) {
        let request: ReturnType<typeof osrmRouteRequest>;
        try {
          request = osrmRouteRequest({
            query: new URLSearchParams(params),
            params: { profile: MODE_OF[profile], coords },
          } as unknown as Request);
        } catch (error) {
          return { refused: (error as Error).message };
        }
        const answer = answerDirections(graph, request.params);
        return answer.ok ? { route: (JSON.parse(answer.body) as { routes: OsrmRoute[] }).routes[0] } : {};
      },
      async close() {},
    };
  },
};

/** One row's request as OSRM's harness builds it for osrm-routed (route.js requestRoute). */
export function routeRequest(
  profile: OsrmProfile,
  positions: [number, number][],
  queryOptions: Record<string, string>,
  row: Record<string, string>,
): RouteRequest {
  const params: Record<string, string> = { steps: 'true', alternatives: 'false', ...queryOptions };
  for (const [key, value] of Object.entries(row)) {
    const match = /^param:(.*)/.exec(key);
    if (match && value === '(nil)') delete params[match[1]!];
    else if (match && value) params[match[1]!] = value;
  }
  if (row.bearings) {
    params.bearings = row.bearings
      .split(' ')
      .filter(Boolean)
      .map((b) => (b.split(',').length === 2 ? b : `${b},10`))
      .join(';');
  }
  if (row.approaches) params.approaches = row.approaches.split(' ').filter(Boolean).join(';');
  const coords = positions.map(([lon, lat]) => `${decimal(lon)},${decimal(lat)}`).join(';');
  return { profile, coords, params };
}

/** The path and query of a request as OSRM's harness sends it (http.js paramsToString: `k=v` joined by `&`, not escaped). */
export function routePath({ profile, coords, params }: RouteRequest): string {
  const query = Object.entries(params)
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  return `/route/v1/${MODE_OF[profile]}/${coords}${query ? `?${query}` : ''}`;
}

/** Runs one planned scenario: a build per map state, a route per row. */
export async function runScenario(
  feature: Feature,
  scenario: { name: string; line: number },
  plan: ScenarioPlan,
  options: HarnessOptions = {},
): Promise<ScenarioResult> {
  const engine = options.engine ?? waymarkEngine;
  const result: ScenarioResult = {
    file: feature.file,
    line: scenario.line,
    name: scenario.name,
    profile: plan.profile,
    rows: [],
    queryOptions: plan.routings.some((r) => Object.keys(r.queryOptions).length > 0),
  };
  const maps = new Map<string, LoadedMap | Error>();
  try {
    for (const routing of plan.routings) {
      const xml = options.editOsm ? options.editOsm(routing.osm) : routing.osm;
      const key = `${routing.profile}\n${xml}`;
      let map = maps.get(key);
      if (map === undefined) {
        try {
          map = await engine.load(xml, routing.profile);
        } catch (error) {
          map = error as Error;
        }
        maps.set(key, map);
      }
      const { headers } = routing.table;
      const columns = COLUMNS.filter((column) => headers.includes(column));
      for (const row of routing.table.rows) {
        const names = row.from && row.to ? [row.from, row.to] : row.waypoints ? row.waypoints.split(',').map((n) => n.trim()) : [];
        const expected: Partial<Record<Column, string>> = {};
        for (const column of columns) expected[column] = row[column] ?? '';
        const rowResult: RowResult = { line: routing.table.line, waypoints: names.join(','), expected, got: {}, met: {} };
        result.rows.push(rowResult);
        const positions = names.map((name) => routing.locations.get(name));
        let answer: RouteAnswer;
        if (map instanceof Error) answer = { refused: `build failed: ${map.message}` };
        else if (names.length < 2 || positions.some((p) => p === undefined)) answer = { refused: `no waypoints (${names.join(',')})` };
        else answer = await map.route(routeRequest(routing.profile, positions as [number, number][], routing.queryOptions, row));
        if (map instanceof Error) result.error = map.message;
        const got = columnsOf(answer.route, row);
        if (answer.refused !== undefined) rowResult.refused = answer.refused;
        for (const column of columns) {
          rowResult.got[column] = got[column];
          rowResult.met[column] = answer.refused === undefined && fuzzyMatch(got[column], expected[column]!);
        }
      }
    }
  } finally {
    for (const map of maps.values()) if (!(map instanceof Error)) await map.close();
  }
  return result;
}

export interface FeatureRun {
  file: string;
  scenarios: ScenarioResult[];
  skipped: { line: number; name: string; reason: string }[];
}

/** Reads a feature file of OSRM's suite; `file` is relative to FEATURES_DIR (e.g. `car/names.feature`). */
export function readFeature(file: string, featuresDir = FEATURES_DIR): Feature {
  return parseFeature(file, readFileSync(join(featuresDir, file), 'utf8'));
}

/** Runs every supported scenario of one feature file (or those at `lines`). */
export async function runFeature(feature: Feature, options: HarnessOptions & { lines?: number[] } = {}): Promise<FeatureRun> {
  const run: FeatureRun = { file: feature.file, scenarios: [], skipped: [] };
  for (const scenario of feature.scenarios) {
    if (options.lines && !options.lines.includes(scenario.line)) continue;
    const plan = planScenario(feature, scenario);
    if ('skip' in plan) run.skipped.push({ line: scenario.line, name: scenario.name, reason: plan.skip });
    else run.scenarios.push(await runScenario(feature, scenario, plan, options));
  }
  return run;
}

/** The feature files of the suite, relative to FEATURES_DIR; [] when the folder is absent. */
export function featureFiles(featuresDir = FEATURES_DIR): string[] {
  if (!existsSync(featuresDir)) return [];
  return FEATURE_DIRS.flatMap((dir) =>
    readdirSync(join(featuresDir, dir))
      .filter((name) => name.endsWith('.feature'))
      .sort()
      .map((name) => `${dir}/${name}`),
  );
}

export type Tally = Record<Column, { met: number; total: number }>;

export const emptyTally = (): Tally => Object.fromEntries(COLUMNS.map((c) => [c, { met: 0, total: 0 }])) as Tally;

/** Adds a run's rows to a tally: per column, rows met of the rows that have it. */
export function tallyRows(tally: Tally, rows: readonly RowResult[]): Tally {
  for (const row of rows) {
    for (const column of COLUMNS) {
      if (!(column in row.expected)) continue;
      tally[column].total++;
      if (row.met[column]) tally[column].met++;
    }
  }
  return tally;
}
