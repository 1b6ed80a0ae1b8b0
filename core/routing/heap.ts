/**
 * An indexed binary min-heap over node ids 0..capacity-1 on typed arrays: push, decrease or
 * increase a key, pop the smallest. Allocated once per search space and reused; `clear()` only
 * touches the nodes still queued.
 */
export class NodeHeap {
  private readonly nodes: Int32Array;
  private readonly keys: Float64Array;
  /** Position of each node in `nodes`, -1 when not queued. */
  private readonly position: Int32Array;
  size = 0;

  constructor(capacity: number) {
    this.nodes = new Int32Array(capacity);
    this.keys = new Float64Array(capacity);
    this.position = new Int32Array(capacity).fill(-1);
  }

  has(node: number): boolean {
    return this.position[node]! >= 0;
  }

  minKey(): number {
    return this.size === 0 ? Infinity : this.keys[0]!;
  }

  /** Queue `node` with `key`, or move it to `key` when already queued. */
  set(node: number, key: number): void {
    const at = this.position[node]!;
    if (at < 0) {
      this.nodes[this.size] = node;
      this.keys[this.size] = key;
      this.position[node] = this.size;
      this.up(this.size++);
    } else if (key < this.keys[at]!) {
      this.keys[at] = key;
      this.up(at);
    } else {
      this.keys[at] = key;
      this.down(at);
    }
  }

  /** Remove and return the node with the smallest key (the heap must not be empty). */
  pop(): number {
    const top = this.nodes[0]!;
    this.position[top] = -1;
    const last = --this.size;
    if (last > 0) {
      this.nodes[0] = this.nodes[last]!;
      this.keys[0] = this.keys[last]!;
      this.position[this.nodes[0]!] = 0;
      this.down(0);
    }
    return top;
  }

  clear(): void {
    for (let i = 0; i < this.size; i++) this.position[this.nodes[i]!] = -1;
    this.size = 0;
  }

  private up(at: number): void {
    const { nodes, keys, position } = this;
    const node = nodes[at]!;
    const key = keys[at]!;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (keys[parent]! <= key) break;
      nodes[at] = nodes[parent]!;
      keys[at] = keys[parent]!;
      position[nodes[at]!] = at;
      at = parent;
    }
    nodes[at] = node;
    keys[at] = key;
    position[node] = at;
  }

  private down(at: number): void {
    const { nodes, keys, position } = this;
    const node = nodes[at]!;
    const key = keys[at]!;
    const half = this.size >> 1;
    while (at < half) {
      let child = 2 * at + 1;
      if (child + 1 < this.size && keys[child + 1]! < keys[child]!) child++;
      if (keys[child]! >= key) break;
      nodes[at] = nodes[child]!;
      keys[at] = keys[child]!;
      position[nodes[at]!] = at;
      at = child;
    }
    nodes[at] = node;
    keys[at] = key;
    position[node] = at;
  }
}
