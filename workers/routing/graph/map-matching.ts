/**
 * Map matching as OSRM does it (routing_algorithms/map_matching.cpp, after Newson & Krumm, "Hidden
 * Markov Map Matching Through Noise and Sparseness", 2009): each trace point's candidates are the
 * road positions within three times its GPS precision; a candidate's emission log-probability is
 * Gaussian in its distance from the point (σ = the precision, 5 m by default), a transition's is
 * exponential (β = 10 m) in |great-circle distance between the points − network distance between
 * the candidates|; the Viterbi algorithm keeps the likeliest chain. Network distances between one
 * point's candidates and the next's come from one many-to-many search on the hierarchy per step.
 * Where no candidate of a point can be reached from the previous ones (a break), the point and its
 * predecessor are dropped; after ten dropped points in a row, or a time gap over ten median sample
 * intervals (`gaps=split` with timestamps), or when every earlier point was dropped, the trace is
 * split and matching starts afresh: each part is a sub-matching with OSRM's confidence.
 */
import { metresBetween } from '../../../core/geo/distance.js';
import { IMPASSABLE } from '../../../core/routing/graph-format.js';
import type { TravelMode } from '../../../core/routing/network.js';
import { endpointOfSnap, targetOfSnap } from './endpoint.js';
import type { RoutingGraph } from '../../../core/routing/graph-file.js';
import { manyToMany } from './many-to-many.js';
import { snapsWithin, type Snap } from './snap.js';
import type { SnapFilter } from '../task.js';

/** OSRM's DEFAULT_GPS_PRECISION (metres, the σ of the emission) and the plugin's RADIUS_MULTIPLIER (search radius = 3 σ). */
export const DEFAULT_GPS_PRECISION = 5;
export const RADIUS_MULTIPLIER = 3;
/** Candidate segments per point at most, the nearest (a Waymark bound: OSRM takes every one within the radius). */
export const MAX_CANDIDATES = 32;
const MAX_BROKEN_STATES = 10;
const MATCHING_BETA = 10;
/** Metres: without timestamps, a transition whose distance difference reaches this is impossible. */
const MAX_DISTANCE_DELTA = 2000;
/** Metres per second: with timestamps, the distance difference allowed per second between points (OSRM's profiles' max_speed_for_map_matching). */
const MAX_SPEED: Record<TravelMode, number> = { driving: 180 / 3.6, cycling: 110 / 3.6, walking: 40 / 3.6 };

export interface Trace {
  /** [lon, lat] per point. */
  points: readonly [number, number][];
  /** Seconds per point, never decreasing; null when none were given. */
  timestamps: readonly number[] | null;
  /** GPS precision per point in metres (null: the default). */
  precisions: readonly (number | null)[];
  /** `gaps=split`: split where the time between points is over ten median sample intervals. */
  splitOnGaps: boolean;
  /** Per point, which segments and directions may be its candidates (OSRM's `bearings`, `approaches`, `snapping`); absent: any start point, either way. */
  filters?: readonly SnapFilter[];
}

/** One matched part of the trace. */
export interface SubMatching {
  /** Indexes of the trace points matched, in order (at least two). */
  indices: number[];
  /** The candidate chosen for each; a direction of travel (`only`) unless the trace turns sharply there. */
  snaps: Snap[];
  /** Per point, how many other candidates some likely chain still passes through (OSRM's alternatives_count). */
  alternativesCount: number[];
  confidence: number;
}

/** Degrees at `b` between the directions to `a` and to `c` (0 or 360: `c` lies back towards `a`), in a flat frame. */
function angleAt(a: readonly [number, number], b: readonly [number, number], c: readonly [number, number]): number {
  const k = Math.cos((b[1] * Math.PI) / 180);
  const toA = Math.atan2(a[1] - b[1], (a[0] - b[0]) * k);
  const toC = Math.atan2(c[1] - b[1], (c[0] - b[0]) * k);
  return (((((toC - toA) * 180) / Math.PI) % 360) + 360) % 360;
}

/**
 * Each point's candidates, nearest first (OSRM's filterCandidates): a two-way road is two
 * candidates, one per direction of travel, except where the trace turns back sharply (45° or less),
 * where a U-turn may happen on the road itself.
 */
export function traceCandidates(graph: RoutingGraph, trace: Trace): Snap[][] {
  const { points, precisions } = trace;
  return points.map(([lon, lat], i) => {
    const radius = (precisions[i] ?? DEFAULT_GPS_PRECISION) * RADIUS_MULTIPLIER;
    const found = snapsWithin(graph, lon, lat, radius, MAX_CANDIDATES, trace.filters?.[i]);
    if (i > 0 && i < points.length - 1) {
      const angle = angleAt(points[i - 1]!, points[i]!, points[i + 1]!);
      if (angle <= 45 || angle >= 315) return found;
    }
    const candidates: Snap[] = [];
    for (const snap of found) {
      // A bearing or approach may have left one direction already.
      if (snap.only) {
        candidates.push(snap);
        continue;
      }
      const forward = graph.nodeWeight[2 * snap.segment] !== IMPASSABLE;
      const backward = graph.nodeWeight[2 * snap.segment + 1] !== IMPASSABLE;
      if (forward && backward) candidates.push({ ...snap, only: 'forward' }, { ...snap, only: 'backward' });
      else candidates.push(snap);
    }
    return candidates;
  });
}

const LOG_2_PI = Math.log(2 * Math.PI);

/** log of a Gaussian density with mean 0 and deviation `sigma`, at `distance`. */
const emissionLogProbability = (distance: number, sigma: number) => -0.5 * (LOG_2_PI + (distance / sigma) ** 2) - Math.log(sigma);
/** log of an exponential density with scale MATCHING_BETA, at `difference`. */
const transitionLogProbability = (difference: number) => -Math.log(MATCHING_BETA) - difference / MATCHING_BETA;

/** Density of a Laplace distribution. */
const laplace = (value: number, location: number, scale: number) => Math.exp(-Math.abs(value - location) / scale) / (2 * scale);

/**
 * OSRM's MatchingConfidence: a Bayes classifier on log(matched length / trace length), its two
 * Laplace distributions fitted by OSRM on manually classified traces. 0 when either length is 0.
 */
export function matchingConfidence(traceMetres: number, matchedMetres: number): number {
  const feature = Math.log(Math.fround(matchedMetres)) - Math.log(Math.fround(traceMetres));
  if (!Number.isFinite(feature)) return 0;
  const PRIOR = 0.696774;
  const positive = PRIOR * laplace(feature, 0.005986, 0.016646);
  const negative = (1 - PRIOR) * laplace(feature, 0.054385, 0.458432);
  const norm = positive + negative;
  return positive > negative ? positive / norm : 1 - negative / norm;
}

function medianSampleTime(timestamps: readonly number[]): number {
  const steps = timestamps.slice(1).map((time, i) => time - timestamps[i]!);
  steps.sort((a, b) => a - b);
  return steps[Math.floor(steps.length / 2)]!;
}

/** The Viterbi trellis: per trace point, per candidate. */
class Trellis {
  readonly viterbi: Float64Array[];
  readonly reachable: Uint8Array[];
  readonly parents: [number, number][][];
  readonly pathDistances: Float64Array[];
  readonly pruned: Uint8Array[];
  readonly breakage: boolean[];

  constructor(private readonly emissions: readonly Float64Array[]) {
    this.viterbi = emissions.map((row) => new Float64Array(row.length));
    this.reachable = emissions.map((row) => new Uint8Array(row.length));
    this.parents = emissions.map((row) => Array.from({ length: row.length }, (): [number, number] => [0, 0]));
    this.pathDistances = emissions.map((row) => new Float64Array(row.length));
    this.pruned = emissions.map((row) => new Uint8Array(row.length));
    this.breakage = emissions.map(() => true);
    this.clear(0);
  }

  /** Forgets everything from point `from` on. */
  clear(from: number): void {
    for (let t = from; t < this.viterbi.length; t++) {
      this.viterbi[t]!.fill(-Infinity);
      this.reachable[t]!.fill(0);
      for (const parent of this.parents[t]!) (parent[0] = 0), (parent[1] = 0);
      this.pathDistances[t]!.fill(0);
      this.pruned[t]!.fill(1);
      this.breakage[t] = true;
    }
  }

  /** Starts a chain at the first point from `start` on with a candidate; -1 when none has. */
  initialize(start: number): number {
    const count = this.viterbi.length;
    for (let t = start; t < count; t++) {
      const row = this.emissions[t]!;
      for (let s = 0; s < row.length; s++) {
        this.viterbi[t]![s] = row[s]!;
        this.parents[t]![s] = [t, s];
        this.pruned[t]![s] = row[s]! === -Infinity ? 1 : 0;
        this.breakage[t] = this.breakage[t]! && this.pruned[t]![s] === 1;
      }
      if (!this.breakage[t]) return t;
    }
    return -1;
  }
}

/** The sub-matchings of the trace, given each point's candidates (traceCandidates). */
export function matchTrace(graph: RoutingGraph, trace: Trace, candidates: readonly Snap[][]): SubMatching[] {
  const { points, timestamps, precisions } = trace;
  const count = points.length;
  const emissions = candidates.map((row, t) => {
    const sigma = precisions[t] ?? DEFAULT_GPS_PRECISION;
    return Float64Array.from(row, (snap) => emissionLogProbability(snap.distance, sigma));
  });
  const model = new Trellis(emissions);
  const useTimestamps = timestamps !== null && timestamps.length > 1;
  const maxBrokenTime = (useTimestamps ? Math.max(1, medianSampleTime(timestamps)) : 1) * MAX_BROKEN_STATES;
  const between = (a: number, b: number) => metresBetween(points[a]![0], points[a]![1], points[b]![0], points[b]![1]);

  const initial = model.initialize(0);
  if (initial < 0) return [];
  let breakageBegin = -1;
  const splitPoints: number[] = [];
  const unbroken: number[] = [initial];
  for (let t = initial + 1; t < count; t++) {
    const previous = unbroken[unbroken.length - 1]!;
    const stepTime = useTimestamps ? timestamps[t]! - timestamps[previous]! : 1;
    const maxDistanceDelta = useTimestamps ? stepTime * MAX_SPEED[graph.mode] : MAX_DISTANCE_DELTA;
    const gap = useTimestamps && trace.splitOnGaps ? stepTime > maxBrokenTime : t - previous > MAX_BROKEN_STATES;

    if (!gap) {
      const sources: number[] = [];
      model.pruned[previous]!.forEach((pruned, s) => pruned || sources.push(s));
      const from = candidates[previous]!;
      const to = candidates[t]!;
      const straight = between(previous, t);
      // OSRM bounds these searches by weight, assuming 4 m/s over the great-circle distance plus the
      // largest difference allowed; bounded by that length itself, they find every transition kept.
      const maxMetres = straight + maxDistanceDelta;
      const metres =
        sources.length > 0 && to.length > 0
          ? manyToMany(
              graph,
              sources.map((s) => endpointOfSnap(graph, from[s]!)),
              to.map((snap) => targetOfSnap(graph, snap)),
              maxMetres,
            ).metres
          : new Float64Array(0);
      const viterbi = model.viterbi[t]!;
      sources.forEach((s, row) => {
        for (let s2 = 0; s2 < to.length; s2++) {
          const network = metres[row * to.length + s2]!;
          const difference = Math.abs(network - straight);
          // A very unlikely transition: pruned (an unreachable candidate's difference is infinite).
          if (difference >= maxDistanceDelta) continue;
          const value = model.viterbi[previous]![s]! + emissions[t]![s2]! + transitionLogProbability(difference);
          if (value > viterbi[s2]!) {
            viterbi[s2] = value;
            model.parents[t]![s2] = [previous, s];
            model.pathDistances[t]![s2] = network;
            model.pruned[t]![s2] = 0;
            model.breakage[t] = false;
          }
        }
      });
      if (model.breakage[t]) {
        // A break: remember where it began (the split point), and drop the point before it too.
        if (breakageBegin < 0 || t < breakageBegin) breakageBegin = t;
        unbroken.pop();
      } else {
        unbroken.push(t);
      }
    }

    if (unbroken.length === 0 || gap) {
      let splitIndex = t;
      if (breakageBegin >= 0) (splitIndex = breakageBegin), (breakageBegin = -1);
      splitPoints.push(splitIndex);
      model.clear(splitIndex);
      const start = model.initialize(splitIndex);
      if (start < 0) break;
      unbroken.length = 0;
      unbroken.push(start);
      // The loop's ++t continues at start + 1 (start ≥ the split index, so this ends).
      t = start;
    }
  }
  if (unbroken.length > 0) splitPoints.push(unbroken[unbroken.length - 1]! + 1);
  return reconstruct(model, trace, candidates, initial, splitPoints);
}

/** Each part between split points walked back from its likeliest last candidate, as OSRM's mapMatching ends. */
function reconstruct(
  model: Trellis,
  trace: Trace,
  candidates: readonly Snap[][],
  initial: number,
  splitPoints: readonly number[],
): SubMatching[] {
  const { points } = trace;
  const matchings: SubMatching[] = [];
  let begin = initial;
  for (const end of splitPoints) {
    let t = end - 1;
    while (t >= begin && model.breakage[t]) t--;
    while (begin < end && model.breakage[begin]) begin++;
    const last = t;
    if (t - begin + 1 < 2) {
      begin = end;
      continue;
    }
    const viterbi = model.viterbi[t]!;
    let s = viterbi.indexOf(Math.max(...viterbi));
    const chain: [number, number][] = [];
    while (t > begin) {
      chain.unshift([t, s]);
      model.reachable[t]![s] = 1;
      const [parentT, parentS] = model.parents[t]![s]!;
      if (parentT === t) break;
      (t = parentT), (s = parentS);
    }
    chain.unshift([t, s]);
    model.reachable[t]![s] = 1;
    if (chain.length < 2) {
      begin = end;
      continue;
    }
    // Every candidate some chain ending at the last point passes through.
    for (let s2 = 0; s2 < model.viterbi[last]!.length; s2++) {
      let [pt, ps] = [last, s2];
      while (pt > begin) {
        if (model.reachable[pt]![ps] || model.pruned[pt]![ps]) break;
        model.reachable[pt]![ps] = 1;
        [pt, ps] = model.parents[pt]![ps]!;
      }
      model.reachable[pt]![ps] = 1;
    }
    let matched = 0;
    let traced = 0;
    const matching: SubMatching = { indices: [], snaps: [], alternativesCount: [], confidence: 0 };
    chain.forEach(([ct, cs], i) => {
      matching.indices.push(ct);
      matching.snaps.push(candidates[ct]![cs]!);
      matching.alternativesCount.push(model.reachable[ct]!.reduce((sum, r) => sum + r, 0) - 1);
      matched += model.pathDistances[ct]![cs]!;
      if (i > 0) {
        const [a, b] = [points[chain[i - 1]![0]]!, points[ct]!];
        traced += metresBetween(a[0], a[1], b[0], b[1]);
      }
    });
    matching.confidence = matchingConfidence(traced, matched);
    matchings.push(matching);
    begin = end;
  }
  return matchings;
}
