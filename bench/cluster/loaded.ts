/**
 * The loaded phase of bench:cluster (issue 27: "no 503 under a machine loaded to twice its
 * cores"): nodes on Redis while busy loops keep more cores busy than the machine has; per round,
 * bursts of BURST concurrent metered requests spread over the nodes as in the cluster test's
 * exactness case: searches and tiles of an organization with QUOTA units left of each (QUOTA
 * answered, the rest refused), then searches of an unlimited one (all answered). Every answer's
 * status is counted. A 503 is what the aim rules out; more 200s than units left breaks exactness,
 * and the phase throws.
 */
import { get } from 'node:http';
import { loadavg } from 'node:os';
import { startBusyLoops } from '../lib/busy-load.js';

export const BURST = 600;
export const QUOTA = 200;

export interface LoadedOptions {
  nodeUrls: string[];
  rounds: number;
  busyLoops: number;
  /** One per round: a key of an organization with QUOTA units of maps and of geocoding left. */
  quotaKeys: string[];
  unlimitedKey: string;
  searchPaths: string[];
  tilePaths: string[];
}

/** One kind of burst, over every round. */
export interface BurstTally {
  label: string;
  statuses: Map<number, number>;
  /** Requests whose connection failed (no HTTP answer). */
  failed: number;
  /** Milliseconds per request, sorted once the phase ends. */
  latencies: number[];
  /** The messages of answers other than 200 and 429, each once. */
  messages: Set<string>;
}

export interface LoadedResult {
  tallies: BurstTally[];
  /** The 1-minute load average as the phase started and as it ended. */
  load: [number, number];
}

/** Answers with `status` in a tally. */
export const statusCount = (tally: BurstTally, status: number): number => tally.statuses.get(status) ?? 0;

/**
 * One GET on a connection of its own. fetch's pool would reuse connections of the previous burst,
 * which the server may be closing as idle just then, and gives up connecting after 10 s: failures of
 * the client's, not answers of the server's.
 */
function getOnce(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (res) => {
      let body = '';
      res
        .setEncoding('utf8')
        .on('data', (chunk: string) => (body += chunk))
        .on('end', () => resolve({ status: res.statusCode!, body }))
        .on('error', reject);
    }).on('error', reject);
  });
}

async function fire(urls: string[], paths: string[], key: string, tally: BurstTally): Promise<number> {
  let served = 0;
  await Promise.all(
    Array.from({ length: BURST }, async (_, i) => {
      const path = paths[i % paths.length]!;
      const started = performance.now();
      try {
        const { status, body } = await getOnce(`${urls[i % urls.length]}${path}${path.includes('?') ? '&' : '?'}key=${key}`);
        tally.statuses.set(status, statusCount(tally, status) + 1);
        if (status === 200) served++;
        else if (status !== 429) tally.messages.add(`${status}: ${body.slice(0, 300)}`);
      } catch (error) {
        tally.failed++;
        tally.messages.add(`no answer: ${String(error)}`);
      }
      tally.latencies.push(performance.now() - started);
    }),
  );
  return served;
}

export async function loadedPhase(options: LoadedOptions): Promise<LoadedResult> {
  const tally = (label: string): BurstTally => ({ label, statuses: new Map(), failed: 0, latencies: [], messages: new Set() });
  const searches = tally(`searches, ${QUOTA} left`);
  const tiles = tally(`tiles, ${QUOTA} left`);
  const unlimited = tally('searches, unlimited');
  const loadBefore = loadavg()[0]!;
  const busy = startBusyLoops(options.busyLoops);
  try {
    for (let round = 0; round < options.rounds; round++) {
      const key = options.quotaKeys[round]!;
      for (const [paths, burst] of [
        [options.searchPaths, searches],
        [options.tilePaths, tiles],
      ] as const) {
        const served = await fire(options.nodeUrls, paths, key, burst);
        if (served > QUOTA) throw new Error(`${burst.label}, round ${round + 1}: ${served} answered 200 with ${QUOTA} units left`);
      }
      await fire(options.nodeUrls, options.searchPaths, options.unlimitedKey, unlimited);
      console.error(`loaded round ${round + 1}/${options.rounds} done`);
    }
  } finally {
    await busy.stop();
  }
  const tallies = [searches, tiles, unlimited];
  for (const t of tallies) t.latencies.sort((a, b) => a - b);
  return { tallies, load: [loadBefore, loadavg()[0]!] };
}
