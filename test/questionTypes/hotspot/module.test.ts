import assert from 'node:assert/strict';
import { contains, insideImage, readPoint } from '../../../functions/src/questionTypes/hotspot/geometry';
import { hotspot } from '../../../functions/src/questionTypes/hotspot/module';
import { assertMarking } from '../cases';
import { assertRefusals } from '../refusals';

// Pure: a hotspot question: areas chosen or points placed on an image, and its schema's refusals.

const areas = [
  { shape: 'circle' as const, coords: [100, 100, 20], correct: true },
  { shape: 'rect' as const, coords: [200, 50, 260, 120], correct: true },
  { shape: 'poly' as const, coords: [300, 200, 380, 200, 340, 280], correct: false },
];

describe('questionTypes/hotspot geometry', () => {
  it('tells a point inside each shape, an edge counting as inside', () => {
    for (const [area, point, inside] of [
      [areas[0], '100,100', true],
      [areas[0], '120,100', true],
      [areas[0], '121,100', false],
      [areas[1], '260,50', true],
      [areas[1], '230.5,90', true],
      [areas[1], '199,90', false],
      [areas[2], '340,240', true],
      [areas[2], '340,200', true],
      [areas[2], '300,280', false],
    ] as const)
      assert.equal(contains(area, readPoint(point)!), inside, `${area.shape} ${point}`);
    assert.deepEqual(readPoint(' 1.5 , 2 '), { x: 1.5, y: 2 });
    assert.equal(readPoint('1;2'), undefined);
    assert.equal(insideImage(areas[0], 400, 300), true);
    assert.equal(insideImage({ shape: 'circle', coords: [390, 100, 20] }, 400, 300), false);
  });
});

describe('questionTypes/hotspot mark, choosing areas', () => {
  assertMarking(hotspot, { areas, select: 'areas', correct_answer: '["1","2"]' }, [
    ['the correct areas earn the marks', {}, '["2","1"]', 1],
    ['one of two', {}, '["1"]', 0.5],
    ['a wrong area takes a right one back', {}, '["1","2","3"]', 0.5],
    ['only a wrong area', {}, '["3"]', 'wrong'],
    ['nothing chosen', {}, '[]', 0],
    ['an answer that cannot be read', {}, '1,2', 0],
  ]);
});

describe('questionTypes/hotspot mark, placing points', () => {
  assertMarking(hotspot, { areas, select: 'points', correct_answer: '["1","2"]' }, [
    ['a point in each correct area earns the marks', {}, '["100,100","230,90"]', 1],
    ['two points in one area count once', {}, '["100,100","101,101"]', 0.5],
    ['a point in no correct area is wrong', {}, '["100,100","340,240"]', { share: 0.5, wrong: 0.5 }],
    ['a point that cannot be read counts nothing', {}, '["100,100","here"]', 0.5],
  ]);
});

const valid = {
  question_type: 'hotspot',
  question_text: 'Click the railway stations',
  marks: 2,
  difficulty: 'medium',
  image: { src: '/api/media/c1.map', width: 400, height: 300, alt: 'A map of the town' },
  areas,
  select: 'points',
  max_points: 3,
};

describe('questionTypes/hotspot schema and view', () => {
  assertRefusals(valid, [
    [
      'an area outside the image',
      { areas: [{ shape: 'circle', coords: [395, 100, 20], correct: true }] },
      'areas.0.coords',
      /outside the image \(400 × 300\)/,
    ],
    [
      'a circle with 4 coordinates',
      { areas: [{ shape: 'circle', coords: [1, 2, 3, 4], correct: true }] },
      'areas.0.coords',
      /3 coordinates/,
    ],
    [
      'a polygon of two points',
      { areas: [{ shape: 'poly', coords: [1, 2, 3, 4], correct: true }] },
      'areas.0.coords',
      /3 points or more/,
    ],
    ['no correct area', { areas: [{ ...areas[0], correct: false }] }, 'areas', /At least one area must be correct/],
    ['fewer points than correct areas', { max_points: 1 }, 'max_points', /each of the 2 correct areas/],
    ['max_points when choosing areas', { select: 'areas' }, 'max_points', /only when select is points/],
    ['an image elsewhere', { image: { ...valid.image, src: 'javascript:alert(1)' } }, 'image.src', /\/api\/media/],
  ]);

  it('refuses more points than max_points when saved', () => {
    const question = { question_type: 'hotspot', max_points: 2 };
    assert.match(
      hotspot.answerProblem('["1,1","2,2","3,3"]', question, 2000)!,
      /at most 2 points; the answer places 3/,
    );
  });

  it('shows a taker placing points the bare image, one choosing areas the areas, never which are correct', () => {
    const stored = hotspot.normalizeExtras(hotspot.input.parse(valid));
    const base = { id: 'q', question_text: 'x', options: [], tolerance: null };
    assert.deepEqual(hotspot.takerView({ ...base, ...stored }, 's'), {
      options: [],
      image: valid.image,
      select: 'points',
      max_points: 3,
    });
    const choosing = hotspot.takerView({ ...base, ...stored, select: 'areas' }, 's');
    assert.deepEqual(choosing.areas?.[0], { shape: 'circle', coords: [100, 100, 20] });
    assert.ok(!JSON.stringify(choosing).includes('correct'));
  });
});
