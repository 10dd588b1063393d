import assert from 'node:assert/strict';
import type { ExportQuestion } from '../../functions/src/interchange/exportModel';
import { giftQuestion } from '../../functions/src/questionTypes/formats/gift';
import { moodleQuestion } from '../../functions/src/questionTypes/formats/moodleXml';

// GIFT and Moodle XML have no link from a question to its passage: the export says so on the
// question, which is written as ever (docs/question-types.md, "Passages").

const question: ExportQuestion = {
  id: 'q1',
  question_type: 'true_false',
  question_text: 'Did the fox run?',
  options: ['True', 'False'],
  correct_answer: 'True',
  tolerance: null,
  max_words: null,
  marks: 1,
  difficulty: 'easy',
  category: null,
  passage_id: 'p1',
};

describe('interchange: a passage GIFT and Moodle XML cannot link', () => {
  it('GIFT: a comment on the question, the question written', () => {
    const gift = giftQuestion(question);
    assert.match(gift, /^\/\/ passage: this format cannot link a question/m);
    assert.match(gift, /Did the fox run\?\{TRUE/);
    assert.doesNotMatch(giftQuestion({ ...question, passage_id: null }), /passage:/);
  });
  it('Moodle XML: a comment before the question, the question written', () => {
    const xml = moodleQuestion(question, new Map());
    assert.match(xml, /<!-- passage: this format cannot link a question/);
    assert.match(xml, /<question type="truefalse">/);
  });
});
