/** A polyline measured along its length, for labels and icons placed along streets. */
export interface PathPoint {
  x: number;
  y: number;
  /** Direction of the segment there, radians. */
  angle: number;
}

export class MeasuredLine {
  readonly length: number;
  private readonly cumulative: number[];

  constructor(private readonly points: readonly { x: number; y: number }[]) {
    this.cumulative = [0];
    for (let i = 1; i < points.length; i++) {
      this.cumulative.push(this.cumulative[i - 1]! + Math.hypot(points[i]!.x - points[i - 1]!.x, points[i]!.y - points[i - 1]!.y));
    }
    this.length = this.cumulative[this.cumulative.length - 1]!;
  }

  reversed(): MeasuredLine {
    return new MeasuredLine([...this.points].reverse());
  }

  /** The point `distance` along the line (clamped to its ends). */
  at(distance: number): PathPoint {
    let i = 1;
    while (i < this.points.length - 1 && this.cumulative[i]! < distance) i++;
    const a = this.points[i - 1]!;
    const b = this.points[i]!;
    const segment = this.cumulative[i]! - this.cumulative[i - 1]!;
    const t = segment === 0 ? 0 : Math.max(0, Math.min(1, (distance - this.cumulative[i - 1]!) / segment));
    return { x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t, angle: Math.atan2(b.y - a.y, b.x - a.x) };
  }
}
