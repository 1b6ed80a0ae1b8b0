/**
 * The mutable graph node contraction works on: for every node its outgoing and its incoming edges
 * (the same edges seen from both ends), in per-node blocks of one growable pool of typed arrays.
 * There is at most one edge per (from, to) pair; adding a cheaper one replaces it.
 */

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
  private used = 0;

  constructor(nodeCount: number, expectedEdges: number) {
    this.start = new Int32Array(nodeCount);
    this.length = new Int32Array(nodeCount);
    this.capacity = new Int32Array(nodeCount);
    this.other = new Int32Array(expectedEdges);
    this.weight = new Uint32Array(expectedEdges);
    this.middle = new Int32Array(expectedEdges);
    this.hops = new Uint32Array(expectedEdges);
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

  /** Blocks only move to the end of the pool, doubling; the old block is abandoned. */
  private moveToBiggerBlock(node: number): void {
    const capacity = Math.max(4, 2 * this.capacity[node]!);
    if (this.used + capacity > this.other.length) this.growPool(this.used + capacity);
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

  private growPool(atLeast: number): void {
    const size = Math.max(atLeast, Math.ceil(this.other.length * 1.5));
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

  constructor(nodeCount: number, expectedEdges: number) {
    this.out = new EdgeLists(nodeCount, expectedEdges);
    this.in = new EdgeLists(nodeCount, expectedEdges);
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

  /** Take `node` out of its neighbours' lists (its own lists are left as they are). */
  detach(node: number): void {
    for (let e = this.out.start[node]!, end = e + this.out.length[node]!; e < end; e++) {
      const to = this.out.other[e]!;
      if (to !== node) this.in.remove(to, node);
    }
    for (let e = this.in.start[node]!, end = e + this.in.length[node]!; e < end; e++) {
      const from = this.in.other[e]!;
      if (from !== node) this.out.remove(from, node);
    }
  }
}
