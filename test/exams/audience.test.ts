import assert from 'node:assert/strict';
import { MAX_CLASSES_PER_STUDENT } from '../../functions/src/classes/documents';
import { audienceOf, listAudience, withAudience } from '../../functions/src/exams/audience';
import { testOpenToStudent } from '../../functions/src/auth/policy';

// The audience stored on a test and the one a student's list asks for: a test is in
// the list exactly when the policy says it is open to the student.

describe('audienceOf', () => {
  it('is the whole organization for no class, else the classes', () => {
    assert.deepEqual(audienceOf([]), ['*']);
    assert.deepEqual(audienceOf(undefined), ['*']);
    assert.deepEqual(audienceOf(['a', 'b']), ['a', 'b']);
  });
});

describe('listAudience', () => {
  it('asks for the organization’s marker and the student’s classes, each once', () => {
    assert.deepEqual(listAudience([]), ['*']);
    assert.deepEqual(listAudience(['a', 'b', 'a']), ['*', 'a', 'b']);
  });

  it('stays within Firestore’s 30 values of array-contains-any, even for a profile past its bound', () => {
    assert.ok(MAX_CLASSES_PER_STUDENT + 1 <= 30);
    assert.equal(listAudience(Array.from({ length: 40 }, (_, i) => `c${i}`)).length, 30);
  });

  it('finds a test exactly when the policy opens it to the student', () => {
    const students = [[], ['a'], ['b'], ['a', 'c'], ['c']];
    const tests = [[], ['a'], ['a', 'b'], ['c']];
    for (const classIds of students) {
      for (const assigned of tests) {
        const listed = audienceOf(assigned).some((value) => listAudience(classIds).includes(value));
        assert.equal(
          listed,
          testOpenToStudent({ assigned_class_ids: assigned }, classIds),
          `${classIds} / ${assigned}`,
        );
      }
    }
  });
});

describe('withAudience', () => {
  it('gives a test stored before assignments none, open to all, and derives the audience on every write', () => {
    assert.deepEqual(withAudience({ id: 't' }), { id: 't', assigned_class_ids: [], audience: ['*'] });
    assert.deepEqual(withAudience({ id: 't', assigned_class_ids: ['a'], audience: ['*'] }), {
      id: 't',
      assigned_class_ids: ['a'],
      audience: ['a'],
    });
  });
});
