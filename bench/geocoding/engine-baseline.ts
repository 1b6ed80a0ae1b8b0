/**
 * Child script of the geocoding benchmark, the baseline without HTTP: the query set answered
 * in-process on one thread, each query as the endpoint handlers do it (parameters through the
 * endpoint's sanitizer, then the engine's search or reverse) minus the gateway, the JSON reply
 * and the network. Per endpoint: a warm-up pass over its queries, then calls cycling through them
 * for --duration seconds, each timed. Prints one JSON line: latency percentiles and calls/s.
 *
 *   node dist/bench/geocoding/engine-baseline.js --index FILE --queries FILE.json --duration 10
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { GeocoderIndex } from '../../src/geocoding/engine/index-file.js';
import { reverse } from '../../src/geocoding/engine/reverse.js';
import { search } from '../../src/geocoding/engine/search.js';
import { sanitizeAutocomplete, sanitizeReverse, sanitizeSearch } from '../../src/geocoding/sanitize/endpoints.js';
import { quantile } from '../lib/timings.js';
import { ENDPOINTS, type Endpoint, type Query } from './queries.js';

export interface EngineTimes {
  calls: number;
  perSecond: number;
  /** Milliseconds. */
  p50: number;
  p90: number;
  p99: number;
}

const { values } = parseArgs({
  options: { index: { type: 'string' }, queries: { type: 'string' }, duration: { type: 'string', default: '10' } },
});
if (!values.index || !values.queries) throw new Error('--index FILE and --queries FILE are required');
const durationNs = BigInt(Math.round(Number(values.duration) * 1e9));
const index = new GeocoderIndex(values.index);
const queries = JSON.parse(readFileSync(values.queries, 'utf8')) as Query[];

const answer: Record<Endpoint, (query: URLSearchParams) => unknown> = {
  search: (query) => search(index, sanitizeSearch(query).params, false),
  autocomplete: (query) => search(index, sanitizeAutocomplete(query).params, true),
  reverse: (query) => reverse(index, sanitizeReverse(query).params),
};

function time(endpoint: Endpoint): EngineTimes {
  const run = answer[endpoint];
  // Parsed once, as the server's request object has them before the handler runs.
  const params = queries.filter((q) => q.endpoint === endpoint).map((q) => new URLSearchParams(q.params));
  for (const query of params) run(query);
  const samples: number[] = [];
  const started = process.hrtime.bigint();
  let now = started;
  for (let i = 0; now - started < durationNs; i = (i + 1) % params.length) {
    const before = now;
    run(params[i]!);
    now = process.hrtime.bigint();
    samples.push(Number(now - before) / 1e6);
  }
  const sorted = Float64Array.from(samples).sort();
  return {
    calls: samples.length,
    perSecond: samples.length / (Number(now - started) / 1e9),
    p50: quantile(sorted, 0.5),
    p90: quantile(sorted, 0.9),
    p99: quantile(sorted, 0.99),
  };
}

console.log(JSON.stringify(Object.fromEntries(ENDPOINTS.map((endpoint) => [endpoint, time(endpoint)]))));
