import assert from 'node:assert/strict';
import { QuestionInput } from '../../../functions/src/questionTypes';
import { MEDIA_PLACEHOLDER } from '../../../functions/src/interchange/model';
import { parseQtiPackage, parseQtiXml } from '../../../functions/src/questionTypes/bankFormats';
import { buildZip } from '../zipBuilder';

// QTI's graphic gap match: labels placed on an image's associable hotspots, read as a gap fill of
// drag gaps as Moodle's drag and drop onto image is (docs/question-types.md, "Labels placed on an
// image"); one that is not what QTI says it is (text gaps, no hotspots) is an error saying so.

const QTI3 = 'xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0"';
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** A conformant item: gap images placed on associable hotspots, keyed label → hotspot. */
const item = (
  key: string[],
  {
    image = '<img src="https://example.org/cell.png" alt="A cell" width="400" height="300"/>',
    labels = ['N nucleus', 'M membrane', 'W cell wall'],
    hotspots = '<qti-associable-hotspot identifier="H1" shape="circle" coords="200,150,30" match-max="1"/>' +
      '<qti-associable-hotspot identifier="H2" shape="rect" coords="10,10,60,40" match-max="1" hotspot-label="edge"/>',
    text = '<p>Label the cell.</p>',
  } = {},
) =>
  `<qti-assessment-item ${QTI3} identifier="ggm" title="Cells">` +
  '<qti-response-declaration identifier="RESPONSE" cardinality="multiple" base-type="directedPair">' +
  `<qti-correct-response>${key.map((k) => `<qti-value>${k}</qti-value>`).join('')}</qti-correct-response></qti-response-declaration>` +
  '<qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float"/>' +
  `<qti-item-body>${text}<qti-graphic-gap-match-interaction response-identifier="RESPONSE">${image}` +
  labels
    .map((l) => {
      const [id, ...words] = l.split(' ');
      return `<qti-gap-img identifier="${id}" match-max="1"><img src="https://example.org/${id}.png" alt="${words.join(' ')}" width="60" height="20"/></qti-gap-img>`;
    })
    .join('') +
  `${hotspots}</qti-graphic-gap-match-interaction></qti-item-body>` +
  '<qti-response-processing template="https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/match_correct"/></qti-assessment-item>';

const read = (xml: string) => parseQtiXml(xml).items[0];

describe('qti graphic gap match: labels on an image as a gap fill', () => {
  it('reads a conformant one: the image and its hotspots in the text, a drag gap per keyed hotspot, the labels the chips', () => {
    const parsed = read(item(['N H1', 'M H2']));
    assert.equal(parsed.status, 'ok', parsed.message ?? '');
    const q = parsed.question!;
    assert.equal(q.question_type, 'gap_fill');
    assert.equal(
      q.question_text,
      '<p>Label the cell.</p><p><img src="https://example.org/cell.png" alt="A cell" width="400" height="300" /></p>' +
        '<ol><li>Box 1 at x 200, y 150: [[1]]</li><li>Box 2 (edge): [[2]]</li></ol>',
    );
    assert.deepEqual(
      q.gaps!.map((g) => [g.kind, g.answers]),
      [
        ['drag', [{ answer: 'nucleus', credit: 100 }]],
        ['drag', [{ answer: 'membrane', credit: 100 }]],
      ],
    );
    assert.deepEqual(q.drag_options, ['nucleus', 'membrane', 'cell wall']);
    assert.ok(parsed.warnings.includes('The image labels are carried as their text (labels here are texts)'));
    const stored = QuestionInput.safeParse(q);
    assert.ok(stored.success, JSON.stringify(stored.error?.issues));
  });

  it('carries the image of a package as its media', async () => {
    const manifest =
      '<manifest xmlns="http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1" identifier="m"><resources>' +
      '<resource identifier="q" type="imsqti_item_xmlv3p0" href="items/q.xml"><file href="items/q.xml"/></resource></resources></manifest>';
    const bank = await parseQtiPackage(
      await buildZip({
        'imsmanifest.xml': manifest,
        'items/q.xml': item(['N H1', 'W H2'], { image: '<object data="cell.png" type="image/png"/>' }),
        'items/cell.png': PNG_1X1,
      }),
    );
    const [parsed] = bank.items;
    assert.equal(parsed.status, 'ok', parsed.message ?? '');
    assert.match(
      parsed.question!.question_text,
      new RegExp(`<img src="${MEDIA_PLACEHOLDER}items/cell\\.png" alt="" />`),
    );
    assert.deepEqual([...bank.media.keys()], ['items/cell.png']);
    assert.deepEqual(
      parsed.question!.gaps!.map((g) => g.answers[0].answer),
      ['nucleus', 'cell wall'],
    );
  });

  const REFUSED: Array<[string, string, 'error' | 'unsupported', RegExp]> = [
    [
      'text gaps instead of hotspots (the Longsight reference item) is malformed',
      item(['N G1'], { hotspots: '<p>Put it in <qti-gap identifier="G1"/>.</p>' }),
      'error',
      /^A malformed graphic gap match: it places its labels in text gaps \(qti-gap\)/,
    ],
    [
      'no associable hotspots is malformed',
      item(['N H1'], { hotspots: '' }),
      'error',
      /^A malformed graphic gap match: it has no associable hotspots/,
    ],
    ['no key is an error', item([]), 'error', /no correct response/],
    ['no labels is an error', item(['N H1'], { labels: [] }), 'error', /no labels to place/],
    [
      'an image label without alt text is unsupported',
      item(['N H1'], { labels: ['N'] }),
      'unsupported',
      /Label 1 is an image without alt text/,
    ],
    ['no image is an error', item(['N H1'], { image: '' }), 'error', /no image/],
  ];
  for (const [name, xml, status, message] of REFUSED)
    it(name, () => {
      const parsed = read(xml);
      assert.equal(parsed.status, status, parsed.message ?? '');
      assert.equal(parsed.source_type, 'qti-graphic-gap-match-interaction');
      assert.match(parsed.message!, message);
    });
});
