/**
 * One list of the hierarchy's final edges (`up` or `down`, see contract.ts), collected as nodes are
 * contracted. Each node's edges arrive together, so they are kept as one block per node (no owner
 * per edge) and read back in node order, as the file's CSR sections want them, in pieces: a copy of
 * the whole list in node order would double the biggest part of a build's memory.
 */
import { NO_MIDDLE } from '../../../core/routing/graph-format.js';
import { Growable } from '../growable.js';

/** Values per piece handed out by the column readers. */
const PIECE_LENGTH = 1 << 16;

export class HierarchyEdges {
  private readonly blockStart: Uint32Array;
  private readonly blockLength: Uint32Array;
  private owner = -1;
  private readonly other = new Growable((n) => new Uint32Array(n));
  private readonly weight = new Growable((n) => new Uint32Array(n));
  private readonly middle = new Growable((n) => new Int32Array(n));
  /** Edges whose middle is a node (shortcuts), not NO_MIDDLE (turns). */
  shortcuts = 0;

  constructor(nodeCount: number) {
    this.blockStart = new Uint32Array(nodeCount);
    this.blockLength = new Uint32Array(nodeCount);
  }

  get length(): number {
    return this.other.length;
  }

  push(owner: number, other: number, weight: number, middle: number): void {
    if (owner !== this.owner) {
      if (this.blockLength[owner] !== 0) throw new Error(`edges of node ${owner} added apart`);
      this.owner = owner;
      this.blockStart[owner] = this.other.length;
    }
    this.blockLength[owner]!++;
    this.other.push(other);
    this.weight.push(weight);
    this.middle.push(middle);
    if (middle !== NO_MIDDLE) this.shortcuts++;
  }

  /** CSR offsets: in node order, node n's edges are first[n] ≤ i < first[n + 1]. */
  first(): Uint32Array {
    const nodeCount = this.blockLength.length;
    const first = new Uint32Array(nodeCount + 1);
    for (let n = 0; n < nodeCount; n++) first[n + 1] = first[n]! + this.blockLength[n]!;
    return first;
  }

  /** The far ends of the edges in node order (the heads of `up` edges, the tails of `down` ones); see `inNodeOrder`. */
  others(): Generator<Uint32Array> {
    return this.inNodeOrder(this.other, new Uint32Array(PIECE_LENGTH));
  }

  weights(): Generator<Uint32Array> {
    return this.inNodeOrder(this.weight, new Uint32Array(PIECE_LENGTH));
  }

  middles(): Generator<Int32Array> {
    return this.inNodeOrder(this.middle, new Int32Array(PIECE_LENGTH));
  }

  /** The column in node order, one piece at a time: each piece is overwritten by the next. */
  private *inNodeOrder<T extends Uint32Array | Int32Array>(column: Growable<T>, piece: T): Generator<T> {
    const { blockStart, blockLength } = this;
    let length = 0;
    for (let n = 0; n < blockStart.length; n++) {
      for (let i = blockStart[n]!, end = i + blockLength[n]!; i < end; i++) {
        piece[length++] = column.at(i);
        if (length === piece.length) {
          yield piece;
          length = 0;
        }
      }
    }
    if (length > 0) yield piece.subarray(0, length) as T;
  }
}

/** Edges pushed as to a HierarchyEdges, in columns: a helper thread's contracted cell (cell-threads.ts), replayed into the list by `replayInto`. */
export class EdgeRecord {
  private readonly owner = new Growable((n) => new Uint32Array(n));
  private readonly other = new Growable((n) => new Uint32Array(n));
  private readonly weight = new Growable((n) => new Uint32Array(n));
  private readonly middle = new Growable((n) => new Int32Array(n));

  push(owner: number, other: number, weight: number, middle: number): void {
    this.owner.push(owner);
    this.other.push(other);
    this.weight.push(weight);
    this.middle.push(middle);
  }

  /** The edges in arrays of their own (so their buffers can be transferred). */
  take(): RecordedEdges {
    return { owner: this.owner.take(), other: this.other.take(), weight: this.weight.take(), middle: this.middle.take() };
  }
}

export interface RecordedEdges {
  owner: Uint32Array;
  other: Uint32Array;
  weight: Uint32Array;
  middle: Int32Array;
}

/** The recorded edges pushed into `list` in the order they were recorded. */
export function replayInto(list: Pick<HierarchyEdges, 'push'>, { owner, other, weight, middle }: RecordedEdges): void {
  for (let i = 0; i < owner.length; i++) list.push(owner[i]!, other[i]!, weight[i]!, middle[i]!);
}
