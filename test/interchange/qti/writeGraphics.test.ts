import assert from 'node:assert/strict';
import { parseQtiPackage, toQtiPackage } from '../../../functions/src/questionTypes/bankFormats';
import { IMAGE_ID, MEDIA, stored, storedAgain } from '../storedRoundTrip';
import { zipEntries } from '../zipEntries';

// QTI 3.0 export of a hotspot (a hotspot interaction choosing areas, a select point interaction
// placing points, its image a file of the package) read back equal; a calculated question, which
// QTI draws only in a template item, is named as not exported.

const hotspot = {
  question_type: 'hotspot',
  question_text: 'Choose the chambers of the heart.',
  marks: 4,
  difficulty: 'easy',
  image: { src: `/api/media/${IMAGE_ID}`, width: 400, height: 300, alt: 'A heart' },
  select: 'areas',
  areas: [
    { shape: 'circle', coords: [100, 100, 20], correct: true, label: 'Left atrium' },
    { shape: 'rect', coords: [200, 50, 260, 120], correct: true },
    { shape: 'poly', coords: [10, 10, 60, 10, 35, 50], correct: false, label: 'Aorta' },
  ],
};
const points = { ...hotspot, select: 'points', max_points: 3 };

describe('qti export of a hotspot', () => {
  for (const [name, input] of [
    ['choosing areas: a hotspot interaction', hotspot],
    ['placing points: a select point interaction', points],
  ] as const)
    it(`${name}, its image in the package, equal when read back without a warning`, async () => {
      const q = stored(input);
      const zip = await toQtiPackage([q.exported], MEDIA);
      const entries = await zipEntries(zip);
      assert.ok(entries.has(`items/media/${IMAGE_ID}/map.png`), [...entries.keys()].join());
      const again = storedAgain(await parseQtiPackage(zip));
      assert.deepEqual(again.questions, [q.stored]);
      assert.deepEqual(again.warnings, [[]]);
    });

  it('writes the areas as hotspot choices with their labels, scored right less wrong; points by an area mapping', async () => {
    const item = async (input: Record<string, unknown>) =>
      (await zipEntries(await toQtiPackage([stored(input).exported], MEDIA))).get('items/q-q1.xml')!.toString('utf8');
    const areas = await item(hotspot);
    assert.match(areas, /<img src="media\/org-1[^"]*\/map.png" alt="A heart" width="400" height="300"\/>/);
    assert.match(
      areas,
      /<qti-hotspot-choice identifier="A1" shape="circle" coords="100,100,20" hotspot-label="Left atrium"\/>/,
    );
    assert.match(areas, /<qti-map-entry map-key="A3" mapped-value="-2"\/>/);
    const placed = await item(points);
    assert.match(placed, /<qti-select-point-interaction response-identifier="RESPONSE" max-choices="3">/);
    assert.match(
      placed,
      /<qti-area-map-entry shape="poly" coords="10,10,60,10,35,50" mapped-value="0" data-label="Aorta"\/>/,
    );
    assert.match(placed, /<qti-map-response-point identifier="RESPONSE"\/>/);
  });

  it('writes no item for a calculated question, the test saying why in a comment', async () => {
    const q = stored({
      question_type: 'calculated',
      question_text: '{a} + 1?',
      marks: 1,
      difficulty: 'easy',
      variables: [{ name: 'a', min: 1, max: 9, decimals: 0 }],
      formula: 'a + 1',
    });
    const entries = await zipEntries(await toQtiPackage([q.exported]));
    assert.deepEqual(
      [...entries.keys()].filter((k) => k.startsWith('items/')),
      [],
    );
    assert.match(
      entries.get('test.xml')!.toString('utf8'),
      /<!-- not exported: "\{a\} \+ 1\?" is a calculated question, whose values drawn per attempt QTI says only in a template item -->/,
    );
  });
});
