import assert from 'node:assert/strict';
import {
  isQuestionType,
  QUESTION_TYPE_MODULES,
  QUESTION_TYPES,
  QuestionInput,
  questionTypeOf,
  typesTaking,
} from '../../functions/src/questionTypes';
import type { QuestionTypeModule } from '../../functions/src/questionTypes';

// Pure: the registry of question types is complete. Every type has every part of
// QuestionTypeModule, so nothing that asks the registry meets a type missing one.

/** Every part of the interface, each a test of its own kind of value. */
const PARTS: Record<keyof QuestionTypeModule, (value: unknown) => boolean> = {
  name: (v) => typeof v === 'string',
  input: (v) => typeof v === 'object' && v !== null && 'safeParse' in v,
  options: (v) => v === 'authored' || v === 'fixed' || v === 'none',
  extras: Array.isArray,
  ownFields: Array.isArray,
  numericKey: (v) => typeof v === 'boolean',
  normalize: (v) => typeof v === 'function',
  normalizeExtras: (v) => typeof v === 'function',
  marking: (v) => v === 'key' || v === 'person' || v === 'none',
  mark: (v) => typeof v === 'function',
  answerProblem: (v) => typeof v === 'function',
  answerParts: (v) => typeof v === 'function',
  partLabels: (v) => typeof v === 'function',
  partOutcomes: (v) => typeof v === 'function',
  shownKey: (v) => typeof v === 'function',
  takerView: (v) => typeof v === 'function',
  derivesKey: (v) => typeof v === 'boolean',
  inputWithKey: (v) => typeof v === 'function',
  keyFields: Array.isArray,
  htmlOptions: (v) => v === null || v === 'one' || v === 'several' || v === 'apart',
  regradeRefusal: (v) =>
    v === null || (typeof v === 'object' && typeof (v as { message?: unknown }).message === 'string'),
};

/** A valid question of each type: the registry's schema takes it. */
const VALID: Record<string, Record<string, unknown>> = {
  multiple_choice: { options: ['Paris', 'Rome'], correct_answer: 'Paris' },
  multiple_select: { options: ['a', 'b', 'c'], correct_answer: 'a|c' },
  true_false: { correct_answer: 'True' },
  short_answer: { correct_answer: 'Hugo' },
  numeric: { correct_answer: '3.14', tolerance: 0.01 },
  essay: { max_words: 300 },
  matching: { stems: ['France', 'Italy'], options: ['Paris', 'Rome', 'Oslo'], matches: ['Paris', 'Rome'] },
  ordering: { options: ['one', 'two', 'three'] },
  gap_fill: {
    question_text: '[[1]] is the capital of [[2]].',
    gaps: [
      { kind: 'select', options: ['Paris', 'Rome'], answers: [{ answer: 'Paris', credit: 100 }] },
      { kind: 'text', answers: [{ answer: 'France', credit: 100 }] },
    ],
  },
  hottext: { question_text: 'Choose the verb: the [[cat]] [[sleeps]].', correct_answer: 'sleeps' },
  calculated: {
    question_text: 'What is {a} × {b}?',
    variables: [
      { name: 'a', min: 1, max: 9, decimals: 0 },
      { name: 'b', min: 1, max: 9, decimals: 1 },
    ],
    formula: '{a} * {b}',
    tolerance: 0.01,
  },
  hotspot: {
    image: { src: '/api/media/c1.abc', width: 400, height: 300 },
    areas: [
      { shape: 'circle', coords: [100, 100, 20], correct: true },
      { shape: 'rect', coords: [200, 50, 260, 120], correct: false },
    ],
    select: 'areas',
  },
  description: { question_text: 'Read the passage below, then answer questions 3 to 5.', marks: 0 },
};
const base = { question_text: 'Q?', marks: 1, difficulty: 'easy' };

describe('questionTypes/registry', () => {
  it('lists every type once, each by its module, in the order of QUESTION_TYPES', () => {
    assert.deepEqual(
      QUESTION_TYPE_MODULES.map((type) => type.name),
      [...QUESTION_TYPES],
    );
    assert.equal(new Set(QUESTION_TYPES).size, QUESTION_TYPES.length);
    for (const name of QUESTION_TYPES) assert.equal(questionTypeOf(name).name, name);
  });

  for (const type of QUESTION_TYPE_MODULES) {
    it(`${type.name}: has every part of the interface, and nothing else`, () => {
      assert.deepEqual(Object.keys(type).sort(), Object.keys(PARTS).sort());
      for (const [part, fits] of Object.entries(PARTS))
        assert.ok(fits(type[part as keyof QuestionTypeModule]), `${type.name}.${part}`);
    });

    it(`${type.name}: its schema is the union's member for its name, and normalizes what it takes`, () => {
      const body = { ...base, question_type: type.name, ...VALID[type.name] };
      assert.ok(VALID[type.name], `a valid ${type.name} question in this test`);
      assert.deepEqual(type.input.parse(body), QuestionInput.parse(body));
      const stored = type.normalize(type.input.parse(body));
      assert.equal(stored.question_type, type.name);
      assert.equal(type.shownKey(stored) === null, type.marking !== 'key');
    });

    it(`${type.name}: its stored key, sent back as its key, is the question it was (what an edit and a regrade start from)`, () => {
      const body = { ...base, question_type: type.name, ...VALID[type.name] };
      const stored = type.normalize(type.input.parse(body));
      const { correct_answer: _sent, ...withoutKey } = body as Record<string, unknown>;
      const again = type.normalize(type.input.parse(type.inputWithKey(withoutKey, stored.correct_answer)));
      assert.deepEqual(again, stored);
    });

    it(`${type.name}: a type without a key (graded by a person, or no answer at all) is refused a regrade; one with a key is not`, () => {
      assert.equal(type.regradeRefusal !== null, type.marking !== 'key');
      assert.ok(!type.keyFields.includes('correct_answer') || type.marking === 'key');
    });
  }

  it('knows its names, and throws on a name it does not hold', () => {
    assert.ok(QUESTION_TYPES.every(isQuestionType));
    for (const name of ['', 'Essay', 'cloze', 42, undefined]) assert.equal(isQuestionType(name), false, String(name));
    assert.throws(() => questionTypeOf('cloze'), /Unknown question type "cloze"/);
  });

  it('names the types that take a field, in its order', () => {
    assert.deepEqual(typesTaking('option_credits'), ['multiple_select']);
    assert.deepEqual(typesTaking('alternatives'), ['short_answer', 'numeric']);
    assert.deepEqual(typesTaking('case_sensitive'), ['short_answer']);
    assert.deepEqual(typesTaking('option_feedback'), ['multiple_choice', 'multiple_select', 'true_false']);
    assert.deepEqual(typesTaking('tolerance'), ['numeric', 'calculated']);
    assert.deepEqual(typesTaking('max_words'), ['essay']);
    assert.deepEqual(typesTaking('gaps'), ['gap_fill']);
    assert.deepEqual(typesTaking('stems'), ['matching']);
  });
});
