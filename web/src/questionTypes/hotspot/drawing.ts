import type { Schemas } from '../../api';
import type { AreaDraft } from '../module';
import { boxOf, coordsOf, shapeProblem } from './definition';

// The author's drawing tool as plain functions: what a drag or a click on the image makes of an
// area, in the image's own pixels. Tested in node; areaDrawing.tsx only reads the pointer.

type Area = Pick<Schemas['HotspotArea'], 'shape' | 'coords'>;

/** A point on the image, in its pixels. */
export interface ImagePoint {
  x: number;
  y: number;
}

/** A shape drawn by a drag. */
export type DraggedShape = 'rect' | 'circle';

/**
 * The coordinates a drag from `start` to `end` draws: a rectangle between them as its corners, a
 * circle centred on `start` reaching `end`; null when the drag drew nothing (no width, height or radius).
 */
export function draggedCoords(shape: DraggedShape, start: ImagePoint, end: ImagePoint): number[] | null {
  if (shape === 'circle') {
    const r = Math.round(Math.hypot(end.x - start.x, end.y - start.y));
    return r > 0 ? [start.x, start.y, r] : null;
  }
  if (start.x === end.x || start.y === end.y) return null;
  return [Math.min(start.x, end.x), Math.min(start.y, end.y), Math.max(start.x, end.x), Math.max(start.y, end.y)];
}

/** An area of the form as it can be drawn, or null while its coordinates do not make its shape. */
export function drawnArea(area: AreaDraft): Area | null {
  const coords = coordsOf(area.coords);
  return shapeProblem(area.shape, coords) ? null : { shape: area.shape, coords };
}

/** An area's coordinates moved by (`dx`, `dy`), as far as its box stays on a `width` × `height` image. */
export function movedCoords(area: Area, dx: number, dy: number, width: number, height: number): number[] {
  const box = boxOf(area);
  const within = (d: number, from: number, size: number, side: number) =>
    Math.min(Math.max(d, -from), Math.max(0, side - from - size));
  const x = within(dx, box.left, box.width, width);
  const y = within(dy, box.top, box.height, height);
  // A circle moves its centre, its radius kept; a rectangle's and a polygon's points all move.
  if (area.shape === 'circle') return [area.coords[0] + x, area.coords[1] + y, area.coords[2]];
  return area.coords.map((c, i) => c + (i % 2 === 0 ? x : y));
}

/**
 * Whether a click at `point` closes a polygon begun with `points`: it has three points or more and
 * the click is on its first, within `reach` pixels.
 */
export const closesPolygon = (points: readonly ImagePoint[], point: ImagePoint, reach: number): boolean =>
  points.length >= 3 && Math.hypot(point.x - points[0].x, point.y - points[0].y) <= reach;

/** A polygon's points as its coordinates: x1, y1, x2, y2, … */
export const polygonCoords = (points: readonly ImagePoint[]): number[] => points.flatMap((p) => [p.x, p.y]);
