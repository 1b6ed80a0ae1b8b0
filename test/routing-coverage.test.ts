// Routing points against the served dataset's coverage, on real Monaco data: a point far outside
// the extract's bounds is a 400 (code NoSegment) naming the coverage in the parameter's order, and
// a point given in the other order is told the swapped one; OSRM's paths write points lon,lat as
// their URLs do, in these messages and in a NoSegment of a point inside the coverage.
import test from 'ava';
import { existsSync } from 'node:fs';
import { call, errorBodyFault, type Answer } from './helpers/http.js';
import { latLng } from './helpers/routing.js';
import { serveRouting, type ServedRouting } from './helpers/routing-server.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';
import type { LonLat } from '../core/geo/types.js';

const MONACO = sharedFile('osm', 'monaco.osm.pbf');
const FILES = [MONACO];
// The extract's bounds: Monaco, its French neighbours and the sea.
const BOUNDS: [number, number, number, number] = [7.349, 43.7148, 7.491, 43.77];
const CASINO: LonLat = [7.4276, 43.7394];
const FONTVIEILLE: LonLat = [7.4154, 43.7302];
const PARIS: LonLat = [2.3522, 48.8566];
const lonLat = ([lon, lat]: LonLat) => `${lon},${lat}`;

let served: ServedRouting | undefined;

test.before(async () => {
  if (!existsSync(MONACO)) return;
  served = await serveRouting('routing-coverage', FILES, ['driving'], BOUNDS);
});

test.after.always(() => served?.close());

const get = (pathAndQuery: string): Promise<Answer> =>
  call(`${served!.server.url}/api/v1/${pathAndQuery}${pathAndQuery.includes('?') ? '&' : '?'}key=${served!.key}`);

/** A 400 with the uniform body, the code NoSegment and the message; `message` must match. */
async function outside(t: any, pathAndQuery: string, message: RegExp): Promise<string> {
  const answer = await get(pathAndQuery);
  t.is(answer.status, 400, `${pathAndQuery}: ${answer.text}`);
  t.is(errorBodyFault(answer), null);
  t.is(answer.body.code, 'NoSegment');
  t.regex(answer.body.message, message, pathAndQuery);
  return answer.body.message;
}

const LAT_LNG_COVERAGE = /outside the data's coverage, lat,lng 43\.7148,7\.349 to 43\.77,7\.491 \(south-west to north-east corner\)/;
const LON_LAT_COVERAGE = /outside the data's coverage, lon,lat 7\.349,43\.7148 to 7\.491,43\.77 \(south-west to north-east corner\)/;

dataTest(
  'a point far outside the coverage is a 400 naming it, lat,lng, on every endpoint; no swap is suggested that is not covered',
  FILES,
  async (t) => {
    const paris = latLng(PARIS);
    const message = await outside(t, `directions?origin=${paris}&destination=${latLng(CASINO)}`, LAT_LNG_COVERAGE);
    t.regex(message, /^no road for driving within 2000 m of origin: 48\.8566,2\.3522 is outside/);
    t.notRegex(message, /did you mean/);
    await outside(
      t,
      `directions?origin=${latLng(CASINO)}&waypoints=${latLng(FONTVIEILLE)}|${paris}&destination=${latLng(CASINO)}`,
      /of waypoints\[1\]: /,
    );
    await outside(t, `isochrone?center=${paris}&time=5`, /of center: .*lat,lng 43\.7148,7\.349/);
    await outside(t, `matrix?sources=${latLng(CASINO)}&destinations=${latLng(CASINO)}|${paris}`, /of destinations\[1\]: /);
    await outside(t, `optimize?points=${latLng(CASINO)}|${paris}|${latLng(FONTVIEILLE)}`, /of points\[1\]: /);
    await outside(t, `match?points=${paris}|${latLng(CASINO)}`, /of points\[0\]: /);
    // Within the radius of the box the snapping decides: a point 1.6 km off the extract's south edge, out at sea.
    const near = await get(`directions?origin=43.7,7.45&destination=${latLng(CASINO)}`);
    t.is(near.status, 422, near.text);
    // An unlimited radius is never refused for the coverage.
    t.not((await get(`directions?origin=${paris}&destination=${latLng(CASINO)}&radiuses=unlimited|`)).status, 400);
  },
);

dataTest('a point in the other order is told the swapped one, in the order of its parameter', FILES, async (t) => {
  const swapped = `${CASINO[0]},${CASINO[1]}`; // lng,lat where lat,lng belongs
  const message = await outside(t, `directions?origin=${latLng(FONTVIEILLE)}&destination=${swapped}`, LAT_LNG_COVERAGE);
  t.regex(message, /of destination: 7\.4276,43\.7394 is outside .*; did you mean 43\.7394,7\.4276\? positions here are latitude first$/);
  // OSRM's path writes lon,lat: a lat,lng there is told the lon,lat, and the coverage is lon,lat.
  const osrm = await outside(t, `osrm/route/v1/driving/${lonLat(FONTVIEILLE)};${CASINO[1]},${CASINO[0]}`, LON_LAT_COVERAGE);
  t.regex(osrm, /of destination: 43\.7394,7\.4276 is outside .*; did you mean 7\.4276,43\.7394\? positions here are longitude first$/);
  await outside(t, `osrm/nearest/v1/driving/${CASINO[1]},${CASINO[0]}`, /of the coordinate: .*did you mean 7\.4276,43\.7394\?/);
  await outside(
    t,
    `osrm/table/v1/driving/${lonLat(CASINO)};${CASINO[1]},${CASINO[0]}`,
    /of sources\[1\]: .*did you mean 7\.4276,43\.7394\?/,
  );
  await outside(t, `osrm/trip/v1/driving/${lonLat(CASINO)};${CASINO[1]},${CASINO[0]}`, /of points\[1\]: .*did you mean/);
});

dataTest("OSRM's NoSegment inside the coverage echoes the point lon,lat, as its URL; /directions lat,lng", FILES, async (t) => {
  const osrm = await get(`osrm/route/v1/driving/${lonLat(CASINO)};${lonLat(FONTVIEILLE)}?radiuses=0;`);
  t.is(osrm.status, 400, osrm.text);
  t.is(osrm.body.code, 'NoSegment');
  t.regex(osrm.body.message, /^no road for driving within 0 m of origin \(7\.4276,43\.7394\)$/);
  const table = await get(`osrm/table/v1/driving/${lonLat(CASINO)};${lonLat(FONTVIEILLE)}?radiuses=;0`);
  t.regex(table.body.message, /of sources\[1\] \(7\.4154,43\.7302\)$/);
  const nearest = await get(`osrm/nearest/v1/driving/${lonLat(CASINO)}?radiuses=0`);
  t.regex(nearest.body.message, /of the coordinate \(7\.4276,43\.7394\)$/);
  const directions = await get(`directions?origin=${latLng(CASINO)}&destination=${latLng(FONTVIEILLE)}&radiuses=0|`);
  t.is(directions.status, 422, directions.text);
  t.regex(directions.body.message, /^no road for driving within 0 m of origin \(43\.7394,7\.4276\)$/);
});
