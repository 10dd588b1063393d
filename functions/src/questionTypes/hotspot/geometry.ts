// Pure: the shapes of a hotspot question's areas, in the image's pixels (QTI's and HTML's image-map
// shapes): a circle is x, y, r; a rectangle x1, y1, x2, y2 (any two corners); a polygon x1, y1,
// x2, y2, … (three points or more). A point on an edge is inside.

export const SHAPES = ['circle', 'rect', 'poly'] as const;
export type Shape = (typeof SHAPES)[number];

export interface Area {
  shape: Shape;
  coords: number[];
}

export interface Point {
  x: number;
  y: number;
}

/** Why the coordinates do not make the shape (their count, a radius), or undefined. */
export function shapeProblem(area: Area): string | undefined {
  const n = area.coords.length;
  if (area.shape === 'circle')
    return n !== 3
      ? 'A circle takes 3 coordinates: x, y, r'
      : area.coords[2] > 0
        ? undefined
        : 'A circle’s r must be above 0';
  if (area.shape === 'rect') return n !== 4 ? 'A rect takes 4 coordinates: x1, y1, x2, y2' : undefined;
  return n < 6 || n % 2 !== 0 ? 'A poly takes 3 points or more: x1, y1, x2, y2, x3, y3…' : undefined;
}

/** Whether the shape lies within an image of this size (a circle's centre and its edge, every point of the others). */
export function insideImage(area: Area, width: number, height: number): boolean {
  const within = (x: number, y: number) => x >= 0 && y >= 0 && x <= width && y <= height;
  if (area.shape === 'circle') {
    const [x, y, r] = area.coords;
    return within(x - r, y - r) && within(x + r, y + r);
  }
  for (let i = 0; i + 1 < area.coords.length; i += 2) if (!within(area.coords[i], area.coords[i + 1])) return false;
  return true;
}

/** Whether the point is inside the area (an edge counts). */
export function contains(area: Area, point: Point): boolean {
  const c = area.coords;
  if (area.shape === 'circle') return (point.x - c[0]) ** 2 + (point.y - c[1]) ** 2 <= c[2] ** 2;
  if (area.shape === 'rect')
    return (
      point.x >= Math.min(c[0], c[2]) &&
      point.x <= Math.max(c[0], c[2]) &&
      point.y >= Math.min(c[1], c[3]) &&
      point.y <= Math.max(c[1], c[3])
    );
  return inPolygon(c, point);
}

/** Ray casting, with a point on an edge counted inside. */
function inPolygon(c: number[], p: Point): boolean {
  let inside = false;
  const count = c.length / 2;
  for (let i = 0, j = count - 1; i < count; j = i++) {
    const [xi, yi, xj, yj] = [c[2 * i], c[2 * i + 1], c[2 * j], c[2 * j + 1]];
    if (onSegment(xi, yi, xj, yj, p)) return true;
    if (yi > p.y !== yj > p.y && p.x < ((xj - xi) * (p.y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function onSegment(x1: number, y1: number, x2: number, y2: number, p: Point): boolean {
  const cross = (p.x - x1) * (y2 - y1) - (p.y - y1) * (x2 - x1);
  if (Math.abs(cross) > 1e-9) return false;
  return p.x >= Math.min(x1, x2) && p.x <= Math.max(x1, x2) && p.y >= Math.min(y1, y2) && p.y <= Math.max(y1, y2);
}

/** A point written "x,y" (numbers, spacing allowed), or undefined. */
export function readPoint(text: string): Point | undefined {
  const match = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(text);
  return match ? { x: Number(match[1]), y: Number(match[2]) } : undefined;
}
