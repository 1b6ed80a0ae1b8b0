/**
 * A dense number for each distinct OSM id of a set: its position among the ids sorted ascending,
 * found by binary search. 8 bytes per id, where a Map<number, number> keyed by ids beyond 2^31
 * (heap numbers) takes 53 and grows by doubling.
 */
export class IdIndex {
  private readonly sorted: Float64Array;

  /** `ids` may hold repeats and be in any order; it is not changed. */
  constructor(ids: Float64Array) {
    const sorted = ids.slice().sort();
    let size = 0;
    for (let i = 0; i < sorted.length; i++) if (size === 0 || sorted[i] !== sorted[size - 1]) sorted[size++] = sorted[i]!;
    this.sorted = sorted.slice(0, size);
  }

  get size(): number {
    return this.sorted.length;
  }

  /** The ids by number (ascending); not to be changed. */
  get ids(): Float64Array {
    return this.sorted;
  }

  /** The id's number (0 ≤ n < size), or -1 when it is not in the set. */
  indexOf(id: number): number {
    const { sorted } = this;
    let low = 0;
    let high = sorted.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const value = sorted[middle]!;
      if (value < id) low = middle + 1;
      else if (value > id) high = middle - 1;
      else return middle;
    }
    return -1;
  }
}
