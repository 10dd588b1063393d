import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ExportQuestion } from '../../../functions/src/interchange/exportModel';
import { parseQtiPackage, parseQtiXml, toQtiPackage } from '../../../functions/src/questionTypes/bankFormats';
import { buildZip } from '../zipBuilder';

// Passages in QTI (docs/question-types.md, "Passages"): a QTI 3 item's qti-assessment-stimulus-ref
// brings its stimulus as a description the item is linked to; a TAO passage with no manifest is a
// description; our export writes a passage as a stimulus its items refer to, and reading it back
// gives the link again. No public package has a stimulus reference: the packages are written here.

const interop = path.resolve(__dirname, '../../../../shared/fixtures/interop');
const QTI3 = 'xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0"';

const item = (id: string, refs: string[]) =>
  `<qti-assessment-item ${QTI3} identifier="${id}" title="Item ${id}" adaptive="false" time-dependent="false">` +
  '<qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="identifier">' +
  '<qti-correct-response><qti-value>A</qti-value></qti-correct-response></qti-response-declaration>' +
  '<qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float"/>' +
  refs.map((href, i) => `<qti-assessment-stimulus-ref identifier="S${i}" href="${href}" title="Passage"/>`).join('') +
  `<qti-item-body><p>What did the fox do (${id})?</p><qti-choice-interaction response-identifier="RESPONSE" max-choices="1">` +
  '<qti-simple-choice identifier="A">Ran</qti-simple-choice><qti-simple-choice identifier="B">Slept</qti-simple-choice>' +
  '</qti-choice-interaction></qti-item-body>' +
  '<qti-response-processing template="https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/match_correct.xml"/>' +
  '</qti-assessment-item>';

const STIMULUS =
  `<qti-assessment-stimulus ${QTI3} identifier="fox" title="The fox">` +
  '<qti-stimulus-body><p>The fox ran <strong>quickly</strong>.</p><img src="fox.png" alt="A fox"/></qti-stimulus-body>' +
  '</qti-assessment-stimulus>';
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

const manifest = (resources: string) =>
  '<manifest xmlns="http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1" identifier="m"><resources>' +
  resources +
  '</resources></manifest>';
const itemResource = (id: string, href: string) =>
  `<resource identifier="${id}" type="imsqti_item_xmlv3p0" href="${href}"><file href="${href}"/><dependency identifierref="fox"/></resource>`;
const STIMULUS_RESOURCE =
  '<resource identifier="fox" type="imsqti_stimulus_xmlv3p0" href="stimuli/fox.xml"><file href="stimuli/fox.xml"/></resource>';

describe('QTI passages: read', () => {
  it('items naming one stimulus: the stimulus once, as a description before them, each item linked to it', async () => {
    const bank = await parseQtiPackage(
      await buildZip({
        'imsmanifest.xml': manifest(
          itemResource('i1', 'items/i1.xml') + itemResource('i2', 'items/i2.xml') + STIMULUS_RESOURCE,
        ),
        'items/i1.xml': item('i1', ['../stimuli/fox.xml']),
        'items/i2.xml': item('i2', ['../stimuli/fox.xml']),
        'stimuli/fox.xml': STIMULUS,
        'stimuli/fox.png': PNG,
      }),
    );
    assert.deepEqual(
      bank.items.map((i) => [
        i.path,
        i.status,
        i.question?.question_type,
        i.question?.passage_key,
        i.question?.passage_ref,
      ]),
      [
        ['stimuli/fox.xml', 'ok', 'description', 'stimuli/fox.xml', undefined],
        ['items/i1.xml', 'ok', 'multiple_choice', undefined, 'stimuli/fox.xml'],
        ['items/i2.xml', 'ok', 'multiple_choice', undefined, 'stimuli/fox.xml'],
      ],
    );
    const passage = bank.items[0].question!;
    assert.equal(passage.title, 'The fox');
    assert.equal(passage.marks, 0);
    assert.equal(passage.text_format, 'html');
    assert.match(passage.question_text, /<strong>quickly<\/strong>.*@@PLUGINFILE@@\/stimuli\/fox\.png/);
    assert.ok(bank.media.has('stimuli/fox.png'), 'the passage’s image comes with it');
  });

  it('a stimulus it cannot bring: the item imported without it, warned; a second passage warned, not linked', async () => {
    const bank = await parseQtiPackage(
      await buildZip({
        'imsmanifest.xml': manifest(itemResource('i1', 'i1.xml') + itemResource('i2', 'i2.xml')),
        'i1.xml': item('i1', ['missing.xml', '../outside.xml']),
        'i2.xml': item('i2', ['a.xml', 'b.xml']),
        'a.xml': STIMULUS.replace('identifier="fox"', 'identifier="a"'),
        'b.xml': STIMULUS.replace('identifier="fox"', 'identifier="b"'),
        'fox.png': PNG,
      }),
    );
    const byPath = new Map(bank.items.map((i) => [i.path, i]));
    const i1 = byPath.get('i1.xml')!;
    assert.equal(i1.status, 'ok');
    assert.equal(i1.question!.passage_ref, undefined);
    assert.ok(i1.warnings.some((w) => /"missing\.xml" is not in the package/.test(w)));
    assert.ok(i1.warnings.some((w) => /"\.\.\/outside\.xml" is a path leaving the package/.test(w)));
    const i2 = byPath.get('i2.xml')!;
    assert.equal(i2.question!.passage_ref, 'a.xml');
    assert.ok(i2.warnings.some((w) => /further passage, "b\.xml"/.test(w)));
    assert.equal(byPath.get('b.xml')?.question?.question_type, 'description', 'b is still imported, on its own');
  });

  it('a malformed stimulus is reported as an error, and the item is imported without it', async () => {
    const bank = await parseQtiPackage(
      await buildZip({
        'imsmanifest.xml': manifest(itemResource('i1', 'i1.xml')),
        'i1.xml': item('i1', ['s.xml']),
        's.xml': '<qti-assessment-stimulus><unclosed></qti-assessment-stimulus>',
      }),
    );
    assert.deepEqual(
      bank.items.map((i) => [i.path, i.status]),
      [
        ['s.xml', 'error'],
        ['i1.xml', 'ok'],
      ],
    );
    assert.ok(bank.items[1].warnings.some((w) => /"s\.xml" could not be read/.test(w)));
  });

  it('a lone item file naming a stimulus: imported, warned that its passage needs the package', () => {
    const bank = parseQtiXml(item('i1', ['fox.xml']), 'i1.xml');
    assert.equal(bank.items[0].status, 'ok');
    assert.ok(bank.items[0].warnings.some((w) => /"fox\.xml".*content package/.test(w)));
  });

  it('qti-package/tao__importablepassagepxml.zip: a TAO passage with no manifest, one description, its inline image a file', async () => {
    const bank = await parseQtiPackage(readFileSync(path.join(interop, 'qti-package/tao__importablepassagepxml.zip')));
    assert.equal(bank.items.length, 1);
    const [passage] = bank.items;
    assert.equal(passage.status, 'ok');
    assert.equal(passage.question!.question_type, 'description');
    assert.match(passage.question!.question_text, /^<div class="grid-row">.*Lorem ipsum/);
    assert.match(passage.question!.question_text, /<img src="@@PLUGINFILE@@\/importablePassage\.xml-image-1\.jpg"/);
    assert.ok(passage.warnings.some((w) => /no manifest/.test(w)));
    const image = bank.media.get('importablePassage.xml-image-1.jpg')!;
    assert.deepEqual([...image.bytes.slice(0, 3)], [0xff, 0xd8, 0xff], 'a JPEG');
  });

  it('a zip with no manifest that is not only passages is still refused whole', async () => {
    await assert.rejects(
      async () => parseQtiPackage(await buildZip({ 'a.xml': '<a/>', 'p.xml': STIMULUS })),
      /no imsmanifest\.xml/,
    );
  });
});

describe('QTI passages: our export read back', () => {
  const base = {
    options: [] as string[],
    correct_answer: '',
    tolerance: null,
    max_words: null,
    difficulty: 'easy' as const,
    category: ['Reading'],
  };
  const passage: ExportQuestion = {
    ...base,
    id: 'p1',
    question_type: 'description',
    question_text: 'The fox ran quickly.',
    title: 'The fox',
    marks: 0,
  };
  const standalone: ExportQuestion = {
    ...base,
    id: 'd1',
    question_type: 'description',
    question_text: '<p>Answer every question.</p>',
    text_format: 'html',
    marks: 0,
  };
  const asking = (id: string): ExportQuestion => ({
    ...base,
    id,
    question_type: 'true_false',
    question_text: `Did the fox run (${id})?`,
    options: ['True', 'False'],
    correct_answer: 'True',
    marks: 1,
    passage_id: 'p1',
  });

  it('a passage becomes a stimulus its items refer to; reading the package links them again; a description no question names stays an item', async () => {
    for (const order of [
      [passage, asking('q1'), standalone, asking('q2')],
      [asking('q1'), standalone, asking('q2'), passage],
    ]) {
      const zip = await toQtiPackage(order);
      const bank = await parseQtiPackage(zip);
      const read = bank.items.map((i) => [
        i.status,
        i.question?.question_type,
        i.question?.question_text,
        i.question?.passage_key ?? null,
        i.question?.passage_ref ?? null,
      ]);
      const key = 'items/s-p1.xml';
      assert.deepEqual(
        read.filter((r) => r[1] === 'description'),
        [
          ['ok', 'description', 'The fox ran quickly.', key, null],
          ['ok', 'description', '<p>Answer every question.</p>', null, null],
        ].filter((r) => read.some((x) => x[2] === r[2])),
      );
      assert.deepEqual(
        read.filter((r) => r[1] === 'true_false').map((r) => r[4]),
        [key, key],
      );
      assert.equal(bank.items.find((i) => i.question?.passage_key)?.question?.title, 'The fox');
    }
  });
});
