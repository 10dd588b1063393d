import assert from 'node:assert/strict';
import { parseMoodleXml, toMoodleXml } from '../../../functions/src/questionTypes/bankFormats';
import { HOTSPOT_ON_MAP as hotspot, MEDIA, stored, storedAgain } from '../../interchange/storedRoundTrip';

// A hotspot written as Moodle's drag-and-drop markers (its image the background, each correct area a
// drop zone expecting the marker of its label) and read back as the hotspot it was.

describe('moodleXml ddmarker written from a hotspot', () => {
  it('carries the image as the background file, one marker per label with its copies, each area a drop zone', () => {
    const xml = toMoodleXml([stored(hotspot).exported], MEDIA);
    assert.match(xml, /<question type="ddmarker">/);
    assert.match(xml, /<file name="map.png" path="\/" encoding="base64">iVBORw0KGgo/);
    assert.match(
      xml,
      /<drag><no>1<\/no><text>Station<\/text><noofdrags>2<\/noofdrags><\/drag><drag><no>2<\/no><text>Park<\/text><noofdrags>1<\/noofdrags><\/drag>/,
    );
    assert.match(xml, /<drop><no>1<\/no><shape>circle<\/shape><coords>322,213;10<\/coords><choice>1<\/choice><\/drop>/);
    assert.match(
      xml,
      /<drop><no>2<\/no><shape>rectangle<\/shape><coords>10,20;100,50<\/coords><choice>1<\/choice><\/drop>/,
    );
    assert.match(
      xml,
      /<drop><no>3<\/no><shape>polygon<\/shape><coords>200,200;250,200;225,240<\/coords><choice>2<\/choice><\/drop>/,
    );
  });

  it('a hotspot placing points on labelled correct areas: equal when read back, without a warning', () => {
    const q = stored(hotspot);
    const again = storedAgain(parseMoodleXml(toMoodleXml([q.exported], MEDIA)));
    assert.deepEqual(again.questions, [q.stored]);
    assert.deepEqual(again.warnings, [[]]);
  });

  const NOTES: Array<[string, Record<string, unknown>, RegExp]> = [
    [
      'the image’s alt text is not carried',
      { image: { ...hotspot.image, alt: 'A map' } },
      /the image's alt text is not carried/,
    ],
    [
      'choosing areas is written as placing markers',
      { select: 'areas' },
      /choosing among shown areas is written as placing markers/,
    ],
    [
      'an area that is not correct is not carried',
      { areas: [...hotspot.areas, { shape: 'circle', coords: [50, 50, 5], correct: false }] },
      /1 area\(s\) that are not correct are not carried/,
    ],
    [
      'an area without a label is marked "Point n"',
      { areas: [{ shape: 'circle', coords: [50, 50, 5], correct: true }] },
      /areas without a label are marked "Point n"[\s\S]*<text>Point 1<\/text>/,
    ],
  ];
  for (const [name, over, note] of NOTES)
    it(`says so in a comment: ${name}`, () => {
      assert.match(toMoodleXml([stored({ ...hotspot, ...over }).exported], MEDIA), note);
    });

  it('writes no question for a hotspot whose image is not a stored file, a comment saying why', () => {
    const url = stored({ ...hotspot, image: { ...hotspot.image, src: 'https://example.org/map.png' } });
    const xml = toMoodleXml([url.exported], MEDIA);
    assert.doesNotMatch(xml, /type="ddmarker"/);
    assert.match(xml, /not exported: .* is a hotspot question whose image is not a stored media file/);
  });
});
