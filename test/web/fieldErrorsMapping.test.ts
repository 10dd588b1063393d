import assert from 'node:assert/strict';
import { duplicateOption, fieldOfPath, isNumberText, plainMessage, problemsOf } from '../../web/src/fieldErrors';
import { parseNumberText } from '../../functions/src/shared/numberText';

describe('web fieldErrors: fieldOfPath', () => {
  const fields = ['closes_at', 'options', 'pools', 'pools.0', 'pools.0.draw', 'question_ids'];

  it('names the field of a body path, and of an item inside it', () => {
    assert.equal(fieldOfPath('body.closes_at', fields), 'closes_at');
    assert.equal(fieldOfPath('body.options.2', fields), 'options');
  });

  it('reads a bare path as a publish refusal writes it', () => {
    assert.equal(fieldOfPath('question_ids', fields), 'question_ids');
    assert.equal(fieldOfPath('pools.0', fields), 'pools.0');
  });

  it('prefers the longest field the path lies in', () => {
    assert.equal(fieldOfPath('body.pools.0.draw', fields), 'pools.0.draw');
    assert.equal(fieldOfPath('body.pools.0.folder_id', fields), 'pools.0');
    assert.equal(fieldOfPath('body.pools.1.draw', fields), 'pools');
  });

  it('names no field for a path the form does not edit, or a prefix that is not a whole segment', () => {
    assert.equal(fieldOfPath('body.option_feedback', fields), null);
    assert.equal(fieldOfPath('body.closes_at_extra', fields), null);
    assert.equal(fieldOfPath('query.client_id', fields), null);
  });
});

describe('web fieldErrors: plainMessage', () => {
  const labels = { opens_at: 'Opens at', closes_at: 'Closes at' };

  it('says what to do for the window the service refuses, with the form’s labels', () => {
    assert.equal(plainMessage('Must be after opens_at', labels), 'Choose a time after “Opens at”.');
    assert.match(
      plainMessage('closes_at (2030-01-01T00:00:00.000Z) must be after opens_at (2030-01-02T00:00:00.000Z)', labels),
      /^Choose “Closes at” after “Opens at”/,
    );
  });

  it('rewrites zod’s bounds as sentences', () => {
    assert.equal(plainMessage('Too small: expected number to be >0'), 'Enter a number greater than 0.');
    assert.equal(plainMessage('Too big: expected number to be <=1440'), 'Enter a number of at most 1440.');
    assert.equal(plainMessage('Too small: expected string to have >=1 characters'), 'Fill this in.');
    assert.equal(plainMessage('Invalid input: expected int, received number'), 'Enter a whole number.');
  });

  it('rewrites the question checks and the publish refusals', () => {
    assert.match(plainMessage('Duplicates option 1 ("Paris")'), /“Paris” is written twice/);
    assert.match(plainMessage('Must be one of the options'), /Choose the correct answer/);
    assert.match(plainMessage('A test needs at least one question to be published'), /^Add at least one question/);
    assert.match(
      plainMessage('Pool 1 draws 3 questions but holds 2 (its folder’s, less any also fixed or in an earlier pool)'),
      /can draw at most 2/,
    );
  });

  it('keeps any other message, its field names read as labels, as a sentence', () => {
    assert.equal(plainMessage('closes_at is odd', labels), '“Closes at” is odd.');
  });
});

describe('web fieldErrors: problemsOf', () => {
  it('sorts details into the form’s fields, in plain words, and keeps the rest', () => {
    const problems = problemsOf(
      [
        { path: 'body.closes_at', message: 'Must be after opens_at' },
        { path: 'body.seb_config_keys.0', message: 'Too small: expected string to have >=64 characters' },
      ],
      { opens_at: 'Opens at', closes_at: 'Closes at' },
    );
    assert.deepEqual(problems.fields, { closes_at: ['Choose a time after “Opens at”.'] });
    assert.deepEqual(
      problems.rest.map((d) => d.path),
      ['body.seb_config_keys.0'],
    );
  });
});

describe('web fieldErrors: the form’s own checks', () => {
  it('finds an option repeated as the service compares them (case and spacing aside)', () => {
    assert.deepEqual(duplicateOption(['Paris', 'Rome', ' paris ']), { option: ' paris ', first: 1, again: 3 });
    assert.equal(duplicateOption(['Paris', 'Rome']), null);
  });

  it('accepts as a numeric key exactly what the service does', () => {
    for (const text of ['3.14', '-2', '.5', '1e3', ' 7 ', '1,41', 'Rome', '', '1.2.3', 'Infinity', '0x10'])
      assert.equal(isNumberText(text), parseNumberText(text) !== undefined, text);
  });
});
