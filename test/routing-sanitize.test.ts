import test from 'ava';
import { ApiError } from '../src/http/errors.js';
import { ROUTING_PARAMETERS, sanitizeDirections, sanitizeIsochrone } from '../src/routing/sanitize/endpoints.js';
import { INSTRUCTION_LANGUAGES } from '../src/routing/sanitize/instruction-language.js';
import { sanitizeOptimize } from '../src/routing/sanitize/optimize.js';
import { junk, refusal, seededRandom } from './helpers/http.js';

const q = (raw: string) => new URLSearchParams(raw);
const DEFAULT_RULE = { radius: 2000, bearing: null, anySegment: false, approach: null };
const A_TO_B = 'origin=43.7384,7.4246&destination=43.7311,7.4197';
const CENTER = 'center=43.7384,7.4246&time=10';
const POINTS = 'points=43.7384,7.4246|43.7311,7.4197|43.735,7.42';

test('directions defaults; positions come back as [lon, lat]', (t) => {
  const { params, warnings } = sanitizeDirections(q(A_TO_B));
  t.deepEqual(params, {
    origin: [7.4246, 43.7384],
    destination: [7.4197, 43.7311],
    waypoints: [],
    mode: 'driving',
    alternatives: 0,
    steps: true,
    geometries: 'polyline',
    overview: 'simplified',
    lang: 'en',
    snapRules: [DEFAULT_RULE, DEFAULT_RULE],
    continueStraight: 'default',
    avoid: 0,
    elevation: false,
  } as never);
  t.deepEqual(warnings, []);
});

test('directions echo every given value', (t) => {
  const { params } = sanitizeDirections(
    q(`${A_TO_B}&waypoints=1,2|%2B3.5,-4.&mode=cycling&alternatives=3&steps=false&geometries=geojson&overview=false&lang=de-CH`),
  );
  t.like(params, { mode: 'cycling', alternatives: 3, steps: false, geometries: 'geojson', overview: 'false', lang: 'de' });
  t.deepEqual(params.waypoints, [
    [2, 1],
    [-4, 3.5],
  ]);
  t.is(sanitizeDirections(q(`${A_TO_B}&alternatives=true`)).params.alternatives, 1);
  t.is(sanitizeDirections(q(`${A_TO_B}&alternatives=false`)).params.alternatives, 0);
  t.is(sanitizeDirections(q(`${A_TO_B}&alternatives=0`)).params.alternatives, 0);
  t.deepEqual(sanitizeDirections(q('origin=-90,-180&destination=90,%20180')).params.destination, [180, 90]);
  for (const geometries of ['polyline', 'polyline6', 'geojson']) {
    t.is(sanitizeDirections(q(`${A_TO_B}&geometries=${geometries}`)).params.geometries, geometries as never);
  }
  for (const overview of ['simplified', 'full', 'false']) {
    t.is(sanitizeDirections(q(`${A_TO_B}&overview=${overview}`)).params.overview, overview as never);
  }
});

test('lang is matched to the closest instruction language', (t) => {
  const lang = (tag: string) => sanitizeDirections(q(`${A_TO_B}&lang=${encodeURIComponent(tag)}`)).params.lang;
  t.is(lang('en'), 'en');
  t.is(lang('DE-at'), 'de');
  t.is(lang('pt'), 'pt-BR');
  t.is(lang('pt-PT'), 'pt-PT');
  t.is(lang('zh-CN'), 'zh-Hans');
  t.is(lang('es-ES'), 'es-ES');
  t.is(lang('es-MX'), 'es');
  for (const code of INSTRUCTION_LANGUAGES) t.is(lang(code), code);
  const message = refusal(() => lang('th'));
  t.regex(message, /invalid parameter 'lang': 'th' is not a language of the instructions; use one of ar, ca, .* zh-Hans/);
  t.regex(
    refusal(() => lang('not a tag')),
    /'lang'/,
  );
  t.regex(
    refusal(() => lang('')),
    /'lang'/,
  );
});

test('every bad directions parameter is a 400 naming it', (t) => {
  const cases: [string, RegExp][] = [
    ['destination=1,2', /missing parameter 'origin'/],
    ['origin=1,2', /missing parameter 'destination'/],
    ['origin=1&destination=1,2', /'origin': '1' is not a position lat,lng/],
    ['origin=1,2,3&destination=1,2', /'origin': '1,2,3' is not a position/],
    ['origin=91,2&destination=1,2', /'origin latitude': it must be between -90 and 90/],
    ['origin=1,181&destination=1,2', /'origin longitude': it must be between -180 and 180/],
    ['origin=1e1,2&destination=1,2', /'origin latitude': '1e1' is not a decimal number/],
    ['origin=1,0x10&destination=1,2', /'origin longitude': '0x10' is not a decimal number/],
    ['origin=NaN,2&destination=1,2', /'origin latitude'/],
    ['origin=1,2&destination=,', /'destination latitude'.*'destination longitude'/],
    [`${A_TO_B}&waypoints=`, /'waypoints\[0\]': '' is not a position/],
    [`${A_TO_B}&waypoints=1,2|1,2|x`, /'waypoints\[2\]': 'x' is not a position/],
    [`${A_TO_B}&waypoints=${Array(24).fill('1,2').join('|')}`, /'waypoints': at most 23 values/],
    [`${A_TO_B}&mode=car`, /'mode': 'car' is not one of driving, walking, cycling/],
    [`${A_TO_B}&mode=Driving`, /'mode'/],
    [`${A_TO_B}&alternatives=4`, /'alternatives': '4' is not true, false or a whole number from 0 to 3/],
    [`${A_TO_B}&alternatives=-1`, /'alternatives'/],
    [`${A_TO_B}&alternatives=yes`, /'alternatives'/],
    [`${A_TO_B}&steps=1`, /'steps': '1' is not true or false/],
    [`${A_TO_B}&geometries=wkt`, /'geometries': 'wkt' is not one of polyline, polyline6, geojson/],
    [`${A_TO_B}&overview=true`, /'overview': 'true' is not one of simplified, full, false/],
    [`${A_TO_B}&origin=1,2`, /'origin': it can only be given once/],
    [`${A_TO_B}&steps=true&steps=true`, /'steps': it can only be given once/],
    [`${A_TO_B}&bearings=90,10`, /'bearings': 1 entries for 2 points; give one per point/],
    [`${A_TO_B}&waypoints=1,2&bearings=90,10|`, /'bearings': 2 entries for 3 points/],
    [`${A_TO_B}&bearings=90|`, /'bearings': '90' is not a bearing and range in whole degrees/],
    [`${A_TO_B}&bearings=361,10|`, /'bearings': '361,10'/],
    [`${A_TO_B}&bearings=90,181|`, /'bearings': '90,181'/],
    [`${A_TO_B}&bearings=-90,10|`, /'bearings'/],
    [`${A_TO_B}&bearings=90.5,10|`, /'bearings'/],
    [`${A_TO_B}&radiuses=5`, /'radiuses': 1 entries for 2 points/],
    [`${A_TO_B}&radiuses=-5|`, /'radiuses': '-5' is not a distance in metres \(a decimal from 0\) or unlimited/],
    [`${A_TO_B}&radiuses=|Infinity`, /'radiuses': 'Infinity'/],
    [`${A_TO_B}&radiuses=1e3|`, /'radiuses'/],
    [`${A_TO_B}&snapping=all`, /'snapping': 'all' is not one of default, any/],
    [`${A_TO_B}&continue_straight=1`, /'continue_straight': '1' is not one of default, true, false/],
  ];
  for (const [query, expected] of cases)
    t.regex(
      refusal(() => sanitizeDirections(q(query))),
      expected,
      query,
    );
  t.is(sanitizeDirections(q(`${A_TO_B}&waypoints=${Array(23).fill('1,2').join('|')}`)).params.waypoints.length, 23);
});

test('bearings, radiuses and snapping: one rule per point, empty entries keep the default', (t) => {
  const { snapRules } = sanitizeDirections(q(`${A_TO_B}&waypoints=1,2&bearings=0,0||360,180&radiuses=|unlimited|12.5&snapping=any`)).params;
  t.deepEqual(snapRules, [
    { radius: 2000, bearing: { value: 0, range: 0 }, anySegment: true, approach: null },
    { radius: Number.POSITIVE_INFINITY, bearing: null, anySegment: true, approach: null },
    { radius: 12.5, bearing: { value: 360, range: 180 }, anySegment: true, approach: null },
  ]);
  t.deepEqual(sanitizeDirections(q(`${A_TO_B}&snapping=default`)).params.snapRules, [DEFAULT_RULE, DEFAULT_RULE]);
});

test('a repeated lang is reported once', (t) => {
  const message = refusal(() => sanitizeDirections(q(`${A_TO_B}&lang=de&lang=fr`)));
  t.is(message.match(/'lang': it can only be given once/g)?.length, 1);
});

test('all errors of one request are reported together', (t) => {
  const message = refusal(() => sanitizeDirections(q('origin=x&mode=boat&steps=maybe')));
  for (const name of ["'origin'", "'destination'", "'mode'", "'steps'"]) t.true(message.includes(name), name);
});

test('isochrone defaults and echo values', (t) => {
  t.deepEqual(sanitizeIsochrone(q(CENTER)).params, {
    center: [7.4246, 43.7384],
    time: [10],
    mode: 'driving',
    generalize: undefined,
    polygons: true,
  } as never);
  t.like(sanitizeIsochrone(q('center=1,2&time=30,%205,60,1&mode=walking&generalize=25.5&polygons=false')).params, {
    time: [1, 5, 30, 60],
    mode: 'walking',
    generalize: 25.5,
    polygons: false,
  });
  t.is(sanitizeIsochrone(q(`${CENTER}&generalize=0`)).params.generalize, 0);
});

test('every bad isochrone parameter is a 400 naming it', (t) => {
  const cases: [string, RegExp][] = [
    ['time=5', /missing parameter 'center'/],
    ['center=1,2', /missing parameter 'time'/],
    ['center=1;2&time=5', /'center': '1;2' is not a position/],
    ['center=1,2&time=0', /'time': it must be between 1 and 60/],
    ['center=1,2&time=61', /'time': it must be between 1 and 60/],
    ['center=1,2&time=2.5', /'time': '2.5' is not a whole number/],
    ['center=1,2&time=', /'time': '' is not a whole number/],
    ['center=1,2&time=1,2,3,4,5', /'time': at most 4 values/],
    ['center=1,2&time=5,10,5', /'time': 5 is given more than once/],
    ['center=1,2&time=5&time=10', /'time': it can only be given once/],
    [`${CENTER}&mode=bus`, /'mode': 'bus' is not one of/],
    [`${CENTER}&generalize=-1`, /'generalize': it must be between 0 and 10000/],
    [`${CENTER}&generalize=abc`, /'generalize': 'abc' is not a decimal number/],
    [`${CENTER}&polygons=no`, /'polygons': 'no' is not true or false/],
  ];
  for (const [query, expected] of cases)
    t.regex(
      refusal(() => sanitizeIsochrone(q(query))),
      expected,
      query,
    );
});

test('optimize defaults and refusals; the trip ends as asked', (t) => {
  const params = sanitizeOptimize(q(POINTS));
  t.deepEqual(params, {
    points: [
      [7.4246, 43.7384],
      [7.4197, 43.7311],
      [7.42, 43.735],
    ],
    mode: 'driving',
    ends: { roundtrip: true, fixedStart: false, fixedEnd: false },
    steps: true,
    geometries: 'polyline',
    overview: 'simplified',
    lang: 'en',
    avoid: 0,
    snapRules: [DEFAULT_RULE, DEFAULT_RULE, DEFAULT_RULE],
    elevation: false,
  } as never);
  t.deepEqual(sanitizeOptimize(q(`${POINTS}&roundtrip=false&destination=last`)).ends, {
    roundtrip: false,
    fixedStart: false,
    fixedEnd: true,
  });
  const cases: [string, RegExp][] = [
    ['mode=driving', /missing parameter 'points'/],
    ['points=43.7,7.4', /'points': at least 2 positions/],
    [`points=${Array(101).fill('43.7,7.4').join('|')}`, /'points': at most 100 values/],
    [`${POINTS}&roundtrip=0`, /'roundtrip': '0' is not true or false/],
    [`${POINTS}&source=last&destination=first`, /'source': 'last' is not one of any, first; invalid parameter 'destination'/],
    [`${POINTS}&roundtrip=false`, /a trip that is not a round trip needs source=first or destination=last/],
    [`${POINTS}&bearings=90,10`, /'bearings': 1 entries for 3 points; give one per point \(points\)/],
  ];
  for (const [query, expected] of cases)
    t.regex(
      refusal(() => sanitizeOptimize(q(query))),
      expected,
      query,
    );
});

test('a quoted value is cut short in the message', (t) => {
  const message = refusal(() => sanitizeDirections(q(`${A_TO_B}&mode=${'x'.repeat(5000)}`)));
  t.true(message.length < 300);
});

test('fuzz: junk values are accepted or refused with an ApiError 400, never anything else', (t) => {
  const random = seededRandom(5);
  const names = ROUTING_PARAMETERS;
  let refused = 0;
  for (let round = 0; round < 3000; round++) {
    const query = new URLSearchParams([A_TO_B, CENTER, POINTS][round % 3]);
    for (let n = 0; n < 3; n++) {
      const name = names[Math.floor(random() * names.length)]!;
      const value = junk(random, 40);
      if (random() < 0.5) query.set(name, value);
      else query.append(name, value);
    }
    for (const run of [sanitizeDirections, sanitizeIsochrone, sanitizeOptimize]) {
      try {
        run(query);
      } catch (error) {
        t.true(error instanceof ApiError && error.statusCode === 400, String(error));
        refused++;
      }
    }
  }
  t.true(refused > 3000);
});
