/** Boxes of the labels placed so far, in a uniform grid, to refuse a label that would overlap one. */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

const CELL = 64;

export class CollisionGrid {
  private readonly cells = new Map<number, Box[]>();

  /** Whether any box overlaps a placed one. */
  collides(boxes: readonly Box[]): boolean {
    for (const box of boxes) {
      for (const cell of this.cellsOf(box)) {
        for (const placed of this.cells.get(cell) ?? []) {
          if (box.x0 < placed.x1 && box.x1 > placed.x0 && box.y0 < placed.y1 && box.y1 > placed.y0) return true;
        }
      }
    }
    return false;
  }

  insert(boxes: readonly Box[]): void {
    for (const box of boxes) {
      for (const cell of this.cellsOf(box)) {
        const list = this.cells.get(cell);
        if (list === undefined) this.cells.set(cell, [box]);
        else list.push(box);
      }
    }
  }

  private *cellsOf(box: Box): Generator<number> {
    for (let cy = Math.floor(box.y0 / CELL); cy <= Math.floor(box.y1 / CELL); cy++) {
      for (let cx = Math.floor(box.x0 / CELL); cx <= Math.floor(box.x1 / CELL); cx++) yield cy * 65536 + cx;
    }
  }
}
