import assert from 'node:assert/strict';
import { embeddedAnswerOf, gapsOfText } from '../../../functions/src/questionTypes/gapFill/cloze';
import { Refusal, type GapDraft } from '../../../functions/src/interchange/model';

// Pure: Moodle's embedded answers ({weight:TYPE:alternatives}) read into gaps and written from them.

const read = (text: string, html = false) => {
  const warnings: string[] = [];
  return { ...gapsOfText(text, html, warnings), warnings };
};
const gapOf = (embedded: string, html = false): GapDraft => {
  const { gaps } = read(`x ${embedded} y`, html);
  assert.equal(gaps.length, 1);
  return gaps[0];
};

describe('moodleXml/cloze gapsOfText: an embedded answer as a gap', () => {
  const cases: Array<[string, string, GapDraft]> = [
    [
      'MULTICHOICE: a drop-down of the choices, = right, %n% partial, plain 0%',
      '{1:MULTICHOICE:=a~%50%b~c}',
      {
        kind: 'select',
        options: ['a', 'b', 'c'],
        answers: [
          { answer: 'a', credit: 100 },
          { answer: 'b', credit: 50 },
        ],
      },
    ],
    [
      'MC_VS and the short spellings are drop-downs too',
      '{1:MCVS:x~=y}',
      { kind: 'select', options: ['x', 'y'], answers: [{ answer: 'y', credit: 100 }] },
    ],
    [
      'SHORTANSWER: typed text',
      '{1:SHORTANSWER:=Paris}',
      { kind: 'text', answers: [{ answer: 'Paris', credit: 100 }] },
    ],
    [
      'SA with no weight given: weight 1',
      '{:SA:=Paris}',
      { kind: 'text', answers: [{ answer: 'Paris', credit: 100 }] },
    ],
    [
      'SHORTANSWER_C and MWC: case-sensitive',
      '{1:MWC:=Rome}',
      { kind: 'text', case_sensitive: true, answers: [{ answer: 'Rome', credit: 100 }] },
    ],
    [
      'NUMERICAL: value:tolerance, the tolerance absent when not written',
      '{2:NM:=3.5:0.1~%50%4}',
      {
        kind: 'numeric',
        weight: 2,
        answers: [
          { answer: '3.5', credit: 100, tolerance: 0.1 },
          { answer: '4', credit: 50 },
        ],
      },
    ],
    [
      'escapes: \\} \\~ \\# \\/ \\" \\\\ are the characters',
      '{1:SA:=a\\}b\\~c\\#d\\/e\\"f\\\\g}',
      { kind: 'text', answers: [{ answer: 'a}b~c#d/e"f\\g', credit: 100 }] },
    ],
    [
      'an escaped star \\* is a literal one',
      '{1:SA:=a\\\\*b}',
      { kind: 'text', answers: [{ answer: 'a*b', credit: 100 }] },
    ],
    [
      'a 0% answer (there for its feedback) and a 0% * are left out',
      '{1:SA:=yes~no#wrong~*#anything else}',
      { kind: 'text', answers: [{ answer: 'yes', credit: 100 }] },
    ],
    [
      'MULTIRESPONSE: a drop-down accepting each right choice',
      '{1:MR:=a~b~=c}',
      {
        kind: 'select',
        options: ['a', 'b', 'c'],
        answers: [
          { answer: 'a', credit: 100 },
          { answer: 'c', credit: 100 },
        ],
      },
    ],
  ];
  for (const [name, embedded, gap] of cases)
    it(name, () => {
      assert.deepEqual(gapOf(embedded), gap);
    });

  it('numbers the gaps [[1]], [[2]]… in the order of the text', () => {
    const { text, gaps } = read('A {1:SA:=x} B {1:NM:=2} C');
    assert.equal(text, 'A [[1]] B [[2]] C');
    assert.deepEqual(
      gaps.map((g) => g.kind),
      ['text', 'numeric'],
    );
  });

  it('in an HTML text reads answers as HTML, naming markup dropped; one answer of a text', () => {
    const { gaps, warnings } = read('<p>{1:SA:=H<sub>2</sub>O~=H2O~=a &amp; b}</p>', true);
    assert.deepEqual(gaps[0].answers, [
      { answer: 'H2O', credit: 100 },
      { answer: 'a & b', credit: 100 },
    ]);
    assert.deepEqual(warnings, [
      'Gap 1 (SA): the markup of the answer "H<sub>2</sub>O" was dropped (answers are plain text)',
    ]);
  });

  it('names each gap whose answers’ feedback is lost in one warning, and a negative grade', () => {
    const { warnings } = read('{1:SA:=a#yes} {1:MC:=b~%-50%c} {1:NM:=1#one}');
    assert.deepEqual(warnings, [
      'Gap 2 (MC): "c" (-50%) cannot take marks away here: they score 0',
      "The answers' feedback of gaps 1, 3 is not carried (gaps have no per-answer feedback)",
    ]);
  });

  const refusals: Array<[string, string, string]> = [
    ['no embedded answer', 'Plain text.', 'Its text has no embedded answers'],
    ['a text already holding [[n]]', 'See [[1]] and {1:SA:=x}', 'Its text already holds a [[n]]'],
    ['a gap without answers', '{1:MULTICHOICE}', 'Gap 1 (MULTICHOICE) has no answers ({1:MULTICHOICE})'],
    ['a drop-down of one choice', '{1:MC:=a}', 'Gap 1 (MC) has only 1 choice: a drop-down needs two'],
    ['a choice twice', '{1:MC:=a~a}', 'Gap 1 (MC) has the choice "a" twice'],
    ['no answer worth 100%', '{1:SA:%50%a}', 'Gap 1 (SA): no answer is worth 100%'],
    ['a grade over 100%', '{1:SA:%150%a}', 'Gap 1 (SA): the grade 150% is more than 100%'],
    ['a number that is not one', '{1:NM:=ten}', 'Gap 1 (NM): "ten" is not a number (or a number:tolerance)'],
    ['a tolerance that is not one', '{1:NM:=10:x}', 'Gap 1 (NM): "x" is not a tolerance'],
    ['a credited wildcard', '{1:SA:=ab*}', 'Gap 1 (SA): the answer "ab*" uses Moodle\'s * wildcard, not carried'],
    ['weight 0', '{0:SA:=a}', "Gap 1 (SA) has weight 0: a gap's weight must be more than 0"],
    ['a type cloze has not', '{1:ESSAY:=a}', 'Gap 1 (ESSAY): "ESSAY" is not a subquestion type of Moodle\'s cloze'],
    ['a MULTIRESPONSE with nothing right', '{1:MR:a~b}', 'Gap 1 (MR): no choice is worth anything'],
  ];
  for (const [name, text, message] of refusals)
    it(`refuses ${name}, naming it`, () => {
      assert.throws(
        () => read(text),
        (error: unknown) => error instanceof Refusal && error.message.startsWith(message),
      );
    });
});

describe('moodleXml/cloze embeddedAnswerOf: a gap as an embedded answer', () => {
  const cases: Array<[string, GapDraft, boolean, string, string[]]> = [
    [
      'a text gap: =right, %n%partial',
      {
        kind: 'text',
        answers: [
          { answer: 'a', credit: 100 },
          { answer: 'b', credit: 50 },
        ],
      },
      false,
      '{1:SHORTANSWER:=a~%50%b}',
      [],
    ],
    [
      'a star written as Moodle’s literal one (\\* escaped: \\\\*), never its wildcard',
      { kind: 'text', answers: [{ answer: 'a*b', credit: 100 }] },
      false,
      '{1:SHORTANSWER:=a\\\\*b}',
      [],
    ],
    [
      'a case-sensitive one',
      { kind: 'text', case_sensitive: true, answers: [{ answer: 'A', credit: 100 }] },
      false,
      '{1:SHORTANSWER_C:=A}',
      [],
    ],
    [
      'a numeric gap with its tolerances (none written when it has none) and weight',
      {
        kind: 'numeric',
        weight: 3,
        answers: [
          { answer: '1e-7', credit: 100, tolerance: 0.00000001 },
          { answer: '2', credit: 10 },
        ],
      },
      false,
      '{3:NUMERICAL:=1e-7:0.00000001~%10%2}',
      [],
    ],
    [
      'a select gap: its options in order, the accepted ones graded',
      { kind: 'select', options: ['x', 'y', 'z'], answers: [{ answer: 'z', credit: 100 }] },
      false,
      '{1:MULTICHOICE:x~y~=z}',
      [],
    ],
    [
      "Moodle's escapes, and in HTML the answer's & < > as references",
      { kind: 'text', answers: [{ answer: 'a}b~c#d<e&', credit: 100 }] },
      true,
      '{1:SHORTANSWER:=a\\}b\\~c\\#d&lt;e&amp;}',
      [],
    ],
    [
      'a weight that is not whole, rounded and said',
      { kind: 'text', weight: 1.5, answers: [{ answer: 'a', credit: 100 }] },
      false,
      '{2:SHORTANSWER:=a}',
      ["gap 1: weight 1.5 written as 2 (Moodle's are whole numbers)"],
    ],
  ];
  for (const [name, gap, html, text, notes] of cases)
    it(name, () => {
      assert.deepEqual(embeddedAnswerOf(gap, 1, html, []), { text, notes });
    });

  it('writes a drag gap as a drop-down of the question’s chips, and says so', () => {
    assert.deepEqual(
      embeddedAnswerOf({ kind: 'drag', answers: [{ answer: 'b', credit: 100 }] }, 2, false, ['a', 'b']),
      {
        text: '{1:MULTICHOICE:a~=b}',
        notes: ['gap 2: a drag gap written as a drop-down of the chips (a cloze has no drag)'],
      },
    );
  });
});
