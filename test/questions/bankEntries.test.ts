import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ParsedBank } from '../../functions/src/interchange/model';
import { parseGift, parseMoodleXml, parseQtiPackage, parseQtiXml } from '../../functions/src/questionTypes/bankFormats';
import { folderNameOf, importEntries, type MediaPlan } from '../../functions/src/questions/bankEntries';
import { normalizeQuestion } from '../../functions/src/questions/schemas';
import { MAX_FOLDER_NAME, RenameFolderBody } from '../../functions/src/folders/schemas';
import { isWellFormedText } from '../../functions/src/shared/text';

// Pure: a bank file's category path made the name of a folder, which the
// folder API must accept as it is (PATCH /api/folders/{id} with its own name).
// The API counts a name's characters as code points (zod's max): an emoji is one.

const long = (letter: string, length: number) => letter.repeat(length);
const EMOJI = '\u{1F600}'; // one character, two UTF-16 units
const characters = (text: string) => [...text].length;

describe('questions/bankEntries folderNameOf', () => {
  const cases: Array<{ case: string; segments: string[] | null; name: string | null; warned: boolean }> = [
    { case: 'no category', segments: null, name: null, warned: false },
    { case: 'only blank segments', segments: [' ', ''], name: null, warned: false },
    {
      case: 'segments joined with " / ", trimmed',
      segments: [' Science ', 'Physics'],
      name: 'Science / Physics',
      warned: false,
    },
    {
      case: 'exactly the limit: kept whole',
      segments: [long('a', 47), long('b', 50)],
      name: `${long('a', 47)} / ${long('b', 50)}`,
      warned: false,
    },
    {
      case: 'one segment past the limit: its end, after "… / "',
      segments: [long('x', 150)],
      name: `… / ${long('x', MAX_FOLDER_NAME - 4)}`,
      warned: true,
    },
    {
      case: 'a long last segment: the earlier ones dropped',
      segments: ['Top', long('y', 120)],
      name: `… / ${long('y', MAX_FOLDER_NAME - 4)}`,
      warned: true,
    },
    {
      case: 'emoji within the limit in characters, past it in UTF-16 units: kept whole',
      segments: [EMOJI.repeat(60)],
      name: EMOJI.repeat(60),
      warned: false,
    },
    {
      case: 'emoji past the limit: the last that fit, counted as characters',
      segments: [EMOJI.repeat(150)],
      name: `… / ${EMOJI.repeat(MAX_FOLDER_NAME - 4)}`,
      warned: true,
    },
    {
      case: 'many short segments: the last ones that fit (9 of "Level 2x": 96 characters after "… / ")',
      segments: Array.from({ length: 30 }, (_, i) => `Level ${i}`),
      name: `… / ${Array.from({ length: 30 }, (_, i) => `Level ${i}`)
        .slice(-9)
        .join(' / ')}`,
      warned: true,
    },
  ];
  for (const c of cases) {
    it(`${c.case}`, () => {
      const folder = folderNameOf(c.segments);
      assert.equal(folder.name, c.name);
      assert.equal(folder.warning !== undefined, c.warned, folder.warning);
    });
  }

  const accepted: Array<{ case: string; segments: string[] }> = [
    { case: 'one segment of 150 letters', segments: [long('x', 150)] },
    { case: 'a segment of 99 then one of 99', segments: [long('a', 99), long('b', 99)] },
    { case: 'emoji past the limit', segments: [EMOJI.repeat(150)] },
    { case: 'emoji after one letter, past the limit', segments: [`a${EMOJI.repeat(120)}`] },
    { case: 'emoji segments', segments: [EMOJI.repeat(40), `b${EMOJI.repeat(40)}`, EMOJI.repeat(40)] },
    { case: 'a long segment starting with spaces inside', segments: [`x${' '.repeat(120)}y`] },
  ];
  for (const c of accepted) {
    it(`makes a name the folder API accepts as it is: ${c.case}`, () => {
      const { name } = folderNameOf(c.segments);
      assert.ok(name !== null);
      const parsed = RenameFolderBody.safeParse({ name });
      assert.ok(parsed.success, `${characters(name)} characters: ${JSON.stringify(parsed.error?.issues)}`);
      assert.equal(parsed.data.name, name, 'the API keeps the name as the import made it');
      assert.ok(characters(name) <= MAX_FOLDER_NAME, `${characters(name)} characters`);
      assert.ok(isWellFormedText(name), 'no surrogate pair cut in two');
    });
  }
});

describe('questions/bankEntries importEntries: HTML options and mathematics', () => {
  const interop = process.env.INTEROP_FIXTURES ?? path.resolve(__dirname, '../../../shared/fixtures/interop');
  /** Each file the bank carries stored under an id made from its name. */
  const planOf = (bank: ParsedBank): MediaPlan =>
    new Map(
      [...bank.media.keys()].map((name, i) => [
        name,
        { id: `org-1.0b5e3c1a-1111-4c4c-8888-${String(i + 1).padStart(12, '0')}` },
      ]),
    );
  const imported = (bank: ParsedBank) => importEntries(bank, planOf(bank));
  /** A choice question's fields (the entry's type is the union of every type's input). */
  const choiceOf = (entry: { question?: unknown }) =>
    entry.question as { question_text: string; options: string[]; correct_answer: string };
  const qti = (body: string) =>
    `<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" xmlns:m="http://www.w3.org/1998/Math/MathML" identifier="i" title="Energy" adaptive="false" timeDependent="false">` +
    '<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier"><correctResponse><value>A</value></correctResponse></responseDeclaration>' +
    `<itemBody>${body}</itemBody></assessmentItem>`;
  const EMC2 =
    '<m:math><m:mi>E</m:mi><m:mo>=</m:mo><m:mi>m</m:mi><m:msup><m:mi>c</m:mi><m:mn>2</m:mn></m:msup></m:math>';

  it('QTI: MathML in the text and in the options is kept (not "E = m c 2"), unprefixed', () => {
    const [entry] = importEntries(
      parseQtiXml(
        qti(
          `<p>Einstein wrote ${EMC2}.</p><choiceInteraction responseIdentifier="RESPONSE" maxChoices="1">` +
            `<simpleChoice identifier="A">${EMC2}</simpleChoice><simpleChoice identifier="B">E = m c 2</simpleChoice></choiceInteraction>`,
        ),
      ),
      new Map(),
    );
    assert.equal(entry.report.status, 'ok', entry.report.message ?? '');
    const formula = '<math><mi>E</mi><mo>=</mo><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup></math>';
    assert.equal(entry.question!.question_text, `<p>Einstein wrote ${formula}.</p>`);
    assert.deepEqual(choiceOf(entry).options, [formula, 'E = m c 2']);
    assert.equal(choiceOf(entry).correct_answer, formula);
    assert.deepEqual(entry.report.warnings, []);
  });

  it('QTI: a formula option holding "|" (an absolute value) is stored with &#124;, since "|" joins options in an answer', () => {
    const abs = '<m:math><m:mo>|</m:mo><m:mi>x</m:mi><m:mo>|</m:mo></m:math>';
    const [entry] = importEntries(
      parseQtiXml(
        qti(
          '<choiceInteraction responseIdentifier="RESPONSE" maxChoices="1"><prompt>Which is never negative?</prompt>' +
            `<simpleChoice identifier="A">${abs}</simpleChoice><simpleChoice identifier="B">x</simpleChoice></choiceInteraction>`,
        ),
      ),
      new Map(),
    );
    assert.equal(entry.report.status, 'ok', entry.report.message ?? '');
    assert.equal(choiceOf(entry).options[0], '<math><mo>&#124;</mo><mi>x</mi><mo>&#124;</mo></math>');
    assert.equal(normalizeQuestion(entry.question!).correct_answer, choiceOf(entry).options[0]);
  });

  it('qti-package/tao__qti20.zip: the astronomy matching keeps its six image options, each a media file', async function () {
    const file = path.join(interop, 'qti-package/tao__qti20.zip');
    if (!existsSync(file)) this.skip();
    const bank = await parseQtiPackage(readFileSync(file));
    const [astronomy] = imported(bank);
    assert.equal(astronomy.report.status, 'ok', astronomy.report.message ?? '');
    const q = astronomy.question! as { stems: string[]; options: string[]; matches: string[] };
    for (const text of [...q.stems, ...q.options])
      assert.match(text, /^<img src="\/api\/media\/org-1\.[0-9a-f-]+" alt="\w+" \/><br \/>\s*\w+$/);
    assert.deepEqual(
      q.matches.map((m) => /alt="(\w+)"/.exec(m)?.[1]),
      ['Moon', 'Ganymede', 'triton'],
    );
  });

  it('qti21/tao__sample-planet-moon.xml: images a lone file cannot carry: each option its caption, with a warning', function () {
    const file = path.join(interop, 'qti21/tao__sample-planet-moon.xml');
    if (!existsSync(file)) this.skip();
    const [entry] = imported(parseQtiXml(readFileSync(file, 'utf8')));
    assert.equal(entry.report.status, 'ok', entry.report.message ?? '');
    assert.deepEqual((entry.question as { stems: string[] }).stems, ['Earth', 'Jupiter', 'Neptune']);
    assert.ok(entry.report.warnings.some((w) => /an image was dropped: its caption was kept/.test(w)));
  });

  it('moodle__multichoice.xml: four flag options stay four images (not four options called "flag")', function () {
    const file = path.join(interop, 'moodle-xml/moodle__multichoice.xml');
    if (!existsSync(file)) this.skip();
    const bank = parseMoodleXml(readFileSync(file, 'utf8'));
    const [entry] = imported(bank);
    assert.equal(entry.report.status, 'ok', entry.report.message ?? '');
    const options = choiceOf(entry).options;
    assert.equal(options.length, 4);
    for (const [i, text] of ['English', 'French', 'German', 'Danish'].entries())
      assert.match(
        options[i],
        new RegExp(`^<img src="/api/media/org-1\\.[0-9a-f-]+" alt="[^"]+" width="30" height="20" /> ${text}$`),
      );
    assert.equal(choiceOf(entry).correct_answer, options[1]);
  });

  it('Moodle XML: TeX in the text and the answers becomes MathML; TeX that cannot be read is kept, with a warning', () => {
    const bank = parseMoodleXml(
      '<quiz><question type="multichoice"><name><text>Squares</text></name>' +
        '<questiontext format="html"><text><![CDATA[<p>Which is \\(x^2\\)? $$\\frac{1}{2$$</p>]]></text></questiontext>' +
        '<answer fraction="100" format="html"><text><![CDATA[<p>\\(x \\cdot x\\)</p>]]></text></answer>' +
        '<answer fraction="0" format="html"><text><![CDATA[<p>\\(2x\\)</p>]]></text></answer>' +
        '<single>true</single></question></quiz>',
    );
    const [entry] = importEntries(bank, new Map());
    assert.equal(entry.report.status, 'ok', entry.report.message ?? '');
    const q = choiceOf(entry);
    assert.match(q.question_text, /^<p>Which is <math><semantics><msup><mi>x<\/mi><mn>2<\/mn><\/msup>/);
    assert.match(q.question_text, /\$\$\\frac\{1\}\{2\$\$<\/p>$/);
    assert.ok(entry.report.warnings.some((w) => /^In the text: The TeX "\\frac\{1\}\{2" cannot be read/.test(w)));
    assert.ok(q.options.every((o) => o.startsWith('<math><semantics>')));
    // The key names its option as the schema stores it.
    assert.equal(normalizeQuestion(entry.question!).correct_answer, q.options[0]);
  });

  it('GIFT [html]: TeX in the text and in the options becomes MathML', () => {
    const [entry] = importEntries(
      parseGift('[html]What is \\\\(\\\\sqrt\\{4\\}\\\\)? {=[html]\\\\(2\\\\) ~[html]<b>4</b>}\n'),
      new Map(),
    );
    assert.equal(entry.report.status, 'ok', entry.report.message ?? '');
    assert.match(entry.question!.question_text, /^What is <math><semantics><msqrt><mn>4<\/mn><\/msqrt>/);
    assert.match(choiceOf(entry).options[0], /^<math><semantics><mn>2<\/mn>/);
    assert.equal(choiceOf(entry).options[1], '<b>4</b>');
  });
});
