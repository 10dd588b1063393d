import assert from 'node:assert/strict';
import { MoodleXmlWriter, parseMoodleXml, toMoodleXml } from '../../../functions/src/questionTypes/bankFormats';
import { element, elements, parseXml, textOf, type XmlElement } from '../../../functions/src/interchange/xml';
import {
  ALL,
  choice,
  essay,
  media,
  multi,
  multiAllOrNothing,
  numeric,
  numericExact,
  PNG,
  shortAnswer,
  trueFalse,
} from '../samples';
import {
  expectedDraft,
  gapFill,
  gapFillDrag,
  gapFillHtml,
  hottext,
  matching,
  matchingHtml,
  ordering,
  orderingPartial,
} from '../partSamples';

// The Moodle XML writer: every file is read back with the project's XML reader
// (well-formed, no DOCTYPE) and checked element by element.

const questionsOf = (xml: string): XmlElement[] => elements(parseXml(xml, 'export'), 'question');
const text = (parent: XmlElement, name: string): string | undefined => {
  const child = element(parent, name);
  return child ? textOf(element(child, 'text') ?? child) : undefined;
};
const answers = (q: XmlElement) =>
  elements(q, 'answer').map((a) => ({
    fraction: a.attrs.fraction,
    text: text(a, 'text') ?? textOf(element(a, 'text')!),
    feedback: text(a, 'feedback'),
    tolerance: element(a, 'tolerance') ? textOf(element(a, 'tolerance')!) : undefined,
  }));
const only = (xml: string): XmlElement => questionsOf(xml).filter((q) => q.attrs.type !== 'category')[0];

describe('interchange/export/moodleXml toMoodleXml', () => {
  it('writes well-formed XML: a <quiz> with a category question before each run of one folder', () => {
    const xml = toMoodleXml(ALL, media);
    assert.ok(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<quiz>'));
    assert.doesNotMatch(xml, /<!DOCTYPE/);
    const root = parseXml(xml, 'export');
    assert.equal(root.name, 'quiz');
    const sequence = questionsOf(xml).map((q) =>
      q.attrs.type === 'category' ? textOf(element(element(q, 'category')!, 'text')!) : q.attrs.type,
    );
    assert.deepEqual(sequence, [
      '$course$/top/Science/Physics//Optics',
      'multichoice',
      'multichoice',
      '$course$/top',
      'multichoice',
      '$course$/top/Science/Physics//Optics',
      'truefalse',
      'shortanswer',
      'numerical',
      'numerical',
      '$course$/top/Essays',
      'essay',
    ]);
  });

  it('writes the name, HTML text with media as @@PLUGINFILE@@ files, general feedback, defaultgrade and the difficulty tag', () => {
    const q = only(toMoodleXml([choice], media));
    assert.equal(text(q, 'name'), 'Focal: length');
    const questionText = element(q, 'questiontext')!;
    assert.equal(questionText.attrs.format, 'html');
    assert.equal(
      textOf(element(questionText, 'text')!),
      '<p>Which lens {converges} = ~#\\ light?</p><p><img src="@@PLUGINFILE@@/lens.png" alt="a lens"><img src="@@PLUGINFILE@@/lens-2.png"></p>',
    );
    const files = elements(questionText, 'file');
    assert.deepEqual(
      files.map((f) => [f.attrs.name, f.attrs.path, f.attrs.encoding]),
      [
        ['lens.png', '/', 'base64'],
        ['lens-2.png', '/', 'base64'],
      ],
    );
    assert.deepEqual(new Uint8Array(Buffer.from(textOf(files[0]), 'base64')), PNG);
    const general = element(q, 'generalfeedback')!;
    assert.equal(textOf(element(general, 'text')!), 'See <i>chapter 3</i>: <img src="@@PLUGINFILE@@/lens.png">');
    assert.equal(elements(general, 'file').length, 1);
    assert.equal(text(q, 'defaultgrade'), '2');
    assert.equal(textOf(element(element(element(q, 'tags')!, 'tag')!, 'text')!), 'difficulty:hard');
  });

  it('tags a question without a title untitled (its name made from the text), a multiple_select without credits all_or_nothing, and escapes a short answer’s *', () => {
    const tags = (q: XmlElement) => elements(element(q, 'tags')!, 'tag').map((t) => textOf(element(t, 'text')!));
    const untitled = only(toMoodleXml([{ ...multiAllOrNothing, title: null }]));
    assert.equal(text(untitled, 'name'), 'Pick the vowels');
    assert.deepEqual(tags(untitled), ['difficulty:hard', 'untitled', 'all_or_nothing']);
    assert.equal(text(untitled, 'answernumbering'), 'none');
    const starred = only(toMoodleXml([{ ...shortAnswer, correct_answer: '2*3', alternatives: [] }]));
    assert.deepEqual(tags(starred), [`difficulty:${shortAnswer.difficulty}`]);
    assert.equal(answers(starred)[0].text, '2\\*3');
  });

  it('refers to a media file by its percent-encoded name', () => {
    const named = new Map([['img1', { ...media.get('img1')!, name: 'lens (1).png' }]]);
    const q = only(
      toMoodleXml([{ ...choice, question_text: '<p><img src="/api/media/img1"></p>', feedback: null }], named),
    );
    assert.match(textOf(element(element(q, 'questiontext')!, 'text')!), /@@PLUGINFILE@@\/lens%20%281%29\.png/);
  });

  it('writes a multiple_choice as single multichoice: 100 for the answer, 0 for the others, each with its feedback', () => {
    const q = only(toMoodleXml([choice], media));
    assert.equal(text(q, 'single'), 'true');
    assert.deepEqual(
      answers(q).map((a) => [a.fraction, a.text, a.feedback]),
      [
        ['100', 'Convex', 'Right: it bends light inwards'],
        ['0', 'Concave', 'No: it spreads light'],
        ['0', '%50 of both', ''],
        ['0', '[html]<b>neither</b>', 'No'],
      ],
    );
  });

  it('writes a multiple_select with its credits as fractions rounded to Moodle grades, and says so', () => {
    const xml = toMoodleXml([multi]);
    assert.match(xml, /<!-- option credits rounded to Moodle's grades: -33 → -33\.33333 -->/);
    const q = only(xml);
    assert.equal(text(q, 'single'), 'false');
    assert.deepEqual(
      answers(q).map((a) => [a.fraction, a.text, a.feedback]),
      [
        ['50', '2', 'yes'],
        ['50', '3', 'yes'],
        ['-33.33333', '4', 'even'],
        ['-100', '9', 'square'],
      ],
    );
    assert.equal(element(q, 'questiontext')!.attrs.format, 'plain_text');
    assert.equal(text(q, 'questiontext'), 'Which are primes?\nPick all.');
    const noCredits = only(toMoodleXml([multiAllOrNothing]));
    assert.deepEqual(
      answers(noCredits).map((a) => a.fraction),
      ['50', '-100', '50'],
    );
  });

  it('writes a true_false with true and false answers and their feedback', () => {
    const q = only(toMoodleXml([trueFalse]));
    assert.equal(q.attrs.type, 'truefalse');
    assert.deepEqual(
      answers(q).map((a) => [a.fraction, a.text, a.feedback]),
      [
        ['100', 'true', 'Yes, much faster'],
        ['0', 'false', 'It is faster'],
      ],
    );
  });

  it('writes a short_answer with usecase and its alternatives as further answers', () => {
    const q = only(toMoodleXml([shortAnswer]));
    assert.equal(text(q, 'usecase'), '1');
    assert.deepEqual(
      answers(q).map((a) => [a.fraction, a.text]),
      [
        ['100', 'Paris'],
        ['100', 'Paris, France'],
        ['33.33333', 'Lutèce'],
      ],
    );
    assert.equal(text(only(toMoodleXml([{ ...shortAnswer, case_sensitive: false }])), 'usecase'), '0');
  });

  it('writes a numeric as numerical with each answer’s tolerance (none when the bank has none)', () => {
    const q = only(toMoodleXml([numeric]));
    assert.deepEqual(
      answers(q).map((a) => [a.fraction, a.text, a.tolerance]),
      [
        ['100', '3e5', '1000'],
        ['50', '300', '1'],
      ],
    );
    assert.equal(text(q, 'defaultgrade'), '1.5');
    assert.equal(answers(only(toMoodleXml([numericExact])))[0].tolerance, undefined);
  });

  it('writes an essay with maxwordlimit and its media', () => {
    const q = only(toMoodleXml([essay], media));
    assert.equal(text(q, 'maxwordlimit'), '250');
    assert.equal(text(q, 'responseformat'), 'plain');
    assert.deepEqual(
      elements(element(q, 'questiontext')!, 'file').map((f) => f.attrs.name),
      ['tone.ogg'],
    );
  });

  it('writes an essay’s attachments, those required and the file types they may be; none when it takes none', () => {
    const q = only(toMoodleXml([{ ...essay, attachments: 3, attachments_required: 2 }], media));
    assert.equal(text(q, 'attachments'), '3');
    assert.equal(text(q, 'attachmentsrequired'), '2');
    assert.equal(text(q, 'filetypeslist'), '.pdf,.png,.jpg,.jpeg');
    const plain = only(toMoodleXml([essay], media));
    assert.equal(text(plain, 'attachments'), '0');
    assert.equal(element(plain, 'filetypeslist'), undefined);
  });

  it('keeps a reference to media it was not given, and says so', () => {
    const xml = toMoodleXml([choice]);
    assert.match(xml, /<!-- media not found, left as links: img1, img2 -->/);
    assert.match(textOf(element(element(only(xml), 'questiontext')!, 'text')!), /src="\/api\/media\/img1"/);
  });

  it('writes a test’s pools as random questions in the pool’s category, its questions there too', () => {
    const pools = [
      { category: ['Science'], difficulty: null, draw: 1, question_ids: ['tf1'] },
      { category: ['Science'], difficulty: 'hard' as const, draw: 2, question_ids: ['nu1', 'nu2'] },
    ];
    const all = questionsOf(toMoodleXml([choice, trueFalse, numeric, numericExact], media, pools));
    const sequence = all.map((q) =>
      q.attrs.type === 'category' ? textOf(element(element(q, 'category')!, 'text')!) : q.attrs.type,
    );
    assert.deepEqual(sequence, [
      '$course$/top/Science/Physics//Optics',
      'multichoice',
      '$course$/top/Science',
      'truefalse',
      '$course$/top/Science/hard',
      'numerical',
      'numerical',
      '$course$/top/Science',
      'random',
      '$course$/top/Science/hard',
      'random',
      'random',
    ]);
    const random = all.find((q) => q.attrs.type === 'random')!;
    assert.equal(text(random, 'questiontext'), '0');
  });

  it('writes the same file in pieces as whole', () => {
    const writer = new MoodleXmlWriter();
    const pieces =
      writer.start() + writer.write(ALL.slice(0, 3), media) + writer.write(ALL.slice(3), media) + writer.end();
    assert.equal(pieces, toMoodleXml(ALL, media));
  });

  it('escapes markup, writes line ends as LF and replaces characters XML cannot hold', () => {
    const q = only(toMoodleXml([{ ...numericExact, question_text: 'a < b & "c" ]]> \u0001 \r\n' }]));
    assert.equal(text(q, 'questiontext'), 'a < b & "c" ]]> \ufffd \n');
  });
});

describe('interchange/export/moodleXml toMoodleXml: the types with parts', () => {
  it('writes a matching question as Moodle’s matching: each stem with its match, a distractor as a subquestion without text', () => {
    const q = only(toMoodleXml([matching]));
    assert.equal(q.attrs.type, 'matching');
    assert.deepEqual(
      elements(q, 'subquestion').map((s) => [s.attrs.format, text(s, 'text') ?? '', text(s, 'answer')]),
      [
        ['plain_text', 'France', 'Paris'],
        ['plain_text', 'Italy', 'Rome'],
        ['plain_text', 'Spain', 'Madrid'],
        ['plain_text', '', 'Berlin'],
      ],
    );
  });

  it('notes that a matching question’s options are listed matches first, when they were not', () => {
    const xml = toMoodleXml([{ ...matching, options: ['Berlin', 'Madrid', 'Paris', 'Rome'] }]);
    assert.match(
      xml,
      /<!-- the options' order is not carried: Moodle lists the subquestions' answers \(matches first, then distractors\) -->/,
    );
  });

  it('writes an ordering question with its items in order as fractions 1…n and its grading type, noting the plugin', () => {
    const xml = toMoodleXml([ordering, orderingPartial]);
    const [whole, partial] = questionsOf(xml).filter((q) => q.attrs.type === 'ordering');
    assert.deepEqual(
      answers(whole).map((a) => [a.fraction, a.text]),
      [
        ['1', 'Mercury'],
        ['2', 'Venus'],
        ['3', 'Earth'],
        ['4', 'Mars'],
      ],
    );
    assert.equal(text(whole, 'gradingtype'), 'ALL_OR_NOTHING');
    assert.equal(text(partial, 'gradingtype'), 'LONGEST_ORDERED_SUBSET');
    assert.match(xml, /<!-- ordering is Moodle's qtype_ordering plugin, not core/);
  });

  it('writes a gap_fill as a cloze, each gap an embedded answer with its weight, noting marks Moodle will not keep', () => {
    const xml = toMoodleXml([gapFill]);
    assert.match(
      xml,
      /<!-- Moodle scores a cloze out of the sum of its gaps' weights \(7\), not its defaultgrade \(2\) -->/,
    );
    const q = only(xml);
    assert.equal(q.attrs.type, 'cloze');
    assert.equal(
      text(q, 'questiontext'),
      'Water is {1:SHORTANSWER:=wet~%50%da\\\\*mp} and boils at {2:NUMERICAL:=100:0.5~%25%212} °C, written {1:SHORTANSWER_C:=H2O}, in the {3:MULTICHOICE:%50%solid~=liquid~gas} state.',
    );
  });

  it('writes a drag gap as a drop-down of the chips, and says so', () => {
    const xml = toMoodleXml([gapFillDrag]);
    assert.equal(
      text(only(xml), 'questiontext'),
      '{1:MULTICHOICE:=Banana~Cherry~Plum} is yellow, {1:MULTICHOICE:Banana~=Cherry~Plum} is red.',
    );
    assert.match(xml, /<!-- gap 1: a drag gap written as a drop-down of the chips \(a cloze has no drag\) -->/);
    assert.match(xml, /<!-- each chip used once is not carried: a drop-down may repeat a choice -->/);
  });

  it('writes no question for a hottext, a comment naming what it cannot carry in its place', () => {
    const xml = toMoodleXml([hottext, ordering]);
    assert.deepEqual(
      questionsOf(xml).map((q) => q.attrs.type),
      ['category', 'ordering'],
    );
    assert.match(
      xml,
      /<!-- not exported: "Verbs" is a hottext question \(phrases chosen in the text\), which no Moodle core type holds -->/,
    );
  });
});

describe('Moodle XML round trip of the types with parts: exported, then read, gives the same question', () => {
  for (const q of [matching, matchingHtml, ordering, orderingPartial, gapFill, gapFillHtml]) {
    it(`${q.question_type}: ${q.title}`, () => {
      const [item] = parseMoodleXml(toMoodleXml([q])).items;
      assert.equal(item.status, 'ok', item.message ?? '');
      assert.deepEqual(item.question, expectedDraft(q));
      assert.deepEqual(item.category, q.category);
      assert.deepEqual(item.warnings, []);
    });
  }
});
