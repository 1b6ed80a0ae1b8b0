/**
 * The check before measuring: every query of the set, sent through the gateway as wrk will send
 * it, must be answered 200 with a GeoJSON FeatureCollection, and a query without key refused with
 * 401. Also counts the queries answered with at least one feature (informative: an empty answer
 * is a valid one).
 */
import { ENDPOINTS, type Endpoint, type Query } from './queries.js';

export const endpointPath = (endpoint: Endpoint) => `/api/v1/geocoding/${endpoint}`;
export const queryPath = (q: Query, key: string) => `${endpointPath(q.endpoint)}?${q.params}&key=${key}`;

export async function checkAnswers(
  base: string,
  key: string,
  queries: Query[],
): Promise<Record<Endpoint, { found: number; total: number }>> {
  const anonymous = await fetch(`${base}${endpointPath('search')}?text=Monaco`);
  await anonymous.arrayBuffer();
  if (anonymous.status !== 401) throw new Error(`a search without key answered ${anonymous.status}, expected 401`);
  const counts = Object.fromEntries(ENDPOINTS.map((e) => [e, { found: 0, total: 0 }])) as Record<
    Endpoint,
    { found: number; total: number }
  >;
  for (const q of queries) {
    const res = await fetch(base + queryPath(q, key));
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${q.endpoint}?${q.params} (${q.kind}) answered ${res.status}: ${text.slice(0, 300)}`);
    const body = JSON.parse(text) as { type?: string; features?: unknown[] };
    if (body.type !== 'FeatureCollection' || !Array.isArray(body.features))
      throw new Error(`${q.endpoint}?${q.params} answered 200 without a FeatureCollection`);
    counts[q.endpoint].total++;
    if (body.features.length > 0) counts[q.endpoint].found++;
  }
  return counts;
}
