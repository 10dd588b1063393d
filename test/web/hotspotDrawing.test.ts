import assert from 'node:assert/strict';
import { EMPTY_AREA } from '../../web/src/questionTypes/hotspot/definition';
import {
  closesPolygon,
  draggedCoords,
  drawnArea,
  movedCoords,
  polygonCoords,
} from '../../web/src/questionTypes/hotspot/drawing';

// Pure: what the author's drawing tool makes of a drag or a click on a hotspot's image, in the
// image's own pixels; the coordinate fields hold the same numbers.

describe('web questionTypes: drawing a hotspot’s areas', () => {
  const drags: Array<[string, Parameters<typeof draggedCoords>, number[] | null]> = [
    ['a rectangle has the drag’s ends as corners', ['rect', { x: 10, y: 20 }, { x: 110, y: 70 }], [10, 20, 110, 70]],
    [
      'a rectangle dragged up and left has its corners in order',
      ['rect', { x: 110, y: 70 }, { x: 10, y: 20 }],
      [10, 20, 110, 70],
    ],
    ['a rectangle with no height is none', ['rect', { x: 10, y: 20 }, { x: 110, y: 20 }], null],
    ['a circle is centred where the drag began', ['circle', { x: 50, y: 50 }, { x: 80, y: 90 }], [50, 50, 50]],
    ['a circle’s radius is whole pixels', ['circle', { x: 0, y: 0 }, { x: 1, y: 1 }], [0, 0, 1]],
    ['a click draws no circle', ['circle', { x: 50, y: 50 }, { x: 50, y: 50 }], null],
  ];
  for (const [name, args, expected] of drags)
    it(`drag: ${name}`, () => assert.deepEqual(draggedCoords(...args), expected));

  const areas: Array<[string, Partial<typeof EMPTY_AREA>, ReturnType<typeof drawnArea>]> = [
    ['typed coordinates are drawn', { shape: 'rect', coords: '1, 2, 3, 4' }, { shape: 'rect', coords: [1, 2, 3, 4] }],
    ['spaces separate coordinates too', { shape: 'circle', coords: '5 6 7' }, { shape: 'circle', coords: [5, 6, 7] }],
    ['an area being typed is not drawn', { shape: 'poly', coords: '1, 2, 3, 4' }, null],
    ['words are not drawn', { shape: 'rect', coords: 'a, b, c, d' }, null],
  ];
  for (const [name, area, expected] of areas)
    it(`drawn: ${name}`, () => assert.deepEqual(drawnArea({ ...EMPTY_AREA, ...area }), expected));

  // On a 200 × 100 image.
  const moves: Array<[string, Parameters<typeof movedCoords>[0], number, number, number[]]> = [
    ['a rectangle moves both corners', { shape: 'rect', coords: [10, 10, 50, 30] }, 5, -3, [15, 7, 55, 27]],
    ['a circle moves its centre and keeps its radius', { shape: 'circle', coords: [50, 50, 10] }, 20, 10, [70, 60, 10]],
    [
      'a polygon moves every point',
      { shape: 'poly', coords: [10, 10, 30, 10, 20, 30] },
      1,
      2,
      [11, 12, 31, 12, 21, 32],
    ],
    ['an area stops at the right edge', { shape: 'rect', coords: [150, 10, 190, 30] }, 50, 0, [160, 10, 200, 30]],
    ['an area stops at the top edge', { shape: 'circle', coords: [50, 20, 10] }, 0, -40, [50, 10, 10]],
  ];
  for (const [name, area, dx, dy, expected] of moves)
    it(`move: ${name}`, () => assert.deepEqual(movedCoords(area, dx, dy, 200, 100), expected));

  const corners = [
    { x: 10, y: 10 },
    { x: 50, y: 10 },
    { x: 30, y: 40 },
  ];
  const closes: Array<[string, typeof corners, { x: number; y: number }, boolean]> = [
    ['a click on the first corner closes a polygon of three', corners, { x: 12, y: 9 }, true],
    ['a click away from it adds a corner', corners, { x: 20, y: 30 }, false],
    ['two corners are no polygon yet', corners.slice(0, 2), { x: 10, y: 10 }, false],
  ];
  for (const [name, points, point, expected] of closes)
    it(`polygon: ${name}`, () => assert.equal(closesPolygon(points, point, 4), expected));

  it('writes a polygon’s corners as x1, y1, x2, y2, …', () =>
    assert.deepEqual(polygonCoords(corners), [10, 10, 50, 10, 30, 40]));
});
