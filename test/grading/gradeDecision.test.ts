import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StoredAttempt } from '../../functions/src/attempts/documents';
import type { VersionForAttempt } from '../../functions/src/attempts/rules';
import { decideGrade } from '../../functions/src/grading/gradeDecision';

// decideGrade alone: no emulator, no Firebase. A grade's effect on the attempt
// is decided from the attempt and its paper as read.

const NOW = '2030-01-10T12:00:00.000Z';
const question = (id: string, type: string, marks: number, correct = '') =>
  ({
    id,
    question_text: id,
    question_type: type,
    options: [],
    correct_answer: correct,
    tolerance: null,
    marks,
    difficulty: 'easy',
  }) as VersionForAttempt['questions'][number];

const paper: VersionForAttempt = {
  version: 1,
  test_id: 't1',
  total_marks: 6,
  revision: 2,
  test: {
    test_name: 'Essays',
    timer: 30,
    shuffle: 0,
    allow_review: 0,
    negative_marking: 0,
    description: null,
    max_attempts: null,
    negative_mark_ratio: 0,
    question_ids: ['q1', 'e1', 'e2'],
  },
  questions: [question('q1', 'short_answer', 2, 'yes'), question('e1', 'essay', 2), question('e2', 'essay', 2)],
};

const saved = (answer: string) => ({ answer, saved_at: '2030-01-10T11:00:00.000Z' });
const attempt = (fields: Partial<StoredAttempt> = {}): StoredAttempt =>
  ({
    id: 'c1.a1',
    client_id: 'c1',
    test_id: 't1',
    student_id: 's1',
    version: 1,
    status: 'submitted',
    started_at: '2030-01-10T10:50:00.000Z',
    expires_at: '2030-01-10T11:20:00.000Z',
    answers: { q1: saved('yes'), e1: saved('An essay.'), e2: saved('Another.') },
    ...fields,
  }) as StoredAttempt;

const grade = (questionId: string, marks: number, feedback: string | null = null) => ({
  questionId,
  marks,
  feedback,
  gradedBy: 'teacher',
});
const PATH = 'clients/c1/attempts/c1.a1';

describe('decideGrade', () => {
  it('stores the grade and rescores: the graded marks count, the other essay stays pending', () => {
    const decision = decideGrade({ attempt: attempt(), paper, path: PATH }, grade('e1', 1.5, 'Good'), NOW);
    assert.ok('grade' in decision);
    const { fields, after, previous } = decision.grade;
    assert.deepEqual(fields.grades, { e1: { marks: 1.5, feedback: 'Good', graded_by: 'teacher', graded_at: NOW } });
    assert.equal(after.score, 3.5);
    assert.equal(after.grading, 'pending');
    assert.equal(after.pending_marks, 2);
    assert.equal(fields.key_revision, 2);
    assert.equal(previous, null);
  });

  it('completes the grading with the last essay, keeping the grades given before', () => {
    const graded = attempt({ grades: { e1: { marks: 2, feedback: null, graded_by: 'teacher', graded_at: NOW } } });
    const decision = decideGrade({ attempt: graded, paper, path: PATH }, grade('e2', 1), NOW);
    assert.ok('grade' in decision);
    assert.deepEqual(Object.keys(decision.grade.fields.grades ?? {}).sort(), ['e1', 'e2']);
    assert.equal(decision.grade.after.score, 5);
    assert.equal(decision.grade.after.grading, 'complete');
  });

  it('answers the marks it replaces and records essay_graded with the before and after', () => {
    const graded = attempt({ grades: { e1: { marks: 2, feedback: null, graded_by: 'teacher', graded_at: NOW } } });
    const decision = decideGrade({ attempt: graded, paper, path: PATH }, grade('e1', 0.5), NOW);
    assert.ok('grade' in decision);
    assert.equal(decision.grade.previous, 2);
    assert.deepEqual(decision.grade.audit, {
      type: 'essay_graded',
      userId: 's1',
      clientId: 'c1',
      actorId: 'teacher',
      details: {
        attempt_id: 'c1.a1',
        test_id: 't1',
        question_id: 'e1',
        marks: 0.5,
        previous_marks: 2,
        score: 2.5,
        grading: 'pending',
      },
    });
  });

  it('refuses with PAYLOAD_TOO_LARGE, naming body.feedback, when the feedback would take the attempt past one document', () => {
    const decision = decideGrade({ attempt: attempt(), paper, path: PATH }, grade('e1', 1, 'x'.repeat(1_100_000)), NOW);
    assert.ok('refusal' in decision);
    assert.equal(decision.refusal.code, 'PAYLOAD_TOO_LARGE');
    assert.equal(decision.refusal.details?.[0].path, 'body.feedback');
  });
});

describe('gradeDecision.ts', () => {
  it('imports nothing of Firebase', () => {
    const text = readFileSync(join(__dirname, '..', '..', 'functions', 'src', 'grading', 'gradeDecision.ts'), 'utf8');
    assert.doesNotMatch(
      text,
      /from\s+['"](firebase|@google-cloud|\.\.\/firestore|\.\.\/attempts\/frozenReads|\.\/store)/,
    );
  });
});
