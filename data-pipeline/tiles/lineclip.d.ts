/** Types of lineclip (an ES module without its own types): Cohen–Sutherland and Sutherland–Hodgman clipping to a box. */
declare module 'lineclip' {
  type Point = number[];
  /** [minX, minY, maxX, maxY] */
  type Box = [number, number, number, number];
  /** The parts of a polyline inside the box. */
  export function clipPolyline(points: Point[], box: Box, result?: Point[][]): Point[][];
  /** A ring cut to the box (not closed; empty when the ring lies outside). */
  export function clipPolygon(points: Point[], box: Box): Point[];
}
