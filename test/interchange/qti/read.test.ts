import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { BankFileRefused, MEDIA_PLACEHOLDER, type ParsedItem } from '../../../functions/src/interchange/model';
import { parseQtiPackage, parseQtiXml } from '../../../functions/src/questionTypes/bankFormats';
import { buildZip, type ZipContent } from '../zipBuilder';

const repoRoot = path.resolve(__dirname, '../../..');
const FIXTURES = path.join(repoRoot, 'test/fixtures/interchange/qti');
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name), 'utf8');
const only = (name: string): ParsedItem => {
  const bank = parseQtiXml(fixture(name), name);
  assert.equal(bank.format, 'qti');
  assert.equal(bank.items.length, 1);
  return bank.items[0];
};

function refused(run: () => unknown, pattern: RegExp): void {
  assert.throws(run, (err: unknown) => err instanceof BankFileRefused && pattern.test(err.message));
}
async function refusedAsync(run: () => Promise<unknown>, pattern: RegExp): Promise<void> {
  await assert.rejects(run, (err: unknown) => err instanceof BankFileRefused && pattern.test(err.message));
}

const QTI3 = 'xmlns="http://www.imsglobal.org/xsd/imsqti_asi_v3p0"';
const QTI21 = 'xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1"';

/** A QTI 2.1 item around the given declarations and body. */
const item21 = (inner: string, attrs = '') =>
  `<?xml version="1.0" encoding="UTF-8"?><assessmentItem ${QTI21} identifier="x" title="T" adaptive="false" timeDependent="false" ${attrs}>${inner}</assessmentItem>`;

const CHOICE21 = (maxChoices: string, correct: string[], extra = '') =>
  item21(
    `<responseDeclaration identifier="RESPONSE" cardinality="${maxChoices === '1' ? 'single' : 'multiple'}" baseType="identifier">
      <correctResponse>${correct.map((c) => `<value>${c}</value>`).join('')}</correctResponse>${extra}
    </responseDeclaration>
    <outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>
    <itemBody><choiceInteraction responseIdentifier="RESPONSE" maxChoices="${maxChoices}">
      <prompt>Pick</prompt>
      <simpleChoice identifier="A">Alpha</simpleChoice>
      <simpleChoice identifier="B">Beta</simpleChoice>
      <simpleChoice identifier="C">Gamma</simpleChoice>
    </choiceInteraction></itemBody>`,
  );

describe('parseQtiXml', () => {
  it('reads a QTI 3.0 single choice: options, correct option, marks from MAXSCORE, per-choice and general feedback', () => {
    const item = only('choice.xml');
    assert.equal(item.status, 'ok');
    assert.equal(item.source_type, 'qti-choice-interaction');
    assert.equal(item.title, 'Road sign');
    assert.equal(item.path, 'choice.xml');
    const q = item.question!;
    assert.equal(q.question_type, 'multiple_choice');
    assert.equal(q.text_format, 'html');
    assert.deepEqual(q.options, ['Come to a full stop', 'Slow down and carry on', 'Sound the horn']);
    assert.equal(q.correct_answer, 'Come to a full stop');
    assert.equal(q.marks, 2);
    assert.equal(q.difficulty, 'medium');
    assert.deepEqual(q.option_feedback, [
      'Yes: the octagon always means <em>stop</em>.',
      'Slowing down is not enough here.',
      '',
    ]);
    assert.equal(q.feedback, '<p>Regulatory signs are red and white.</p>');
    assert.match(
      q.question_text,
      /^<p>A driver reaches a crossing and sees this sign\.<\/p>\s*<p>What must the driver do\?<\/p>$/,
    );
    assert.doesNotMatch(q.question_text, /interaction|simple-choice/);
    assert.ok(item.warnings.some((w) => /image "..\/images\/sign.png" was left out: a lone item file/.test(w)));
    assert.ok(item.warnings.some((w) => /Modal feedback "always".*general feedback/.test(w)));
  });

  it('reads a QTI 3.0 multiple choice with a qti-mapping as credits totalling 100, a negative entry as negative credit', () => {
    const item = only('choice-multiple.xml');
    assert.equal(item.status, 'ok');
    const q = item.question!;
    assert.equal(q.question_type, 'multiple_select');
    assert.deepEqual(q.options, ['2', '3', '5', '9']);
    assert.equal(q.correct_answer, '2|3|5');
    assert.deepEqual(q.option_credits, [33.33333, 33.33333, 33.33333, -50]);
    assert.equal(q.marks, 3, 'the most the mapping can give');
    assert.equal(q.question_text, '<p>Which of these numbers are prime?</p>');
    assert.ok(item.warnings.some((w) => /rounded to 5 decimals/.test(w)));
  });

  it('reads a QTI 3.0 case-sensitive text entry with partial credit as a short answer with alternatives', () => {
    const item = only('text-entry.xml');
    assert.equal(item.status, 'ok');
    const q = item.question!;
    assert.equal(q.question_type, 'short_answer');
    assert.equal(q.correct_answer, 'Ljubljana');
    assert.equal(q.case_sensitive, true);
    assert.deepEqual(q.alternatives, [
      { answer: 'ljubljana', credit: 50 },
      { answer: 'Lubiana', credit: 25 },
    ]);
    assert.equal(q.marks, 2);
    assert.equal(q.question_text, '<p>The capital of Slovenia is _____.</p>', 'the blank stays where it stood');
  });

  it('reads a QTI 3.0 numeric entry compared within an absolute tolerance', () => {
    const item = only('numeric.xml');
    assert.equal(item.status, 'ok');
    const q = item.question!;
    assert.equal(q.question_type, 'numeric');
    assert.equal(q.correct_answer, '6.25');
    assert.equal(q.tolerance, 0.05);
    assert.equal(q.marks, 1);
    assert.deepEqual(item.warnings, [], 'the tolerance comparison is carried, not reported as custom processing');
    assert.doesNotMatch(q.question_text, /<div>/, 'the wrapper that held only the interaction goes with it');
  });

  it('reads a QTI 3.0 extended text as an essay, warning about the size hint and the scorer rubric', () => {
    const item = only('extended-text.xml');
    assert.equal(item.status, 'ok');
    const q = item.question!;
    assert.equal(q.question_type, 'essay');
    assert.equal(q.marks, 10, 'normal-maximum');
    assert.match(q.question_text, /arch bridge.*<p>Answer in a few paragraphs\.<\/p>$/s);
    assert.doesNotMatch(q.question_text, /Award up to 4 marks/);
    assert.ok(item.warnings.some((w) => /expectedLength 2000/.test(w)));
    assert.ok(item.warnings.some((w) => /rubric block \(for scorer\)/.test(w)));
  });

  it('reports a lone hotspot item as an error (its image needs the package), an adaptive item and a template item as unsupported by their own names', () => {
    const hotspot = only('hotspot.xml');
    assert.equal(hotspot.status, 'error');
    assert.equal(hotspot.source_type, 'qti-hotspot-interaction');
    assert.match(
      hotspot.message!,
      /Its image "..\/images\/sign.png" cannot be carried: a lone item file holds no media/,
    );
    assert.equal(hotspot.question, undefined);

    const adaptive = only('adaptive.xml');
    assert.equal(adaptive.status, 'unsupported');
    assert.equal(adaptive.source_type, 'adaptive item');

    const template = only('template.xml');
    assert.equal(template.status, 'unsupported');
    assert.equal(template.source_type, 'template item');
    assert.match(template.message!, /qti-template-declaration/);
  });

  it('reports two interactions that are not gaps of one text as an unsupported composite item', () => {
    const xml = item21(`<responseDeclaration identifier="R1" cardinality="single" baseType="string"/>
      <responseDeclaration identifier="R2" cardinality="single" baseType="string"/>
      <itemBody><p>One <textEntryInteraction responseIdentifier="R1"/></p><extendedTextInteraction responseIdentifier="R2"/></itemBody>`);
    const [item] = parseQtiXml(xml).items;
    assert.equal(item.status, 'unsupported');
    assert.equal(item.source_type, 'composite item');
    assert.match(item.message!, /textEntryInteraction, extendedTextInteraction/);
  });

  it('makes a hotspot or select point without an image an error saying so', () => {
    for (const name of ['hotspotInteraction', 'selectPointInteraction']) {
      const [item] = parseQtiXml(
        item21(
          `<responseDeclaration identifier="R" cardinality="single" baseType="identifier"/><itemBody><p>Where?</p><${name} responseIdentifier="R"/></itemBody>`,
        ),
      ).items;
      assert.equal(item.status, 'error', name);
      assert.match(item.message!, /It has no image/);
    }
  });

  it('reads a hotspot interaction as a hotspot choosing areas, and a select point as one placing points', () => {
    const hotspot = item21(`<responseDeclaration identifier="R" cardinality="multiple" baseType="identifier">
        <correctResponse><value>A</value><value>C</value></correctResponse></responseDeclaration>
      <itemBody><p>Where are the lakes?</p><hotspotInteraction responseIdentifier="R" maxChoices="2">
        <object data="https://example.org/map.png" type="image/png" width="300" height="200">A map</object>
        <hotspotChoice identifier="A" shape="circle" coords="50,50,20" hotspotLabel="West lake"/>
        <hotspotChoice identifier="B" shape="rect" coords="100,20,160,80"/>
        <hotspotChoice identifier="C" shape="poly" coords="200,100,260,100,230,160,200,100"/>
        <hotspotChoice identifier="D" shape="ellipse" coords="150,150,30,20"/>
      </hotspotInteraction></itemBody>`);
    const [item] = parseQtiXml(hotspot).items;
    assert.equal(item.status, 'ok', item.message ?? '');
    const q = item.question!;
    assert.deepEqual(q.image, { src: 'https://example.org/map.png', width: 300, height: 200, alt: 'A map' });
    assert.equal(q.select, 'areas');
    assert.deepEqual(
      q.areas!.map((a) => [a.shape, a.coords.length, a.correct, a.label ?? null]),
      [
        ['circle', 3, true, 'West lake'],
        ['rect', 4, false, null],
        ['poly', 6, true, null],
        ['poly', 32, false, null],
      ],
    );
    assert.ok(item.warnings.some((w) => /ellipse is carried as a polygon/.test(w)));
    const point = item21(`<responseDeclaration identifier="R" cardinality="single" baseType="point">
        <correctResponse><value>40 60</value></correctResponse></responseDeclaration>
      <itemBody><selectPointInteraction responseIdentifier="R" maxChoices="2">
        <object data="https://example.org/ear.png" width="200" height="300"/></selectPointInteraction></itemBody>`);
    const [placed] = parseQtiXml(point).items;
    assert.equal(placed.status, 'ok', placed.message ?? '');
    assert.deepEqual(placed.question!.areas, [{ shape: 'circle', coords: [40, 60, 5], correct: true }]);
    assert.equal(placed.question!.max_points, 2);
    assert.equal(placed.question!.question_text, 'Place your answer on the image.');
    assert.ok(placed.warnings.some((w) => /circles of 5 px/.test(w)));
  });

  it('names the interactions no type holds as unsupported (slider, drawing…)', () => {
    for (const name of ['sliderInteraction', 'drawingInteraction']) {
      const xml = item21(`<itemBody><${name} responseIdentifier="R"/></itemBody>`);
      const [item] = parseQtiXml(xml).items;
      assert.equal(item.status, 'unsupported', name);
      assert.equal(item.source_type, name);
    }
  });

  describe('an upload: an essay taking files', () => {
    const upload = (
      attrs = '',
      declaration = '<responseDeclaration identifier="F" cardinality="single" baseType="file"/>',
    ) =>
      parseQtiXml(
        item21(
          `${declaration}<itemBody><p>Scan your drawing.</p><uploadInteraction responseIdentifier="F"${attrs}/></itemBody>`,
        ),
      ).items[0];
    const cases: Array<[title: string, attrs: string, fields: Record<string, number>, warnings: string[]]> = [
      ['one file, by default', '', { attachments: 1 }, []],
      [
        'our count of files and of those required',
        ' data-attachments="4" data-attachments-required="2"',
        { attachments: 4, attachments_required: 2 },
        [],
      ],
      ['a count past 5 is one file', ' data-attachments="9"', { attachments: 1 }, []],
      ['a PDF asked for', ' type="application/pdf"', { attachments: 1 }, []],
      [
        'a spreadsheet asked for',
        ' type="application/vnd.ms-excel"',
        { attachments: 1 },
        ['The upload asks for application/vnd.ms-excel; files attached here are PDF, PNG or JPEG'],
      ],
    ];
    for (const [title, attrs, fields, warnings] of cases)
      it(title, () => {
        const read = upload(attrs);
        assert.equal(read.status, 'ok', read.message ?? '');
        assert.equal(read.question!.question_type, 'essay');
        const { attachments, attachments_required } = read.question!;
        assert.deepEqual(
          Object.fromEntries(Object.entries({ attachments, attachments_required }).filter(([, v]) => v !== undefined)),
          fields,
        );
        assert.deepEqual(read.warnings, warnings);
      });

    it('an upload with no response declaration is still an essay taking a file', () =>
      assert.equal(upload('', '').question?.attachments, 1));

    it('an upload beside a choice is a composite the bank cannot hold', () => {
      const [read] = parseQtiXml(
        item21(
          `<responseDeclaration identifier="F" cardinality="single" baseType="file"/><responseDeclaration identifier="C" cardinality="single" baseType="identifier"/>` +
            `<itemBody><uploadInteraction responseIdentifier="F"/><choiceInteraction responseIdentifier="C" maxChoices="1"><simpleChoice identifier="A">A</simpleChoice></choiceInteraction></itemBody>`,
        ),
      ).items;
      assert.equal(read.status, 'unsupported');
      assert.match(read.message!, /uploadInteraction, choiceInteraction/);
    });
  });

  it('reads a QTI 2.1 multiple response with a mapping, scaling credits and saying so', () => {
    const xml = CHOICE21(
      '0',
      ['A', 'B'],
      `<mapping defaultValue="0" lowerBound="0" upperBound="2">
        <mapEntry mapKey="A" mappedValue="2"/><mapEntry mapKey="B" mappedValue="1"/><mapEntry mapKey="C" mappedValue="-1"/>
      </mapping>`,
    ).replace(
      '</assessmentItem>',
      '<responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/map_response"/></assessmentItem>',
    );
    const [item] = parseQtiXml(xml).items;
    assert.equal(item.status, 'ok');
    const q = item.question!;
    assert.equal(q.question_type, 'multiple_select');
    assert.equal(q.correct_answer, 'Alpha|Beta');
    assert.deepEqual(q.option_credits, [66.66667, 33.33333, -33.33333]);
    assert.equal(q.marks, 2, 'the mapping caps the score at its upper bound');
    assert.ok(item.warnings.some((w) => /scaled/.test(w)));
  });

  it('reads two choices True and False as a true/false question', () => {
    const xml = CHOICE21('1', ['F']).replace(
      /<simpleChoice identifier="A">Alpha<\/simpleChoice>\s*<simpleChoice identifier="B">Beta<\/simpleChoice>\s*<simpleChoice identifier="C">Gamma<\/simpleChoice>/,
      '<simpleChoice identifier="T">True</simpleChoice><simpleChoice identifier="F">False</simpleChoice>',
    );
    const [item] = parseQtiXml(xml).items;
    assert.equal(item.status, 'ok');
    assert.equal(item.question!.question_type, 'true_false');
    assert.equal(item.question!.correct_answer, 'False');
    assert.equal(item.question!.options, undefined);
  });

  it('warns that custom response processing was not carried, and uses the correct response', () => {
    const xml = CHOICE21('1', ['B']).replace(
      '</assessmentItem>',
      `<responseProcessing><setOutcomeValue identifier="SCORE"><baseValue baseType="float">1</baseValue></setOutcomeValue></responseProcessing></assessmentItem>`,
    );
    const [item] = parseQtiXml(xml).items;
    assert.equal(item.status, 'ok');
    assert.equal(item.question!.correct_answer, 'Beta');
    assert.ok(item.warnings.some((w) => /Custom response processing was not carried/.test(w)));
  });

  it('takes modal feedback keyed by a choice as that choice’s feedback', () => {
    const xml = CHOICE21('1', ['A']).replace(
      '</assessmentItem>',
      `<modalFeedback outcomeIdentifier="FEEDBACK" identifier="B" showHide="show">Beta is a letter, not the answer.</modalFeedback></assessmentItem>`,
    );
    const [item] = parseQtiXml(xml).items;
    assert.deepEqual(item.question!.option_feedback, ['', 'Beta is a letter, not the answer.', '']);
    assert.equal(item.question!.feedback, undefined);
  });

  it('makes a choice that is not in the correct response an error on that item', () => {
    const [item] = parseQtiXml(CHOICE21('1', ['Z'])).items;
    assert.equal(item.status, 'error');
    assert.match(item.message!, /names Z, which is not a choice/);
  });

  it('keeps an option that says more than its text (formatting, a formula) as HTML, and one that is only a paragraph as its text', () => {
    const xml = CHOICE21('1', ['A'])
      .replace('>Alpha<', '><b>Al</b>pha<')
      .replace(
        '>Beta<',
        '><p><m:math xmlns:m="http://www.w3.org/1998/Math/MathML"><m:msup><m:mi>x</m:mi><m:mn>2</m:mn></m:msup></m:math></p><',
      )
      .replace('>Gamma<', '><p>Gamma</p><');
    const [item] = parseQtiXml(xml).items;
    assert.equal(item.question!.text_format, 'html');
    assert.deepEqual(item.question!.options, [
      '<b>Al</b>pha',
      '<math><msup><mi>x</mi><mn>2</mn></msup></math>',
      'Gamma',
    ]);
    assert.ok(!item.warnings.some((w) => /Option [12]:/.test(w)));
  });

  it('makes an image option of a lone item file its alt text, saying the image was left out', () => {
    const xml = CHOICE21('1', ['A']).replace('>Alpha<', '><img src="flags/fr.png" alt="France"/><');
    const [item] = parseQtiXml(xml).items;
    assert.equal(item.question!.options![0], 'France');
    assert.ok(item.warnings.some((w) => /became its alt text/.test(w)));
  });

  it('reads case-insensitive map entries as a case-insensitive short answer, without alternatives the answer already covers', () => {
    const xml = item21(`<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="string">
        <correctResponse><value>Paris</value></correctResponse>
        <mapping defaultValue="0">
          <mapEntry mapKey="Paris" mappedValue="1" caseSensitive="false"/>
          <mapEntry mapKey="PARIS" mappedValue="0.5" caseSensitive="false"/>
          <mapEntry mapKey="Lutetia" mappedValue="0.5" caseSensitive="false"/>
        </mapping>
      </responseDeclaration>
      <itemBody><p>Capital of France?</p><p><textEntryInteraction responseIdentifier="RESPONSE"/></p></itemBody>
      <responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/map_response"/>`);
    const [item] = parseQtiXml(xml).items;
    const q = item.question!;
    assert.equal(q.case_sensitive, false);
    assert.deepEqual(q.alternatives, [{ answer: 'Lutetia', credit: 50 }]);
    assert.equal(q.question_text, '<p>Capital of France?</p>');
  });

  it('turns a relative numeric tolerance into an absolute one, saying so', () => {
    const xml = item21(`<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="float">
        <correctResponse><value>200</value></correctResponse></responseDeclaration>
      <itemBody><p>Boiling point of something? <textEntryInteraction responseIdentifier="RESPONSE"/></p></itemBody>
      <responseProcessing><responseCondition><responseIf>
        <equal toleranceMode="relative" tolerance="5"><variable identifier="RESPONSE"/><correct identifier="RESPONSE"/></equal>
        <setOutcomeValue identifier="SCORE"><baseValue baseType="float">1</baseValue></setOutcomeValue>
      </responseIf></responseCondition></responseProcessing>`);
    const [item] = parseQtiXml(xml).items;
    assert.equal(item.question!.question_type, 'numeric');
    assert.equal(item.question!.tolerance, 10);
    assert.ok(item.warnings.some((w) => /relative tolerance of 5%/.test(w)));
  });

  it('refuses QTI 1.2, naming the version', () => {
    const xml = `<?xml version="1.0"?><questestinterop xmlns="http://www.imsglobal.org/xsd/ims_qtiasiv1p2"><item ident="a"/></questestinterop>`;
    refused(() => parseQtiXml(xml), /QTI 1\.2 .* is not supported; export QTI 2\.1 or 3\.0/);
  });

  it('refuses a DOCTYPE, a lone test file and a file that is not a QTI item', () => {
    refused(
      () => parseQtiXml(`<!DOCTYPE x [<!ENTITY a "b">]><assessmentItem ${QTI21}/>`),
      /DOCTYPE or entity declaration/,
    );
    refused(() => parseQtiXml(`<qti-assessment-test ${QTI3} identifier="t"/>`), /upload the whole content package/);
    refused(() => parseQtiXml('<quiz/>'), /Not a QTI item: the root element is quiz/);
  });
});

/** The package of the fixtures: items under items/, the image under images/, the test under tests/. */
async function fixturePackage(changes: ZipContent = {}, leaveOut: string[] = []): Promise<Buffer> {
  const files: ZipContent = {
    'imsmanifest.xml': fixture('imsmanifest.xml'),
    'tests/test.xml': fixture('test.xml'),
    'images/sign.png': readFileSync(path.join(FIXTURES, 'images/sign.png')),
  };
  for (const name of [
    'choice',
    'hotspot',
    'choice-multiple',
    'adaptive',
    'template',
    'numeric',
    'text-entry',
    'extended-text',
    'missing-media',
  ])
    files[`items/${name}.xml`] = fixture(`${name}.xml`);
  for (const name of leaveOut) delete files[name];
  return buildZip({ ...files, ...changes });
}

describe('parseQtiPackage', () => {
  it('imports the supported items of a QTI 3.0 package in the test’s order, its sections as categories', async () => {
    const bank = await parseQtiPackage(await fixturePackage());
    assert.equal(bank.format, 'qti');
    const summary = bank.items.map((i) => [i.path, i.status, i.category?.join(' / ') ?? null]);
    assert.deepEqual(summary, [
      ['items/choice.xml', 'ok', 'Road signs'],
      ['items/hotspot.xml', 'ok', 'Road signs'],
      ['items/choice-multiple.xml', 'ok', 'Numbers'],
      ['items/adaptive.xml', 'unsupported', 'Numbers'],
      ['items/template.xml', 'unsupported', 'Numbers'],
      ['items/numeric.xml', 'ok', 'Numbers / Measures'],
      ['items/text-entry.xml', 'ok', null],
      ['items/extended-text.xml', 'ok', null],
      ['items/missing-media.xml', 'error', null],
    ]);
  });

  it('reads the manifest by its resource types, not by its wrong xsi:schemaLocation', async () => {
    assert.match(fixture('imsmanifest.xml'), /schemaLocation="http:\/\/www\.imsglobal\.org\/xsd\/imsqti_v2p1 /);
    const bank = await parseQtiPackage(await fixturePackage());
    assert.equal(bank.items.filter((i) => i.status === 'ok').length, 6);
  });

  it('carries the image an item refers to as media, the HTML pointing at it by its package path', async () => {
    const bank = await parseQtiPackage(await fixturePackage());
    assert.deepEqual([...bank.media.keys()], ['images/sign.png']);
    const png = bank.media.get('images/sign.png')!;
    assert.equal(png.name, 'images/sign.png');
    assert.deepEqual(Buffer.from(png.bytes.subarray(0, 4)), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    const choice = bank.items[0].question!;
    assert.match(
      choice.question_text,
      new RegExp(`<img src="${MEDIA_PLACEHOLDER}images/sign.png" alt="A red octagonal sign">`),
    );
  });

  it('makes a reference to a file the package lacks an error on that item', async () => {
    const bank = await parseQtiPackage(await fixturePackage());
    const missing = bank.items.find((i) => i.path === 'items/missing-media.xml')!;
    assert.equal(missing.status, 'error');
    assert.match(missing.message!, /"..\/images\/chart.png" \(images\/chart.png\), which the package does not contain/);
    assert.equal(missing.question, undefined);
  });

  it('notes a section that draws at random, and that the test itself is not imported', async () => {
    const bank = await parseQtiPackage(await fixturePackage());
    const first = bank.items[0];
    assert.ok(first.warnings.some((w) => /Only the items of the test "Road and number check" are imported/.test(w)));
    const numbers = bank.items.find((i) => i.path === 'items/choice-multiple.xml')!;
    assert.ok(
      numbers.warnings.some((w) =>
        /section "Numbers" draws 2 of its items at random; it was imported as a folder of all its 4 items/.test(w),
      ),
    );
  });

  it('makes an item the manifest names but the package lacks an error', async () => {
    const bank = await parseQtiPackage(await fixturePackage({}, ['items/text-entry.xml']));
    const gone = bank.items.find((i) => i.path === 'items/text-entry.xml')!;
    assert.equal(gone.status, 'error');
    assert.match(gone.message!, /which the package does not contain/);
  });

  it('makes malformed XML in one item an error on that item only', async () => {
    const bank = await parseQtiPackage(
      await fixturePackage({ 'items/numeric.xml': '<qti-assessment-item><oops></qti-assessment-item>' }),
    );
    const broken = bank.items.find((i) => i.path === 'items/numeric.xml')!;
    assert.equal(broken.status, 'error');
    assert.match(broken.message!, /not well-formed/);
    assert.equal(bank.items.filter((i) => i.status === 'ok').length, 5);
  });

  it('refuses the whole package for a DOCTYPE in any item', async () => {
    const hostile = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><qti-assessment-item ${QTI3}/>`;
    await refusedAsync(async () => parseQtiPackage(await fixturePackage({ 'items/numeric.xml': hostile })), /DOCTYPE/);
  });

  it('refuses a package of QTI 1.2 resources, naming the version', async () => {
    const manifest = `<manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"><resources>
      <resource identifier="q" type="imsqti_xmlv1p2" href="quiz.xml"/></resources></manifest>`;
    await refusedAsync(
      async () => parseQtiPackage(await buildZip({ 'imsmanifest.xml': manifest, 'quiz.xml': '<questestinterop/>' })),
      /QTI 1\.2/,
    );
  });

  it('imports QTI 2.1 items of a package, and reports an item href leaving the package', async () => {
    const manifest = `<manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"><resources>
      <resource identifier="a" type="imsqti_item_xmlv2p1" href="a.xml"/>
      <resource identifier="b" type="imsqti_item_xmlv2p1" href="../b.xml"/></resources></manifest>`;
    const bank = await parseQtiPackage(await buildZip({ 'imsmanifest.xml': manifest, 'a.xml': CHOICE21('1', ['C']) }));
    assert.deepEqual(
      bank.items.map((i) => [i.path, i.status]),
      [
        ['../b.xml', 'error'],
        ['a.xml', 'ok'],
      ],
    );
    assert.match(bank.items[0].message!, /leaving the package/);
    assert.equal(bank.items[1].question!.correct_answer, 'Gamma');
  });

  it('refuses a zip without imsmanifest.xml, and a hostile zip through readZip', async () => {
    await refusedAsync(async () => parseQtiPackage(await buildZip({ 'a.xml': '<a/>' })), /no imsmanifest\.xml/);
    await refusedAsync(async () => parseQtiPackage(Buffer.from('PK but not a zip')), /not a zip archive/);
  });
});

describe('QTI interop fixtures (../shared/fixtures/interop)', () => {
  const interop = process.env.INTEROP_FIXTURES ?? path.resolve(repoRoot, '../shared/fixtures/interop');
  const read = (name: string) => readFileSync(path.join(interop, name), 'utf8');

  before(function () {
    if (!existsSync(path.join(interop, 'qti21'))) {
      console.log(`    (skipped: the interop fixtures are not at ${interop}; set INTEROP_FIXTURES to their folder)`);
      this.skip();
    }
  });

  it('qti21/instructure__choice.xml: a single choice; its image left out of a lone file with a warning', () => {
    const [item] = parseQtiXml(read('qti21/instructure__choice.xml'), 'instructure__choice.xml').items;
    assert.equal(item.status, 'ok');
    assert.equal(item.source_type, 'choiceInteraction');
    assert.equal(item.title, 'Unattended Luggage');
    const q = item.question!;
    assert.equal(q.question_type, 'multiple_choice');
    assert.equal(q.options!.length, 3);
    assert.equal(q.correct_answer, 'You must stay with your luggage at all times.');
    assert.equal(q.marks, 1);
    assert.match(q.question_text, /Look at the text in the picture\.[\s\S]*<p>What does it say\?<\/p>/);
    assert.ok(item.warnings.some((w) => /images\/sign\.png/.test(w)));
  });

  it('qti21/instructure__text_entry.xml: a case-sensitive short answer, "york" earning half', () => {
    const [item] = parseQtiXml(read('qti21/instructure__text_entry.xml')).items;
    assert.equal(item.status, 'ok');
    const q = item.question!;
    assert.equal(q.question_type, 'short_answer');
    assert.equal(q.correct_answer, 'York');
    assert.equal(q.case_sensitive, true);
    assert.deepEqual(q.alternatives, [{ answer: 'york', credit: 50 }]);
    assert.match(q.question_text, /sun of\s+_____;/);
  });

  it('qti21/instructure__essay.xml: an essay scored by a person, 25 marks', () => {
    const [item] = parseQtiXml(read('qti21/instructure__essay.xml')).items;
    assert.equal(item.status, 'ok');
    const q = item.question!;
    assert.equal(q.question_type, 'essay');
    assert.equal(q.marks, 25);
    assert.match(q.question_text, /<b>Write an abstract about the life of this historical figure\.<\/b>/);
  });

  const one = (name: string): ParsedItem => {
    const bank = parseQtiXml(read(name), name);
    assert.equal(bank.items.length, 1);
    return bank.items[0];
  };
  const ok = (name: string) => {
    const item = one(name);
    assert.equal(item.status, 'ok', item.message ?? '');
    return { item, q: item.question! };
  };
  const phrasesIn = (text: string) => [...text.matchAll(/\[\[(.+?)\]\]/g)].map((m) => m[1]);
  const answersOf = (q: { gaps?: Array<{ answers: Array<{ answer: string }> }> }) =>
    q.gaps!.map((g) => g.answers.map((a) => a.answer));

  it('qti21/tao__sample-history.xml: an order interaction, an ordering of 5 scored whole', () => {
    const { q } = ok('qti21/tao__sample-history.xml');
    assert.equal(q.question_type, 'ordering');
    assert.deepEqual(q.options, ['Prehistory', 'Antiquity', 'Middle Ages', 'Modern Era', 'Contemporary Era']);
    assert.equal(q.ordering_score, 'all_or_nothing');
    assert.match(q.question_text, /major periods[\s\S]*Validate/);
  });

  it('qti21/tao__sample-planet-moon.xml: an association read as directed pairs, a matching of 3 planets to their moons', () => {
    const { item, q } = ok('qti21/tao__sample-planet-moon.xml');
    assert.equal(q.question_type, 'matching');
    assert.deepEqual(q.stems, ['Earth', 'Jupiter', 'Neptune']);
    assert.deepEqual(q.options, ['Moon', 'Ganymede', 'Triton']);
    assert.deepEqual(q.matches, ['Moon', 'Ganymede', 'Triton']);
    assert.equal(q.marks, 4);
    assert.ok(item.warnings.some((w) => /directed pairs/.test(w)));
    assert.ok(item.warnings.some((w) => /scored unequally/.test(w)));
  });

  it('qti21/tao__multiple.xml: a choice of several whose key is one, beside a match, as one gap_fill: a drop-down, then one per stem with a pair in the key', () => {
    const { item, q } = ok('qti21/tao__multiple.xml');
    assert.equal(item.source_type, 'choiceInteraction + matchInteraction');
    assert.equal(q.question_type, 'gap_fill');
    assert.deepEqual(
      q.gaps!.map((g) => [g.kind, g.answers.map((a) => a.answer), g.options]),
      [
        ['select', ['choice #1'], ['choice #1', 'choice #2', 'choice #3', 'choice #4', 'choice #5']],
        ['select', ['choice #1'], ['choice #1', 'choice #2', 'choice #3', 'choice #4']],
      ],
    );
    assert.match(q.question_text, /<li>choice #1 \[\[2\]\]<\/li>/);
    for (const said of [
      /let the taker tick several choices/,
      /"choice #2" has no pair in the key/,
      /became a drop-down gap for each of its stems/,
    ])
      assert.ok(
        item.warnings.some((w) => said.test(w)),
        item.warnings.join('; '),
      );
  });

  it('qti21/tao__item8math.xml: a choice beside an association as one gap_fill, the association read as directed pairs', () => {
    const { item, q } = ok('qti21/tao__item8math.xml');
    assert.equal(q.question_type, 'gap_fill');
    assert.deepEqual(
      q.gaps!.map((g) => [g.kind, g.answers.map((a) => a.answer)]),
      [
        ['select', ['A']],
        ['select', ['B']],
      ],
    );
    assert.ok(item.warnings.some((w) => /directed pairs/.test(w)));
  });

  it('qti21/tao__multi-input.xml: a choice, an inline choice, a text entry and a gap match as one gap_fill of 6 gaps', () => {
    const { item, q } = ok('qti21/tao__multi-input.xml');
    assert.equal(q.question_type, 'gap_fill');
    assert.equal(item.title, 'Legend');
    assert.deepEqual(
      q.gaps!.map((g) => g.kind),
      ['select', 'select', 'text', 'drag', 'drag', 'drag'],
    );
    assert.deepEqual(answersOf(q), [
      ['Some people are afraid of a woman who walks around at night as a ghost.'],
      ['Marion'],
      ['wicked king'],
      ['family'],
      ['castle'],
      ['horse'],
    ]);
    assert.deepEqual(q.gaps![1].options, ['Please choose...', 'Marine', 'Maureen', 'Marion']);
    assert.deepEqual(q.drag_options, ['family', 'castle', 'sword', 'horse']);
    assert.equal(q.drag_reusable, false);
    assert.equal(q.marks, 4);
    for (const n of [1, 2, 3, 4, 5, 6]) assert.equal(q.question_text.split(`[[${n}]]`).length, 2, `[[${n}]] once`);
    assert.match(
      q.question_text,
      /Why are some people afraid[\s\S]*\[\[1\]\][\s\S]*whose name was \[\[2\]\], became angry with the \[\[3\]\]/,
    );
    assert.match(q.question_text, /He killed her \[\[4\]\] and burned her \[\[5\]\], then jumped on her \[\[6\]\]/);
    assert.ok(item.warnings.some((w) => /RESPONSE1" became a drop-down gap/.test(w)));
  });

  it('qti21/tao__hottext.xml: 5 hot texts, the key "includes", one choice', () => {
    const { q } = ok('qti21/tao__hottext.xml');
    assert.equal(q.question_type, 'hottext');
    assert.deepEqual(phrasesIn(q.question_text), ['who bought', 'includes', 'at least', 'whose', 'No error.']);
    assert.equal(q.correct_answer, 'includes');
    assert.equal(q.max_choices, 1);
    assert.match(q.question_text, /Olympic Games \[\[who bought\]\][\s\S]*\[\[No error\.\]\]/);
  });

  it('qti21: a select point a hotspot placing points, an upload beside a keyless text entry one essay taking a file, an item with no interaction a description', () => {
    const selectPoint = one('qti21/tao__qti_selectpoint.xml');
    assert.equal(selectPoint.status, 'ok');
    assert.equal(selectPoint.source_type, 'selectPointInteraction');
    // An area-only key (its mapping's circle), the image by its absolute (unfetchable) URL.
    assert.deepEqual(selectPoint.question!.areas, [{ shape: 'circle', coords: [96, 346, 54], correct: true }]);
    assert.equal(selectPoint.question!.image!.width, 227);
    assert.equal(selectPoint.question!.select, 'points');
    const upload = one('qti21/tao__upload_composite.xml');
    assert.equal(upload.status, 'ok', upload.message ?? '');
    assert.equal(upload.question!.question_type, 'essay');
    assert.equal(upload.question!.attachments, 1);
    assert.match(upload.question!.question_text, /Build a spreadsheet[\s\S]*nut centres: _____%<\/p>$/);
    assert.deepEqual(upload.warnings, [
      'The text entry "RESPONSE_P" beside the upload was merged into the essay: its answer is written in the essay\'s text',
    ]);
    const table = one('qti21/tao__tableNoInteractions.xml');
    assert.equal(table.status, 'ok');
    assert.equal(table.source_type, 'no interaction');
    assert.equal(table.question?.question_type, 'description');
    assert.equal(table.question?.marks, 0);
    assert.match(table.question!.question_text, /<table/);
    assert.ok(
      table.warnings.some((w) => /declares 5 responses but asks for none/.test(w)),
      table.warnings.join('; '),
    );
  });

  it('qti30/longsight-qti3__match-reference.xml: the one keyed stem A matched to "Target 1", B left out with a warning', () => {
    const { item, q } = ok('qti30/longsight-qti3__match-reference.xml');
    assert.equal(q.question_type, 'matching');
    assert.deepEqual(q.stems, ['A']);
    assert.deepEqual(q.options, ['Target 1', 'Target 2']);
    assert.deepEqual(q.matches, ['Target 1']);
    assert.ok(item.warnings.some((w) => /"B" has no pair in the key/.test(w)));
  });

  it('qti30/longsight-qti3__order-reference.xml: an ordering A, B', () => {
    const { q } = ok('qti30/longsight-qti3__order-reference.xml');
    assert.equal(q.question_type, 'ordering');
    assert.deepEqual(q.options, ['A', 'B']);
  });

  it('qti30/longsight-qti3__gapMatch-reference.xml: a gap_fill of one drag gap, key "A"', () => {
    const { q } = ok('qti30/longsight-qti3__gapMatch-reference.xml');
    assert.equal(q.question_type, 'gap_fill');
    assert.deepEqual(q.gaps, [{ kind: 'drag', answers: [{ answer: 'A', credit: 100 }] }]);
    assert.deepEqual(q.drag_options, ['A']);
    assert.match(q.question_text, /\[\[1\]\]/);
  });

  it('qti30/longsight-qti3__hottext-reference.xml: 3 hot texts, the key "response declaration", its prompt kept', () => {
    const { q } = ok('qti30/longsight-qti3__hottext-reference.xml');
    assert.equal(q.question_type, 'hottext');
    assert.deepEqual(phrasesIn(q.question_text), [
      'response declaration',
      'outcome declaration',
      'template declaration',
    ]);
    assert.equal(q.correct_answer, 'response declaration');
    assert.match(q.question_text, /<p>Select the phrase[^<]*<\/p>/);
  });

  it('qti30/longsight-qti3__upload-reference.xml: one essay taking a file, its correct response "upload.txt" no key', () => {
    const upload = one('qti30/longsight-qti3__upload-reference.xml');
    assert.equal(upload.status, 'ok', upload.message ?? '');
    assert.equal(upload.source_type, 'qti-upload-interaction');
    assert.deepEqual(
      { ...upload.question, question_text: undefined },
      {
        question_type: 'essay',
        title: 'upload-reference',
        question_text: undefined,
        text_format: 'html',
        attachments: 1,
        marks: 1,
        difficulty: 'medium',
      },
    );
    assert.match(upload.question!.question_text, /<p>Upload a short implementation note[^<]*<\/p>$/);
    assert.deepEqual(upload.warnings, [
      'The correct response of the upload (upload.txt) names a file, not a key: it was not carried',
    ]);
  });

  it('qti30: the hotspot reference an error (its SVG image needs a package, and SVG is no medium here) and the malformed graphic gap match as malformed, never a crash', () => {
    const hotspot = one('qti30/longsight-qti3__hotspot-reference.xml');
    assert.equal(hotspot.status, 'error');
    assert.match(hotspot.message!, /hotspot-flow.svg/);
    const malformed = one('qti30/longsight-qti3__graphicGapMatch-reference.xml');
    assert.equal(malformed.status, 'error');
    assert.equal(malformed.source_type, 'qti-graphic-gap-match-interaction');
    assert.match(malformed.message!, /^A malformed graphic gap match: it places its labels in text gaps \(qti-gap\)/);
  });

  it('qti-package/tao__qti20.zip: QTI 2.0 items read, the astronomy association a matching, the shuttle a single choice', async () => {
    const bank = await parseQtiPackage(readFileSync(path.join(interop, 'qti-package/tao__qti20.zip')));
    assert.deepEqual(
      bank.items.map((i) => [i.status, i.question?.question_type]),
      [
        ['ok', 'matching'],
        ['ok', 'multiple_choice'],
      ],
    );
    // Its options are images the package carries, each with its caption: HTML options, the images media.
    const astronomy = bank.items[0].question!;
    assert.equal(astronomy.text_format, 'html');
    assert.deepEqual(
      astronomy.matches!.map((m) => /<img src="@@PLUGINFILE@@\/[^"]+\/img\/(\w+)\.png" alt="(\w+)">/.exec(m)?.slice(1)),
      [
        ['moon', 'Moon'],
        ['ganymede', 'Ganymede'],
        ['triton', 'triton'],
      ],
    );
    assert.deepEqual(
      astronomy.stems!.map((m) => /img\/(\w+)\.png/.exec(m)?.[1]),
      ['earth', 'jupiter', 'neptune'],
    );
    assert.ok([...bank.media.keys()].some((k) => k.endsWith('img/earth.png')));
    assert.equal(bank.items[1].question!.correct_answer, 'Atlantis');
  });

  it('qti-package/tao__importablepassagepxml.zip: a passage without a manifest, one description (test/interchange/qti/passages.test.ts)', async () => {
    const bank = await parseQtiPackage(readFileSync(path.join(interop, 'qti-package/tao__importablepassagepxml.zip')));
    assert.deepEqual(
      bank.items.map((i) => [i.status, i.question?.question_type]),
      [['ok', 'description']],
    );
  });

  it('qti12/*: refused whole, naming QTI 1.2', () => {
    for (const name of ['qti12/instructure__all_canvas_simple_1.2.xml', 'qti12/instructure__numeric_margin_error.xml'])
      refused(() => parseQtiXml(read(name)), /QTI 1\.2/);
  });
});

describe('parseQtiPackage: our export’s conventions', () => {
  const item = (id: string, body: string, extra = '') =>
    `<qti-assessment-item ${QTI3} identifier="${id}" title="Iron" adaptive="false" time-dependent="false">` +
    '<qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="string"/>' +
    '<qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float" normal-maximum="3"/>' +
    `<qti-item-body>${body}<qti-extended-text-interaction response-identifier="RESPONSE"${extra}/></qti-item-body>` +
    '</qti-assessment-item>';
  const resource = (id: string, difficulty?: string) =>
    `<resource identifier="${id}" type="imsqti_item_xmlv3p0" href="items/${id}.xml">` +
    (difficulty
      ? `<metadata><imsmd:lom><imsmd:educational><imsmd:difficulty><imsmd:source>LOMv1.0</imsmd:source><imsmd:value>${difficulty}</imsmd:value></imsmd:difficulty></imsmd:educational></imsmd:lom></metadata>`
      : '') +
    `<file href="items/${id}.xml"/></resource>`;
  const manifest = (resources: string) =>
    `<manifest xmlns="http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1" xmlns:imsmd="http://ltsc.ieee.org/xsd/LOM" identifier="m">` +
    `<resources>${resources}<resource identifier="test" type="imsqti_test_xmlv3p0" href="test.xml"><file href="test.xml"/></resource></resources></manifest>`;
  const test = (sections: string) =>
    `<qti-assessment-test ${QTI3} identifier="t" title="Question bank"><qti-test-part identifier="p" navigation-mode="nonlinear" submission-mode="simultaneous">${sections}</qti-test-part></qti-assessment-test>`;
  const section = (title: string, ids: string[]) =>
    `<qti-assessment-section identifier="s-${ids[0]}" title="${title}" visible="false">${ids
      .map((id) => `<qti-assessment-item-ref identifier="${id}" href="items/${id}.xml"/>`)
      .join('')}</qti-assessment-section>`;

  it('reads plain text wrappers as plain text, data-untitled and data-max-words, the LOM difficulty, and an untitled section as no folder', async () => {
    const bank = await parseQtiPackage(
      await buildZip({
        'imsmanifest.xml': manifest(resource('a', 'difficult') + resource('b', 'very easy')),
        'test.xml': test(section('Metals', ['a']) + section('', ['b'])),
        'items/a.xml': item(
          'a',
          '<div data-text-format="plain">Iron &lt;Fe&gt;\nand steel</div>',
          ' data-max-words="50"',
        ),
        'items/b.xml': item('b', '<div data-text-format="plain" data-untitled="true">Iron</div>'),
      }),
    );
    const [a, b] = bank.items;
    assert.deepEqual(a.warnings, [], 'a test of bare sections loses nothing');
    assert.deepEqual(
      [
        a.question!.text_format,
        a.question!.question_text,
        a.question!.title,
        a.question!.max_words,
        a.question!.difficulty,
        a.category,
      ],
      ['plain', 'Iron <Fe>\nand steel', 'Iron', 50, 'hard', ['Metals']],
    );
    assert.deepEqual([b.question!.title, b.question!.difficulty, b.category], [undefined, 'easy', null]);
    assert.deepEqual(b.warnings, ['The difficulty "very easy" (LOM) was carried as easy']);
  });
});
