// Map matching (/match and OSRM's /osrm/match/v1) on real OSM extracts, Monaco and Heidelberg in one
// driving graph. Traces made by sampling a known route (the engine's own directions) every 30–60 m
// with 5–15 m of seeded noise are matched back onto it: the matched path covers at least 95 % of
// the route by distance, with and without timestamps. A trace that jumps kilometres is split into
// two matchings; a time gap splits with gaps=split and not with gaps=ignore; tidy and waypoints act
// as OSRM's. Through a real server: /match and the OSRM path answer the same body, bad inputs are
// 400s naming the parameter (OSRM's codes on the OSRM path), unmatchable traces NoSegment/NoMatch,
// a trace costs one routing unit per started 100 points and a refused one nothing, and fuzzed
// parameters never answer a 500.
import test from 'ava';
import { existsSync } from 'node:fs';
import { ApiError } from '../src/http/errors.js';
import { answerMatch } from '../workers/routing/answer/match.js';
import type { RoutingGraph } from '../core/routing/graph-file.js';
import { matchingConfidence } from '../workers/routing/graph/map-matching.js';
import { MATCH_PARAMETERS, MAX_TRACE_POINTS, matchUnits, sanitizeMatch } from '../src/routing/sanitize/match.js';
import { call, errorBodyFault, hostileUrlValue, junk, pick, rateLimit, refusal, seededRandom, type Answer } from './helpers/http.js';
import { decodeGeometry, directionsOn, haversine, latLng, type Parsed } from './helpers/routing.js';
import type { TestServer } from './helpers/server.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';
import { coverage, lineUpTo, noisyTrace } from './helpers/traces.js';
import { serveRouting, type ServedRouting } from './helpers/routing-server.js';
import type { LonLat } from '../core/geo/types.js';

const MONACO = sharedFile('osm', 'monaco.osm.pbf');
const HEIDELBERG = sharedFile('osm', 'heidelberg.osm.pbf');
const FILES = [MONACO, HEIDELBERG];

let server: TestServer;
let served: ServedRouting | undefined;
let key: string;
/** A key of its own for the metering test, which reads the quota left. */
let meteredKey: string;
let graph: RoutingGraph;

test.before(async () => {
  if (!FILES.every(existsSync)) return;
  served = await serveRouting('routing-match', FILES, ['driving'], [7.4, 43.72, 8.8, 49.45]);
  ({ server, key, meteredKey } = served);
  graph = served.graphs.driving!;
});

test.after.always(() => served?.close());

// Known routes: [origin, destination] as [lon, lat], across Heidelberg and Monaco.
const ROUTES: [string, LonLat, LonLat][] = [
  ['Neuenheim to Rohrbach', [8.69, 49.418], [8.688, 49.385]],
  ['Bismarckplatz to Pfaffengrund', [8.6933, 49.4093], [8.64, 49.402]],
  ['Handschuhsheim to the old town', [8.685, 49.427], [8.71, 49.412]],
  ['Fontvieille to Larvotto', [7.4154, 43.7302], [7.4357, 43.7445]],
  ['the port to the casino', [7.4222, 43.7352], [7.4276, 43.7394]],
  // Up the Königstuhl, 3 km south-east of the old town as the crow flies and 6.6 km by road.
  ['up the Königstuhl', [8.7255, 49.3995], [8.78, 49.4]],
];

/** The line of the fastest route between two points, as directions answer it. */
function routeLine(origin: LonLat, destination: LonLat): LonLat[] {
  const answer = directionsOn(
    graph,
    `origin=${latLng(origin)}&destination=${latLng(destination)}&overview=full&geometries=geojson&steps=false`,
  );
  if (!answer.ok) throw new Error(`no route: ${answer.message}`);
  return decodeGeometry(answer.body.routes[0].geometry, 'geojson');
}

/** /match on the graph without HTTP, the query checked as the server checks it. */
function matchOn(query: string): Parsed {
  const answer = answerMatch(graph, sanitizeMatch(new URLSearchParams(query)));
  return answer.ok ? { ok: true, body: JSON.parse(answer.body) } : answer;
}

const pointsOf = (trace: LonLat[]) => trace.map(latLng).join('|');

/** Seconds at 10 m/s along the true positions (a car in town), from a fixed start. */
function timestampsOf(truth: LonLat[], start = 1_700_000_000): number[] {
  let metres = 0;
  return truth.map((point, i) => start + Math.round((metres += i > 0 ? haversine(truth[i - 1]!, point) : 0) / 10));
}

/** The trace of the first (up to 100) noisy samples of a route, the route up to the last of them, and their timestamps. */
function traceOf(line: LonLat[], seed: number) {
  const { truth, trace } = noisyTrace(line, seededRandom(seed));
  const count = Math.min(trace.length, MAX_TRACE_POINTS);
  return { trace: trace.slice(0, count), truth: truth.slice(0, count), route: lineUpTo(line, truth[count - 1]!) };
}

const matchedLines = (body: any): LonLat[][] => body.matchings.map((m: any) => decodeGeometry(m.geometry, 'geojson'));

dataTest('a noisy trace sampled from a known route is matched back onto it: ≥ 95 % of the route by distance', FILES, (t) => {
  for (const [name, origin, destination] of ROUTES) {
    const line = routeLine(origin, destination);
    for (const seed of [1, 2]) {
      const { trace, truth, route } = traceOf(line, seed);
      for (const timed of [false, true]) {
        const timestamps = timed ? `&timestamps=${timestampsOf(truth).join('|')}` : '';
        const answer = matchOn(`points=${pointsOf(trace)}${timestamps}&overview=full&geometries=geojson&steps=false`);
        const where = `${name}, seed ${seed}${timed ? ', timestamps' : ''}`;
        if (!answer.ok) {
          t.fail(`${where}: ${answer.message}`);
          continue;
        }
        const { body } = answer;
        t.is(body.code, 'Ok');
        t.is(body.tracepoints.length, trace.length, where);
        const share = coverage(route, matchedLines(body), 3);
        t.true(share >= 0.95, `${where}: ${trace.length} points cover ${(share * 100).toFixed(1)} % of the route`);
        // One matching, confident, about as long as the route.
        t.is(body.matchings.length, 1, where);
        t.true(body.matchings[0].confidence > 0.5, `${where}: confidence ${body.matchings[0].confidence}`);
        const routeMetres = route.slice(1).reduce((sum, p, i) => sum + haversine(route[i]!, p), 0);
        t.true(Math.abs(body.matchings[0].distance - routeMetres) < 0.1 * routeMetres + 50, `${where}: ${body.matchings[0].distance} m`);
        // Each matched tracepoint a leg end of its matching, its location near the true position.
        body.tracepoints.forEach((point: any, i: number) => {
          if (point === null) return;
          t.is(point.matchings_index, 0);
          t.true(haversine(point.location, truth[i]!) < 30, `${where}: point ${i} matched ${haversine(point.location, truth[i]!)} m away`);
        });
        const matched = body.tracepoints.filter((p: any) => p !== null);
        t.true(matched.length >= 0.8 * trace.length, `${where}: ${matched.length} of ${trace.length} matched`);
        t.is(body.matchings[0].legs.length, matched.length - 1);
        t.deepEqual(
          matched.map((p: any) => p.waypoint_index),
          matched.map((_: unknown, i: number) => i),
        );
      }
    }
  }
});

dataTest('a trace that jumps kilometres is split into two matchings', FILES, (t) => {
  // 40 points from Handschuhsheim towards the old town, then 40 points from the top of the
  // Königstuhl, recorded at the same pace: no road joins the two in so few metres or seconds.
  const first = traceOf(routeLine(ROUTES[2]![1], ROUTES[2]![2]), 3);
  const second = traceOf(routeLine(ROUTES[5]![1], ROUTES[5]![2]), 4);
  const [a, b] = [first.trace.slice(0, 40), second.trace.slice(0, 40)];
  t.true(haversine(a[a.length - 1]!, b[0]!) > 2000);
  const timestamps = [...first.truth.slice(0, 40), ...second.truth.slice(0, 40)].map((_, i) => 1_700_000_000 + 4 * i);
  for (const timed of [false, true]) {
    const query = `points=${pointsOf([...a, ...b])}${timed ? `&timestamps=${timestamps.join('|')}` : ''}&geometries=geojson&overview=full`;
    const answer = matchOn(query);
    if (!answer.ok) return t.fail(answer.message);
    const { body } = answer;
    t.is(body.matchings.length, 2, `timestamps: ${timed}`);
    t.is(body.tracepoints[0].matchings_index, 0);
    t.is(body.tracepoints[79].matchings_index, 1);
    // Each matching covers its own part of the trace, and no leg crosses the jump.
    const [one, two] = matchedLines(body);
    t.true(coverage(lineUpTo(first.route, first.truth[37]!), [one!], 3) > 0.9);
    t.true(coverage(lineUpTo(second.route, second.truth[37]!), [two!], 3) > 0.9);
    t.true(one!.every((p) => haversine(p, a[a.length - 1]!) < haversine(p, b[0]!)));
    t.true(two!.every((p) => haversine(p, b[0]!) < haversine(p, a[a.length - 1]!)));
  }
});

dataTest('gaps: a long pause splits the matching with gaps=split (the default), not with gaps=ignore', FILES, (t) => {
  const { trace, truth } = traceOf(routeLine(ROUTES[2]![1], ROUTES[2]![2]), 5);
  const timestamps = timestampsOf(truth).map((time, i) => (i >= 30 ? time + 3600 : time));
  const query = `points=${pointsOf(trace)}&timestamps=${timestamps.join('|')}&steps=false&overview=false`;
  const split = matchOn(query);
  const ignored = matchOn(`${query}&gaps=ignore`);
  if (!split.ok || !ignored.ok) return t.fail('not matched');
  t.is(split.body.matchings.length, 2);
  t.is(split.body.tracepoints[29].matchings_index, 0);
  t.is(split.body.tracepoints[30].matchings_index, 1);
  t.is(ignored.body.matchings.length, 1);
  t.deepEqual(matchOn(`${query}&gaps=split`), split);
});

dataTest('tidy drops points closer than 15 m; waypoints name the leg ends', FILES, (t) => {
  const { trace } = traceOf(routeLine(ROUTES[3]![1], ROUTES[3]![2]), 6);
  const points = trace.slice(0, 20);
  // Each point recorded three times, a few metres apart (a car waiting at lights).
  const stuttering = points.flatMap((p) => [p, [p[0] + 0.00002, p[1]], [p[0], p[1] + 0.00002]] as LonLat[]);
  const tidy = matchOn(`points=${pointsOf(stuttering)}&tidy=true&steps=false`);
  if (!tidy.ok) return t.fail(tidy.message);
  const kept = tidy.body.tracepoints.map((p: any, i: number) => (p === null ? -1 : i)).filter((i: number) => i >= 0);
  t.true(kept.length <= points.length + 1 && kept.length >= points.length * 0.8, `${kept.length} kept of ${stuttering.length}`);
  t.is(kept[0], 0);
  t.is(kept[kept.length - 1], stuttering.length - 1);

  const waypoints = matchOn(`points=${pointsOf(points)}&waypoints=0|7|19&steps=true`);
  if (!waypoints.ok) return t.fail(waypoints.message);
  const { body } = waypoints;
  t.is(body.matchings.length, 1);
  t.is(body.matchings[0].legs.length, 2);
  t.deepEqual(
    [0, 7, 19].map((i) => body.tracepoints[i].waypoint_index),
    [0, 1, 2],
  );
  for (const i of [3, 8, 18]) if (body.tracepoints[i] !== null) t.is(body.tracepoints[i].waypoint_index, 0);
  // The legs joined at the waypoint: one depart and one arrive per leg.
  for (const leg of body.matchings[0].legs) {
    t.is(leg.steps[0].maneuver.type, 'depart');
    t.is(leg.steps[leg.steps.length - 1].maneuver.type, 'arrive');
    t.is(leg.steps.filter((s: any) => s.maneuver.type === 'depart').length, 1);
  }
  const all = matchOn(`points=${pointsOf(points)}&steps=true`);
  if (!all.ok) return t.fail(all.message);
  t.true(Math.abs(all.body.matchings[0].distance - body.matchings[0].distance) < 1);
});

dataTest('a trace far from any road is NoSegment; one across unconnected networks is NoMatch', FILES, (t) => {
  const sea = matchOn('points=43.70,7.45|43.701,7.451|43.702,7.452');
  t.like(sea, { ok: false, code: 'NoSegment' });
  // Monaco and Heidelberg share the graph but no road: every point alone.
  const apart = matchOn(
    `points=${latLng(ROUTES[3]![1])}|${latLng(ROUTES[0]![1])}|${latLng(ROUTES[3]![2])}|${latLng(ROUTES[0]![2])}&radiuses=100|100|100|100`,
  );
  t.like(apart, { ok: false, code: 'NoMatch' });
});

test("OSRM's confidence: a matched length equal to the trace's is confident, a detour three times as long is not", (t) => {
  t.true(matchingConfidence(1000, 1000) > 0.9);
  t.true(matchingConfidence(1000, 3000) < 0.1);
  t.is(matchingConfidence(0, 100), 0);
  t.is(matchingConfidence(100, 0), 0);
});

test('parameter checks: each bad input is a 400 naming its parameter', (t) => {
  const three = 'points=43.73,7.42|43.731,7.421|43.732,7.422';
  const cases: [string, RegExp][] = [
    ['', /missing parameter 'points'/],
    ['points=43.73,7.42', /'points': a trace needs at least 2 points/],
    [`points=${Array.from({ length: 101 }, () => '43.73,7.42').join('|')}`, /'points': at most 100/],
    ['points=43.73,7.42|91,7', /'points\[1\] latitude'/],
    [`${three}&timestamps=1|2`, /'timestamps': 2 entries for 3 points/],
    [`${three}&timestamps=1|3|2`, /'timestamps': entry 2 is earlier than entry 1/],
    [`${three}&timestamps=1|2|x`, /'timestamps': entry 2 'x'/],
    [`${three}&timestamps=1|2|-3`, /'timestamps': entry 2/],
    [`${three}&timestamps=1|2|99999999999`, /'timestamps': entry 2/],
    [`${three}&radiuses=5|5`, /'radiuses': 2 entries/],
    [`${three}&radiuses=5|0|5`, /'radiuses': entry 1 '0'/],
    [`${three}&radiuses=5|101|5`, /'radiuses': entry 1 '101'/],
    [`${three}&radiuses=5|unlimited|5`, /'radiuses': entry 1 'unlimited'/],
    [`${three}&waypoints=0|1`, /'waypoints': the first and last points must be waypoints/],
    [`${three}&waypoints=0|2|1|2`, /'waypoints': the indexes must increase/],
    [`${three}&waypoints=0|3`, /'waypoints': '3' is not the index/],
    [`${three}&gaps=always`, /'gaps': 'always' is not one of split, ignore/],
    [`${three}&tidy=yes`, /'tidy'/],
    [`${three}&mode=flying`, /'mode'/],
    [`${three}&steps=1`, /'steps'/],
    [`${three}&geometries=wkt`, /'geometries'/],
    [`${three}&overview=some`, /'overview'/],
    [`${three}&lang=xx`, /'lang'/],
    [`${three}&tidy=true&tidy=false`, /'tidy': it can only be given once/],
  ];
  for (const [query, expected] of cases)
    t.regex(
      refusal(() => sanitizeMatch(new URLSearchParams(query))),
      expected,
      query,
    );
  // Equal timestamps are allowed (as OSRM: "same or increasing").
  t.deepEqual(sanitizeMatch(new URLSearchParams(`${three}&timestamps=5|5|6`)).timestamps, [5, 5, 6]);
  t.deepEqual(sanitizeMatch(new URLSearchParams(`${three}&radiuses=5||7.5`)).radiuses, [5, null, 7.5]);
  t.is(matchUnits(2), 1);
  t.is(matchUnits(100), 1);
  t.is(matchUnits(101), 2);
});

test('fuzz: junk values are accepted or refused with an ApiError 400, never anything else', (t) => {
  const random = seededRandom(25);
  let refused = 0;
  for (let round = 0; round < 3000; round++) {
    const query = new URLSearchParams('points=43.73,7.42|43.731,7.421|43.732,7.422&timestamps=1|2|3&radiuses=5|5|5&waypoints=0|2');
    for (let n = 0; n < 3; n++) {
      const name = pick(random, MATCH_PARAMETERS);
      const value = junk(random, 40);
      if (random() < 0.5) query.set(name, value);
      else query.append(name, value);
    }
    try {
      sanitizeMatch(query);
    } catch (error) {
      t.true(error instanceof ApiError && error.statusCode === 400, String(error));
      refused++;
    }
  }
  t.true(refused > 2000);
});

// ---------------------------------------------------------------------------------------------
// Through the server

const get = (pathAndQuery: string, apiKey = key): Promise<Answer> => {
  const joiner = pathAndQuery.includes('?') ? '&' : '?';
  return call(`${server.url}${pathAndQuery}${joiner}key=${apiKey}`);
};
const ok = async (pathAndQuery: string): Promise<any> => {
  const answer = await get(pathAndQuery);
  if (answer.status !== 200) throw new Error(`${pathAndQuery}: ${answer.status} ${answer.text}`);
  return answer.body;
};
const osrmCoords = (trace: LonLat[]) => trace.map(([lon, lat]) => `${lon},${lat}`).join(';');

dataTest('HTTP: the OSRM match service answers what /match answers, under /api/v1 and /v1; annotations as on route', FILES, async (t) => {
  const { trace, truth } = traceOf(routeLine(ROUTES[3]![1], ROUTES[3]![2]), 7);
  const points = trace.slice(0, 30);
  const timestamps = timestampsOf(truth.slice(0, 30));
  const cases: [string, string][] = [
    ['', ''],
    [
      `timestamps=${timestamps.join(';')}&radiuses=${points.map(() => '10').join(';')}&steps=true&geometries=geojson&overview=full`,
      `timestamps=${timestamps.join('|')}&radiuses=${points.map(() => '10').join('|')}&steps=true&geometries=geojson&overview=full`,
    ],
    ['gaps=ignore&tidy=true&waypoints=0;10;29&overview=false&annotations=false', 'gaps=ignore&tidy=true&waypoints=0|10|29&overview=false'],
  ];
  for (const [osrmQuery, matchQuery] of cases) {
    // OSRM's tracepoints carry hints, /match's do not.
    const osrm = await ok(`/api/v1/osrm/match/v1/driving/${osrmCoords(points)}?${osrmQuery}&generate_hints=false`);
    const own = await ok(`/api/v1/match?points=${pointsOf(points)}&${matchQuery}`);
    t.is(osrm.code, 'Ok');
    t.deepEqual(osrm, own, osrmQuery);
    t.is(osrm.tracepoints.length, 30);
    t.true(osrm.matchings[0].confidence > 0);
  }
  t.deepEqual(await ok(`/v1/match?points=${pointsOf(points)}`), await ok(`/api/v1/match?points=${pointsOf(points)}`));
  t.is((await ok(`/api/v1/osrm/match/v1/driving/${osrmCoords(points)}?exclude=motorway,ferry`)).code, 'Ok');
  // Bearings as OSRM: each point's candidates head within its bearing. Along the trace the match is the
  // plain one (within the noise at turns); against it, it is not.
  const headings = points.map((point, i) => {
    const [a, b] = i + 1 < points.length ? [point, points[i + 1]!] : [points[i - 1]!, point];
    const heading = (Math.atan2((b[0] - a[0]) * Math.cos((a[1] * Math.PI) / 180), b[1] - a[1]) * 180) / Math.PI;
    return Math.round((heading + 360) % 360);
  });
  const along = `bearings=${headings.map((h) => `${h},60`).join(';')}&overview=full&geometries=geojson`;
  const against = `bearings=${headings.map((h) => `${(h + 180) % 360},30`).join(';')}&overview=full&geometries=geojson`;
  const plain = await ok(`/api/v1/osrm/match/v1/driving/${osrmCoords(points)}?overview=full&geometries=geojson`);
  const matched = (body: { matchings?: { distance: number }[] } | undefined) =>
    (body?.matchings ?? []).reduce((sum, matching) => sum + matching.distance, 0);
  const alongBody = await ok(`/api/v1/osrm/match/v1/driving/${osrmCoords(points)}?${along}`);
  t.true(Math.abs(matched(alongBody) - matched(plain)) < 0.05 * matched(plain), `${matched(alongBody)} m against ${matched(plain)} m`);
  const reversed = await get(`/api/v1/osrm/match/v1/driving/${osrmCoords(points)}?${against}`);
  t.true(reversed.status !== 200 || Math.abs(matched(reversed.body) - matched(plain)) > 0.05 * matched(plain), reversed.text.slice(0, 300));
  // Annotations as on route: each leg of each matching, one entry per piece of its line, summing to the leg.
  const annotated = await ok(
    `/api/v1/osrm/match/v1/driving/${osrmCoords(points)}?annotations=distance,duration&overview=false&steps=false`,
  );
  for (const leg of annotated.matchings.flatMap((matching: { legs: unknown[] }) => matching.legs)) {
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    t.true(Math.abs(sum(leg.annotation.distance) - leg.distance) < 0.2, `${sum(leg.annotation.distance)} m for ${leg.distance} m`);
    t.true(Math.abs(sum(leg.annotation.duration) - leg.duration) < 0.2, `${sum(leg.annotation.duration)} s for ${leg.duration} s`);
  }
  // skip_waypoints leaves out the tracepoints, and nothing else.
  const { tracepoints, ...rest } = await ok(`/api/v1/osrm/match/v1/driving/${osrmCoords(points)}.json`);
  t.deepEqual(await ok(`/api/v1/osrm/match/v1/driving/${osrmCoords(points)}?skip_waypoints=true`), rest);
  t.is(tracepoints.length, 30);
});

dataTest('HTTP: bad requests are 400s (OSRM codes on the OSRM path); unmatchable traces NoSegment and NoMatch', FILES, async (t) => {
  const points = [ROUTES[3]![1], [7.416, 43.7306] as LonLat, [7.417, 43.731] as LonLat];
  const osrm = `/api/v1/osrm/match/v1/driving/${osrmCoords(points)}`;
  const refusal = async (pathAndQuery: string, status: number, code: string | undefined, named: RegExp) => {
    const answer = await get(pathAndQuery);
    t.is(answer.status, status, `${pathAndQuery}: ${answer.text}`);
    t.is(errorBodyFault(answer), null, pathAndQuery);
    t.is(answer.body?.code, code, `${pathAndQuery}: ${answer.text}`);
    t.regex(answer.body?.message ?? '', named, pathAndQuery);
  };
  const many = Array.from({ length: 101 }, (_, i): LonLat => [7.416 + i * 0.0001, 43.7306]);
  await refusal(`/api/v1/osrm/match/v1/driving/${osrmCoords(many)}`, 400, 'TooBig', /at most 100/);
  await refusal(`/api/v1/osrm/match/v1/driving/7.416,43.7306`, 400, 'InvalidOptions', /at least two/);
  await refusal(`${osrm}?timestamps=1;2`, 400, 'InvalidOptions', /'timestamps': 2 entries for 3/);
  await refusal(`${osrm}?radiuses=5;5`, 400, 'InvalidOptions', /'radiuses'/);
  await refusal(`${osrm}?radiuses=5;500;5`, 400, 'TooBig', /'radiuses'/);
  await refusal(`${osrm}?timestamps=3;2;4`, 400, 'InvalidValue', /'timestamps': entry 1 is earlier/);
  await refusal(`${osrm}?waypoints=0;1`, 400, 'InvalidValue', /'waypoints'/);
  await refusal(`${osrm}?gaps=sometimes`, 400, 'InvalidValue', /'gaps'/);
  await refusal(`${osrm}?annotations=nodes,nodes`, 400, 'InvalidValue', /'annotations'/);
  await refusal(`${osrm}?annotations=speed,speed`, 400, 'InvalidValue', /'annotations'/);
  await refusal(`${osrm}?bearings=0,20`, 400, 'InvalidOptions', /^Number of elements in bearings size 1 does not match coordinate size 3/);
  await refusal(`${osrm}?approaches=curb;left;`, 400, 'InvalidValue', /'approaches'/);
  await refusal(`${osrm}?exclude=highway`, 400, 'InvalidValue', /^Exclude flag combination is not supported/);
  await refusal(`${osrm}?alternatives=true`, 400, 'InvalidQuery', /'alternatives'/);
  await refusal(`${osrm}?tidy=true&tidy=false`, 400, 'InvalidQuery', /'tidy'/);
  await refusal(`/api/v1/osrm/match/v1/flying/${osrmCoords(points)}`, 400, 'InvalidUrl', /'flying'/);
  await refusal(`/api/v1/osrm/match/v1/driving/7.42,43.70;7.421,43.701`, 400, 'NoSegment', /no road/);
  await refusal(
    `/api/v1/osrm/match/v1/driving/${osrmCoords([ROUTES[3]![1], ROUTES[0]![1]])}?radiuses=100;100`,
    400,
    'NoMatch',
    /could not match/,
  );
  const own = `/api/v1/match?points=${pointsOf(points)}`;
  await refusal(`/api/v1/match?points=${pointsOf(many)}`, 400, undefined, /'points': at most 100/);
  await refusal(`${own}&timestamps=3|2|4`, 400, undefined, /'timestamps'/);
  await refusal(`${own}&timestamps=1|2`, 400, undefined, /'timestamps': 2 entries for 3 points/);
  await refusal(`/api/v1/match?points=43.725,7.44|43.726,7.441`, 422, 'NoSegment', /no road/);
  await refusal(
    `/api/v1/match?points=${latLng(ROUTES[3]![1])}|${latLng(ROUTES[0]![1])}&radiuses=100|100`,
    422,
    'NoMatch',
    /could not match/,
  );
  await refusal(`/api/v1/match?points=${pointsOf(points)}&mode=walking`, 503, undefined, /no walking routing graph/);
});

dataTest('HTTP metering: one routing unit per started 100 points, reserved up front; a refused trace costs nothing', FILES, async (t) => {
  const remaining = async (pathAndQuery: string, status = 200): Promise<number> => {
    const answer = await get(pathAndQuery, meteredKey);
    t.is(answer.status, status, answer.text);
    const left = rateLimit(answer.headers).remaining;
    return left === null ? NaN : Number(left);
  };
  const { trace } = traceOf(routeLine(ROUTES[3]![1], ROUTES[3]![2]), 8);
  const start = await remaining(`/api/v1/match?points=${pointsOf(trace)}`);
  const afterOsrm = await remaining(`/api/v1/osrm/match/v1/driving/${osrmCoords(trace)}`);
  t.is(start - afterOsrm, 1);
  // Refused before metering: no rate-limit headers, and nothing spent.
  t.true(Number.isNaN(await remaining(`/api/v1/match?points=${pointsOf(trace)}&timestamps=1`, 400)));
  t.true(Number.isNaN(await remaining(`/api/v1/osrm/match/v1/driving/${osrmCoords(trace)}?radiuses=1`, 400)));
  // Metered, then released: a NoSegment answer.
  const afterNoSegment = await remaining(`/api/v1/match?points=43.725,7.44|43.726,7.441`, 422);
  t.is(afterNoSegment, afterOsrm);
  t.is(afterOsrm - (await remaining(`/api/v1/match?points=${pointsOf(trace.slice(0, 2))}`)), 1);
});

dataTest('HTTP fuzz: hostile parameter values answer a 200 or an error body with a code, never a 500', FILES, async (t) => {
  const random = seededRandom(2525);
  const points: LonLat[] = [ROUTES[3]![1], [7.416, 43.7306], [7.417, 43.731]];
  const valid: Record<string, [string, string]> = {
    timestamps: ['1;2;3', '1|2|3'],
    radiuses: ['5;;10', '5||10'],
    waypoints: ['0;2', '0|2'],
    gaps: ['ignore', 'ignore'],
    tidy: ['true', 'true'],
    steps: ['true', 'true'],
    geometries: ['geojson', 'geojson'],
    overview: ['full', 'full'],
    annotations: ['false', 'false'],
    skip_waypoints: ['true', 'true'],
  };
  for (let i = 0; i < 200; i++) {
    const osrm = random() < 0.5;
    const name = pick(random, Object.keys(valid));
    const [osrmValue, ownValue] = valid[name]!;
    const value = hostileUrlValue(random, osrm ? osrmValue : ownValue);
    const url = osrm
      ? `${server.url}/api/v1/osrm/match/v1/driving/${osrmCoords(points)}?${name}=${value}&key=${key}`
      : `${server.url}/api/v1/match?points=${pointsOf(points)}&${name}=${value}&key=${key}`;
    const answer = await call(url).catch((error: Error) => error);
    if (answer instanceof Error) {
      t.true(url.length > 4096, `#${i} ${url.slice(0, 200)}: ${answer.message}`);
      continue;
    }
    const where = `#${i} ${url.slice(0, 200)}: ${answer.status} ${answer.text.slice(0, 200)}`;
    if (answer.status === 200) {
      t.is(answer.body?.code, 'Ok', where);
      continue;
    }
    t.true([400, 414, 422, 431].includes(answer.status), where);
    if (answer.status === 400 || answer.status === 422) t.is(errorBodyFault(answer), null, where);
    if (osrm && answer.status === 400) t.is(typeof answer.body?.code, 'string', where);
  }
});
