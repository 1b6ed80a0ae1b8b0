/**
 * What a static map draws over the rendered style: paths, then marker pins (so pins stay on top),
 * then the attribution. Coordinates come through `project` in device pixels; sizes are CSS pixels
 * scaled by the job's pixel ratio.
 */
import type { SKRSContext2D } from '@napi-rs/canvas';
import type { StaticMapJob } from '../task.js';

type Project = (lon: number, lat: number) => [x: number, y: number];

/** CSS pixels of a pin: the round head's radius, and how far the tip is below the head's centre. */
const PIN_RADIUS = 9;
const PIN_TIP = 22;
const ATTRIBUTION_FONT_PX = 10;
const ATTRIBUTION_PADDING = 3;

function drawPath(ctx: SKRSContext2D, project: Project, path: StaticMapJob['paths'][number], pixelRatio: number): void {
  ctx.beginPath();
  path.points.forEach(([lon, lat], index) => {
    const [x, y] = project(lon, lat);
    if (index === 0) ctx.moveTo(x, y);
    else ctx.lineTo(x, y);
  });
  const first = path.points[0]!;
  const last = path.points[path.points.length - 1]!;
  if (path.fill !== undefined && path.points.length > 2 && first[0] === last[0] && first[1] === last[1]) {
    ctx.closePath();
    ctx.fillStyle = path.fill;
    ctx.fill();
  }
  ctx.strokeStyle = path.color;
  ctx.lineWidth = path.width * pixelRatio;
  ctx.lineJoin = 'round';
  ctx.lineCap = 'round';
  ctx.stroke();
}

/** A pin whose tip is on the point: a disc in the marker's colour above it, the label in white on the disc. */
function drawMarker(ctx: SKRSContext2D, project: Project, marker: StaticMapJob['markers'][number], pixelRatio: number): void {
  const [x, y] = project(marker.lon, marker.lat);
  const radius = PIN_RADIUS * pixelRatio;
  const headY = y - (PIN_TIP - PIN_RADIUS) * pixelRatio;
  ctx.beginPath();
  ctx.moveTo(x, y);
  // The tangents from the tip to the head, so that the pin is one smooth shape.
  const spread = Math.asin(radius / (y - headY));
  ctx.arc(x, headY, radius, Math.PI / 2 + spread, Math.PI / 2 - spread);
  ctx.closePath();
  ctx.fillStyle = marker.color;
  ctx.fill();
  ctx.lineWidth = pixelRatio;
  ctx.strokeStyle = 'rgba(0, 0, 0, 0.35)';
  ctx.stroke();
  if (marker.label) {
    ctx.fillStyle = '#ffffff';
    ctx.font = `bold ${Math.round(11 * pixelRatio)}px sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(marker.label, x, headY);
  }
}

export function drawOverlays(ctx: SKRSContext2D, project: Project, job: StaticMapJob): void {
  ctx.save();
  for (const path of job.paths) drawPath(ctx, project, path, job.pixelRatio);
  for (const marker of job.markers) drawMarker(ctx, project, marker, job.pixelRatio);
  ctx.restore();
}

/** `text` in small dark type on a translucent white box in the bottom-right corner of a `width` × `height` CSS-pixel picture. */
export function drawAttribution(ctx: SKRSContext2D, text: string, width: number, height: number, pixelRatio: number): void {
  if (text === '') return;
  ctx.save();
  ctx.font = `${ATTRIBUTION_FONT_PX * pixelRatio}px sans-serif`;
  const padding = ATTRIBUTION_PADDING * pixelRatio;
  const boxWidth = Math.min(ctx.measureText(text).width + 2 * padding, width * pixelRatio);
  const boxHeight = (ATTRIBUTION_FONT_PX + 2 * ATTRIBUTION_PADDING) * pixelRatio;
  const left = width * pixelRatio - boxWidth;
  const top = height * pixelRatio - boxHeight;
  ctx.fillStyle = 'rgba(255, 255, 255, 0.7)';
  ctx.fillRect(left, top, boxWidth, boxHeight);
  ctx.fillStyle = '#333333';
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, width * pixelRatio - padding, top + boxHeight / 2, boxWidth - 2 * padding);
  ctx.restore();
}
