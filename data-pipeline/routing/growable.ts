/**
 * A typed array filled one value at a time whose final length is not known beforehand: the
 * compact replacement of a `number[]` (8 bytes or more per value, in the JS heap) for data that
 * grows with the input. Values go into chunks of a fixed size, so growing never copies what is
 * there (a doubling array leaves garbage as big as itself behind, which a worker thread's GC may
 * not collect before the build's peak) and the slack is less than one chunk.
 */
type NumberArray = Float64Array | Float32Array | Int32Array | Uint32Array | Uint8Array;

const CHUNK_BITS = 16;
const CHUNK = 1 << CHUNK_BITS;
const CHUNK_MASK = CHUNK - 1;

export class Growable<T extends NumberArray> {
  private readonly chunks: T[] = [];
  length = 0;

  constructor(private readonly make: (length: number) => T) {}

  push(value: number): void {
    const offset = this.length & CHUNK_MASK;
    if (offset === 0) this.chunks.push(this.make(CHUNK));
    this.chunks[this.chunks.length - 1]![offset] = value;
    this.length++;
  }

  /** The value at `index` (below `length`). */
  at(index: number): number {
    return this.chunks[index >>> CHUNK_BITS]![index & CHUNK_MASK]!;
  }

  /** Copies the values from index `start` up to `end` into `target`, from `at` on. */
  copyTo(target: T, at: number, start = 0, end = this.length): void {
    while (start < end) {
      const chunk = this.chunks[start >>> CHUNK_BITS]!;
      const offset = start & CHUNK_MASK;
      const count = Math.min(end - start, CHUNK - offset);
      target.set(chunk.subarray(offset, offset + count), at);
      at += count;
      start += count;
    }
  }

  /** A copy of the values in one array of their own. */
  toArray(): T {
    const values = this.make(this.length);
    this.copyTo(values, 0);
    return values;
  }

  /** The values in one array of their own (so its buffer can be transferred); the builder is left empty. */
  take(): T {
    const values = this.toArray();
    this.chunks.length = 0;
    this.length = 0;
    return values;
  }
}
