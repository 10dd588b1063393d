import assert from 'node:assert/strict';
import { matching } from '../../../functions/src/questionTypes/matching/module';
import { assertMarking } from '../cases';
import { assertRefusals } from '../refusals';

// Pure: a matching question: right stems ÷ stems (Moodle's match grade_response), its schema's refusals.

const key = { options: ['Paris', 'Rome', 'Oslo', 'Bern'], correct_answer: '["Paris","Rome","Oslo"]' };

describe('questionTypes/matching mark: per stem', () => {
  assertMarking(matching, key, [
    ['every stem right earns the marks', {}, '["Paris","Rome","Oslo"]', 1],
    ['compared as options are (case, spacing)', {}, '[" paris","ROME","oslo "]', 1],
    ['two of three stems', {}, '["Paris","Rome",""]', 2 / 3],
    ['a wrong stem is a wrong part', {}, '["Paris","Bern","Oslo"]', { share: 2 / 3, wrong: 1 / 3 }],
    ['every stem wrong', {}, '["Rome","Paris","Bern"]', { share: 0, wrong: 1 }],
    ['every stem blank earns nothing, charges nothing', {}, '["","",""]', 0],
    ['an answer of another length cannot be read', {}, '["Paris","Rome"]', 0],
    ['an answer that is not JSON cannot be read', {}, 'Paris|Rome|Oslo', 0],
    ['a part that is not a string cannot be read', {}, '["Paris",1,"Oslo"]', 0],
  ]);
});

const valid = {
  question_type: 'matching',
  question_text: 'Match each country to its capital',
  marks: 3,
  difficulty: 'easy',
  stems: ['France', 'Italy', 'Norway'],
  options: ['Paris', 'Rome', 'Oslo', 'Bern'],
  matches: ['paris', 'Rome', 'Oslo'],
};

describe('questionTypes/matching schema', () => {
  assertRefusals(valid, [
    [
      'a match to no option',
      { matches: ['Paris', 'Rome', 'Madrid'] },
      'matches.2',
      /"Madrid" is not one of the options/,
    ],
    ['fewer matches than stems', { matches: ['Paris', 'Rome'] }, 'matches', /one match per stem \(3\)/],
    ['one stem', { stems: ['France'], matches: ['Paris'] }, 'stems', /at least 2|>=2/i],
    ['a stem twice', { stems: ['France', 'france', 'Norway'] }, 'stems.1', /Duplicates stem 1/],
    ['an option twice', { options: ['Paris', 'Rome', 'Oslo', 'paris'] }, 'options.3', /Duplicates option 1/],
    ['a correct_answer (its key is matches)', { correct_answer: 'Paris' }, '', /its key is matches/],
  ]);

  it('stores its matches spelled as the options, and the key as their JSON array text', () => {
    const input = matching.input.parse(valid);
    assert.equal(matching.normalize(input).correct_answer, '["Paris","Rome","Oslo"]');
    assert.deepEqual(matching.normalizeExtras(input), {
      stems: ['France', 'Italy', 'Norway'],
      matches: ['Paris', 'Rome', 'Oslo'],
    });
  });

  it('shows a taker its stems and options, never its matches', () => {
    const view = matching.takerView(
      {
        id: 'q',
        options: ['Paris', 'Rome'],
        tolerance: null,
        stems: ['France', 'Italy'],
        matches: ['Paris', 'Rome'],
      } as never,
      'seed',
    );
    assert.deepEqual(view, { options: ['Paris', 'Rome'], stems: ['France', 'Italy'] });
  });

  it('counts the options an answer chose', () => {
    assert.deepEqual(matching.answerParts('["Paris","","Oslo"]'), ['Paris', 'Oslo']);
    assert.deepEqual(matching.answerParts('not json'), []);
  });
});
