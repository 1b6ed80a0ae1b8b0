/**
 * Child script of the geocoding benchmark: builds a geocoder index alone (no tiles, glyphs nor
 * sprites, unlike `waymark import`) and prints its build time and stats as one JSON line.
 *
 *   node dist/bench/geocoding/build-index.js --out FILE [--osm FILE]... [--wof DIR]... [--oa FILE]... [--geonames]
 */
import { parseArgs } from 'node:util';
import { buildGeocoderIndex } from '../../data-pipeline/geocoding/index/build.js';

const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    osm: { type: 'string', multiple: true, default: [] },
    wof: { type: 'string', multiple: true, default: [] },
    oa: { type: 'string', multiple: true, default: [] },
    geonames: { type: 'boolean', default: false },
  },
});
if (!values.out) throw new Error('--out FILE is required');

const started = process.hrtime.bigint();
const stats = await buildGeocoderIndex(
  { osmFiles: values.osm, wofDirs: values.wof, oaFiles: values.oa, geonames: values.geonames },
  values.out,
  () => undefined,
);
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
console.log(JSON.stringify({ seconds, stats }));
