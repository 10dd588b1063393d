import assert from 'node:assert/strict';
import { parseMoodleXml, toMoodleXml } from '../../../functions/src/questionTypes/bankFormats';
import { moodleFormula } from '../../../functions/src/questionTypes/calculated/moodleXml';
import { stored, storedAgain } from '../../interchange/storedRoundTrip';

// Moodle's calculated, simple calculated and calculated multichoice: read as calculated (with choices
// for the multichoice), written back as Moodle writes them, and read back equal.

const dataset = (name: string, min: number, max: number, items = 2) =>
  `<dataset_definition><status><text>private</text></status><name><text>${name}</text></name><type>calculated</type>` +
  `<distribution><text>uniform</text></distribution><minimum><text>${min}</text></minimum><maximum><text>${max}</text></maximum>` +
  `<decimals><text>0</text></decimals><itemcount>${items}</itemcount><dataset_items>${Array.from(
    { length: items },
    (_, k) => `<dataset_item><number>${k + 1}</number><value>${min + k}</value></dataset_item>`,
  ).join('')}</dataset_items><number_of_items>${items}</number_of_items></dataset_definition>`;
const answer = (fraction: number, text: string, format = 1, length = 2, feedback = '') =>
  `<answer fraction="${fraction}"><text>${text}</text><tolerance>0.01</tolerance><tolerancetype>1</tolerancetype>` +
  `<correctanswerformat>${format}</correctanswerformat><correctanswerlength>${length}</correctanswerlength>` +
  `<feedback format="html"><text>${feedback}</text></feedback></answer>`;
const multi = (answers: string, single = '1') =>
  `<quiz><question type="calculatedmulti"><name><text>Sum</text></name><questiontext format="html"><text>What is {a} + {b}?</text></questiontext>` +
  `<defaultgrade>1</defaultgrade><synchronize>0</synchronize><single>${single}</single><answernumbering>none</answernumbering>` +
  `<shuffleanswers>1</shuffleanswers>${answers}<dataset_definitions>${dataset('a', 1, 10)}${dataset('b', 11, 20)}</dataset_definitions></question></quiz>`;
const read = (xml: string) => parseMoodleXml(xml).items[0];

describe('moodleXml calculated multichoice: a calculated question with choices', () => {
  it('reads each {=formula} answer as a choice with its grade and decimals, the 100% one the formula', () => {
    const item = read(
      multi(answer(100, '{={a}+{b}}') + answer(0, '{={a}*{b}}', 1, 0) + answer(50, '{={b}-{a}}', 2, 3)),
    );
    assert.equal(item.status, 'ok', item.message ?? '');
    assert.deepEqual(item.question!.choices, [
      { formula: '{a}+{b}', credit: 100, decimals: 2 },
      { formula: '{a}*{b}', credit: 0, decimals: 0 },
      { formula: '{b}-{a}', credit: 50 },
    ]);
    assert.equal(item.question!.formula, '{a}+{b}');
    assert.deepEqual(
      item.question!.variables!.map((v) => [v.name, v.min, v.max]),
      [
        ['a', 1, 10],
        ['b', 11, 20],
      ],
    );
    assert.ok(
      item.warnings.includes(
        "Answer 3 is shown with up to twelve significant digits, not Moodle's 3 significant figures",
      ),
    );
  });

  const CASES: Array<[string, string, 'ok' | 'error', RegExp]> = [
    [
      'text around a formula is warned',
      multi(answer(100, '{={a}+{b}} m') + answer(0, '{={a}*{b}}')),
      'ok',
      /the text around its formula \("m"\) is not carried/,
    ],
    [
      'a negative grade earns 0, warned',
      multi(answer(100, '{={a}+{b}}') + answer(-50, '{={a}*{b}}')),
      'ok',
      /negative grades earn 0/,
    ],
    [
      'several to tick: one chosen, warned',
      multi(answer(50, '{={a}+{b}}') + answer(50, '{={b}-{a}}') + answer(0, '{={a}*{b}}'), '0'),
      'ok',
      /one is chosen/,
    ],
    [
      'answer feedback is named as not carried',
      multi(answer(100, '{={a}+{b}}') + answer(0, '{={a}*{b}}', 1, 2, 'No')),
      'ok',
      /Not carried: the answers' feedback/,
    ],
    ['one answer is an error', multi(answer(100, '{={a}+{b}}')), 'error', /at least two answers/],
    [
      'no 100% answer is an error',
      multi(answer(50, '{={a}+{b}}') + answer(0, '{={a}*{b}}')),
      'error',
      /No answer is worth 100%/,
    ],
    [
      'two formulas in one answer is an error',
      multi(answer(100, '{={a}} and {={b}}') + answer(0, '{={a}*{b}}')),
      'error',
      /holds 2 formulas/,
    ],
    [
      'an invalid grade is an error',
      multi(answer(100, '{={a}+{b}}') + answer(33, '{={a}*{b}}')),
      'error',
      /do not match grade options/,
    ],
    [
      'no datasets is an error',
      multi(answer(100, '{={a}+{b}}') + answer(0, '{={a}*{b}}')).replace(
        /<dataset_definitions>.*<\/dataset_definitions>/,
        '',
      ),
      'error',
      /no wildcard/,
    ],
  ];
  for (const [name, xml, status, expect] of CASES)
    it(name, () => {
      const item = read(xml);
      assert.equal(item.status, status, item.message ?? '');
      assert.match(status === 'ok' ? item.warnings.join('\n') : item.message!, expect);
    });
});

describe('moodleXml calculated written and read back', () => {
  const variables = [
    { name: 'a', min: 1, max: 10, decimals: 0 },
    { name: 'b', min: 0.5, max: 2.5, decimals: 1 },
  ];
  const base = { question_text: 'What is {a} times {b}?', marks: 2, difficulty: 'hard', variables };
  const QUESTIONS: Array<[string, Record<string, unknown>]> = [
    ['calculated, absolute tolerance', { ...base, question_type: 'calculated', formula: '{a} * {b}', tolerance: 0.05 }],
    [
      'calculated, relative tolerance, a formula with pi',
      { ...base, question_type: 'calculated', formula: '{a} * pi()', tolerance: 0.01, tolerance_type: 'relative' },
    ],
    [
      'calculated with choices (calculated multichoice)',
      {
        ...base,
        question_type: 'calculated',
        formula: '{a} * {b}',
        choices: [
          { formula: '{a} * {b}', credit: 100, decimals: 1 },
          { formula: '{a} + {b} + 100', credit: 50 },
          { formula: '{a} - {b} - 100', credit: 0, decimals: 2 },
        ],
      },
    ],
  ];
  for (const [name, input] of QUESTIONS)
    it(`${name}: equal when read back, without a warning`, () => {
      const q = stored(input);
      const xml = toMoodleXml([q.exported]);
      const again = storedAgain(parseMoodleXml(xml));
      assert.deepEqual(again.questions, [q.stored]);
      assert.deepEqual(again.warnings, [[]]);
    });

  it('writes each wildcard’s dataset (range, decimals, ten values within it), synchronize 0 and the formula as Moodle writes it', () => {
    const xml = toMoodleXml([stored(QUESTIONS[0][1]).exported]);
    assert.match(xml, /<question type="calculated">/);
    assert.match(xml, /<synchronize>0<\/synchronize>/);
    assert.match(xml, /<text>\{a\} \* \{b\}<\/text><tolerance>0.05<\/tolerance><tolerancetype>2<\/tolerancetype>/);
    assert.match(
      xml,
      /<name><text>b<\/text><\/name><type>calculated<\/type><distribution><text>uniform<\/text><\/distribution><minimum><text>0.5<\/text><\/minimum><maximum><text>2.5<\/text><\/maximum><decimals><text>1<\/text><\/decimals><itemcount>10<\/itemcount>/,
    );
    const values = [...xml.matchAll(/<dataset_item><number>\d+<\/number><value>([^<]+)<\/value>/g)].map((m) =>
      Number(m[1]),
    );
    assert.equal(values.length, 20);
    assert.ok(
      values.slice(10).every((v) => v >= 0.5 && v <= 2.5 && Math.round(v * 10) === v * 10),
      values.join(),
    );
    assert.match(
      toMoodleXml([stored(QUESTIONS[2][1]).exported]),
      /<question type="calculatedmulti">.*<text>\{=\{a\} \* \{b\}\}<\/text>/s,
    );
  });

  it('writes bare names as Moodle’s wildcards and pi as pi()', () => {
    assert.equal(
      moodleFormula('a * b + pi - abs(a_2) + {a}', ['a', 'b', 'a_2']),
      '{a} * {b} + pi() - abs({a_2}) + {a}',
    );
  });
});
