import assert from 'node:assert/strict';
import type { StoredAttempt } from '../../../functions/src/attempts/documents';
import { agsScore, scoresUrl } from '../../../functions/src/lti/grades/agsScore';
import { scoreTargets } from '../../../functions/src/lti/grades/scorePlan';
import type { StoredLtiOutcome } from '../../../functions/src/lti/documents';

const attempt = (over: Partial<StoredAttempt>): StoredAttempt =>
  ({
    status: 'submitted',
    score: 7,
    total_marks: 10,
    grading: null,
    submitted_at: '2026-01-01T00:00:00.000Z',
    ...over,
  }) as StoredAttempt;

describe('agsScore', () => {
  const at = '2026-03-01T10:00:00.000Z';

  it('posts a score without essays as FullyGraded, Completed, with the event’s timestamp', () => {
    assert.deepEqual(agsScore(attempt({ final_score: 7 }), 'sub-1', at), {
      userId: 'sub-1',
      scoreGiven: 7,
      scoreMaximum: 10,
      timestamp: at,
      activityProgress: 'Completed',
      gradingProgress: 'FullyGraded',
    });
  });

  it('posts the marks given so far as PendingManual while essays wait', () => {
    const score = agsScore(attempt({ score: 2, total_marks: 12, grading: 'pending' }), 'sub-1', at);
    assert.equal(score.gradingProgress, 'PendingManual');
    assert.equal(score.scoreGiven, 2);
    assert.equal(score.scoreMaximum, 12);
  });

  it('posts the final score once the essays are graded', () => {
    const score = agsScore(attempt({ score: 9, final_score: 9, total_marks: 12, grading: 'complete' }), 's', at);
    assert.equal(score.gradingProgress, 'FullyGraded');
    assert.equal(score.scoreGiven, 9);
  });

  it('leaves out scoreGiven and scoreMaximum for a test worth nothing (a platform refuses a maximum of 0)', () => {
    const score = agsScore(attempt({ score: 0, total_marks: 0 }), 's', at);
    assert.equal('scoreGiven' in score, false);
    assert.equal('scoreMaximum' in score, false);
  });
});

describe('scoresUrl', () => {
  it('appends /scores to the path, before the query string', () => {
    assert.equal(
      scoresUrl('https://lms.example/mod/lti/services.php/2/lineitems/5/lineitem?type_id=1'),
      'https://lms.example/mod/lti/services.php/2/lineitems/5/lineitem/scores?type_id=1',
    );
    assert.equal(
      scoresUrl('https://canvas.example/api/lti/courses/1/line_items/9'),
      'https://canvas.example/api/lti/courses/1/line_items/9/scores',
    );
    assert.equal(scoresUrl('https://lms.example/items/9/'), 'https://lms.example/items/9/scores');
  });

  it('throws for a line item that is not a URL', () => {
    assert.throws(() => scoresUrl('not a url'));
  });
});

describe('scoreTargets', () => {
  const outcome = (lineitem: string, sub: string): StoredLtiOutcome => ({
    platform_id: 'p',
    lineitem,
    user_sub: sub,
    updated_at: '',
  });

  it('keeps one score per line item and user: the attempt submitted last', () => {
    const older = {
      attempt: attempt({ id: 'a1', submitted_at: '2026-01-01T00:00:00.000Z' }),
      outcome: outcome('L', 's'),
    };
    const newer = {
      attempt: attempt({ id: 'a2', submitted_at: '2026-01-02T00:00:00.000Z' }),
      outcome: outcome('L', 's'),
    };
    const other = { attempt: attempt({ id: 'a3' }), outcome: outcome('L', 't') };
    assert.deepEqual(
      scoreTargets([newer, older, other]).map((e) => e.attempt.id),
      ['a2', 'a3'],
    );
  });
});
