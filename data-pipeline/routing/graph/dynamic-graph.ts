/**
 * The mutable graph node contraction works on: for every node its outgoing and its incoming edges
 * (the same edges seen from both ends), in per-node blocks of one growable pool of typed arrays.
 * There is at most one edge per (from, to) pair; adding a cheaper one replaces it. A block that
 * fills up moves to the end of the pool, and a contracted node's blocks are dropped; the slots
 * left behind are reclaimed by compacting the pool before it would grow, so the pool follows the
 * edges alive at the time rather than every edge ever added.
 */
import type { TurnGraph } from './edge-based.js';

/** Edges left among the nodes not yet contracted (turns and shortcuts), CSR as a TurnGraph, with each edge's middle and hops. */
export interface PartlyContracted extends TurnGraph {
  turnMiddle: Int32Array;
  turnHops: Uint32Array;
}

/**
 * The pool starts this much bigger than the turns (room for the shortcuts to come); when full, it
 * is compacted if at most COMPACT_WHEN_LIVE of it is live, else it grows by POOL_GROWTH. Walking
 * in 16 × and 64 × Monaco: 14 compactions (0.15 s of 10 s, 0.8 s of 50 s) and the pool never
 * grows; without compaction it grew to 5.7 times the turns.
 */
const POOL_START = 1.5;
const COMPACT_WHEN_LIVE = 0.75;
const POOL_GROWTH = 1.25;

/** One direction's per-node edge lists: `other` is the edge's far end. */
class EdgeLists {
  readonly start: Int32Array;
  readonly length: Int32Array;
  private readonly capacity: Int32Array;
  other: Int32Array;
  weight: Uint32Array;
  middle: Int32Array;
  /** How many original turns the edge stands for (1 for a turn, the sum of both halves for a shortcut). */
  hops: Uint32Array;
  /** Slots up to the end of the last block. */
  private used = 0;
  /** Slots in the blocks of nodes still in the graph. */
  private liveSlots = 0;

  /** Blocks of exactly `degree[node]` slots each, one after the other, then free slots. */
  constructor(degree: Uint32Array) {
    const nodeCount = degree.length;
    this.start = new Int32Array(nodeCount);
    this.length = new Int32Array(nodeCount);
    this.capacity = Int32Array.from(degree);
    for (let node = 0; node < nodeCount; node++) {
      this.start[node] = this.used;
      this.used += degree[node]!;
    }
    this.liveSlots = this.used;
    const slots = Math.ceil(this.used * POOL_START);
    this.other = new Int32Array(slots);
    this.weight = new Uint32Array(slots);
    this.middle = new Int32Array(slots);
    this.hops = new Uint32Array(slots);
  }

  /** Index of the edge from `node` to `other`, or -1. */
  find(node: number, other: number): number {
    const start = this.start[node]!;
    const end = start + this.length[node]!;
    for (let e = start; e < end; e++) if (this.other[e] === other) return e;
    return -1;
  }

  add(node: number, other: number, weight: number, middle: number, hops: number): void {
    if (this.length[node] === this.capacity[node]) this.moveToBiggerBlock(node);
    const e = this.start[node]! + this.length[node]!++;
    this.set(e, other, weight, middle, hops);
  }

  set(e: number, other: number, weight: number, middle: number, hops: number): void {
    this.other[e] = other;
    this.weight[e] = weight;
    this.middle[e] = middle;
    this.hops[e] = hops;
  }

  remove(node: number, other: number): void {
    const e = this.find(node, other);
    if (e < 0) return;
    const last = this.start[node]! + --this.length[node]!;
    this.set(e, this.other[last]!, this.weight[last]!, this.middle[last]!, this.hops[last]!);
  }

  /** Drops the node's block (the node has left the graph). */
  release(node: number): void {
    this.liveSlots -= this.capacity[node]!;
    this.start[node] = 0;
    this.length[node] = 0;
    this.capacity[node] = 0;
  }

  /** Blocks only move to the end of the pool, doubling; the old block is abandoned. */
  private moveToBiggerBlock(node: number): void {
    const capacity = Math.max(4, 2 * this.capacity[node]!);
    if (this.used + capacity > this.other.length) {
      if (this.liveSlots <= this.other.length * COMPACT_WHEN_LIVE) this.compact();
      if (this.used + capacity > this.other.length) this.growPool(this.used + capacity);
    }
    this.liveSlots += capacity - this.capacity[node]!;
    const from = this.start[node]!;
    const length = this.length[node]!;
    this.other.copyWithin(this.used, from, from + length);
    this.weight.copyWithin(this.used, from, from + length);
    this.middle.copyWithin(this.used, from, from + length);
    this.hops.copyWithin(this.used, from, from + length);
    this.start[node] = this.used;
    this.capacity[node] = capacity;
    this.used += capacity;
  }

  /** Moves the live blocks down over the abandoned and dropped ones, in order (so each block's edges keep their order). */
  private compact(): void {
    // The node whose block starts at each slot: a pass over the slots visits the blocks in order, no sorting needed.
    const ownerAt = new Int32Array(this.used).fill(-1);
    for (let node = 0; node < this.capacity.length; node++) if (this.capacity[node]! > 0) ownerAt[this.start[node]!] = node;
    // Blocks that lie next to each other move together, in one copy per array.
    let to = 0;
    let runFrom = 0;
    let runTo = 0;
    let runEnd = 0;
    for (let from = 0; from < this.used; from++) {
      const node = ownerAt[from]!;
      if (node < 0) continue;
      if (from !== runEnd) {
        this.move(runFrom, runEnd, runTo);
        runFrom = from;
        runTo = to;
      }
      runEnd = from + this.capacity[node]!;
      this.start[node] = to;
      to += this.capacity[node]!;
    }
    this.move(runFrom, runEnd, runTo);
    this.used = to;
  }

  private move(from: number, end: number, to: number): void {
    if (from === to) return;
    this.other.copyWithin(to, from, end);
    this.weight.copyWithin(to, from, end);
    this.middle.copyWithin(to, from, end);
    this.hops.copyWithin(to, from, end);
  }

  private growPool(atLeast: number): void {
    const size = Math.max(atLeast, Math.ceil(this.other.length * POOL_GROWTH));
    const grow = <T extends Int32Array | Uint32Array>(array: T, make: (n: number) => T): T => {
      const bigger = make(size);
      bigger.set(array);
      return bigger;
    };
    this.other = grow(this.other, (n) => new Int32Array(n));
    this.weight = grow(this.weight, (n) => new Uint32Array(n));
    this.middle = grow(this.middle, (n) => new Int32Array(n));
    this.hops = grow(this.hops, (n) => new Uint32Array(n));
  }
}

export class DynamicGraph {
  readonly out: EdgeLists;
  readonly in: EdgeLists;

  /** A graph of the turns of the edge-based graph (middle -1, 1 hop each), or of the edges of a partly contracted one. */
  constructor(graph: TurnGraph | PartlyContracted) {
    const { nodeCount, turnFirst, turnTarget, turnWeight } = graph;
    const middle = 'turnMiddle' in graph ? graph.turnMiddle : null;
    const hops = 'turnHops' in graph ? graph.turnHops : null;
    const outDegree = new Uint32Array(nodeCount);
    const inDegree = new Uint32Array(nodeCount);
    for (let node = 0; node < nodeCount; node++) outDegree[node] = turnFirst[node + 1]! - turnFirst[node]!;
    for (const target of turnTarget) inDegree[target]!++;
    this.out = new EdgeLists(outDegree);
    this.in = new EdgeLists(inDegree);
    for (let node = 0; node < nodeCount; node++) {
      for (let e = turnFirst[node]!; e < turnFirst[node + 1]!; e++) {
        this.addEdge(node, turnTarget[e]!, turnWeight[e]!, middle?.[e] ?? -1, hops?.[e] ?? 1);
      }
    }
  }

  /** Add the edge from → to, or lower the weight of the existing one (then `middle` and `hops` replace its own). */
  addEdge(from: number, to: number, weight: number, middle: number, hops: number): void {
    const e = this.out.find(from, to);
    if (e < 0) {
      this.out.add(from, to, weight, middle, hops);
      this.in.add(to, from, weight, middle, hops);
    } else if (weight < this.out.weight[e]!) {
      this.out.set(e, to, weight, middle, hops);
      this.in.set(this.in.find(to, from), from, weight, middle, hops);
    }
  }

  /** Take `node` out of the graph: out of its neighbours' lists, and its own lists dropped. */
  detach(node: number): void {
    for (let e = this.out.start[node]!, end = e + this.out.length[node]!; e < end; e++) {
      const to = this.out.other[e]!;
      if (to !== node) this.in.remove(to, node);
    }
    for (let e = this.in.start[node]!, end = e + this.in.length[node]!; e < end; e++) {
      const from = this.in.other[e]!;
      if (from !== node) this.out.remove(from, node);
    }
    this.out.release(node);
    this.in.release(node);
  }
}
