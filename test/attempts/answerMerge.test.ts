import assert from 'node:assert/strict';
import { appliedAnswer, isStale, judgeAnswers } from '../../functions/src/attempts/answerMerge';
import {
  ATTEMPT_BUDGET_BYTES,
  answerOverBudget,
  attemptBytes,
  firstOverBudget,
} from '../../functions/src/attempts/rules';
import type { StoredAttempt } from '../../functions/src/attempts/documents';
import { SaveAnswersBody } from '../../functions/src/attempts/schemas';
import { validate } from '../../functions/src/shared/validate';

// Pure: how answers sent (one, or a batch; with or without client_seq) meet the
// answers stored, the storage budget of a batch, and how a bad batch is named.
// No emulator needed.

const T0 = '2030-01-01T09:00:00.000Z';
const T1 = '2030-01-01T09:05:00.000Z';

describe('attempts/answerMerge isStale', () => {
  it('is never stale without a client_seq, whatever is stored', () => {
    assert.equal(isStale(undefined, undefined), false);
    assert.equal(isStale({ client_seq: 9 }, undefined), false);
  });
  it('is never stale against nothing stored, or an answer stored without a seq', () => {
    assert.equal(isStale(undefined, 0), false);
    assert.equal(isStale({}, 0), false);
  });
  it('is stale when its seq is not above the stored one (equal or below), fresh above it', () => {
    assert.equal(isStale({ client_seq: 5 }, 4), true);
    assert.equal(isStale({ client_seq: 5 }, 5), true);
    assert.equal(isStale({ client_seq: 5 }, 6), false);
    assert.equal(isStale({ client_seq: 0 }, 0), true);
  });
});

describe('attempts/answerMerge appliedAnswer', () => {
  it('stores the seq sent with the answer', () => {
    assert.deepEqual(
      appliedAnswer(
        { question_id: 'q', student_answer: 'A', client_seq: 3 },
        { answer: 'B', saved_at: T0, client_seq: 2 },
        T1,
      ),
      {
        answer: 'A',
        saved_at: T1,
        client_seq: 3,
      },
    );
  });
  it('keeps the stored seq when saved without one, so a late replay of an older numbered answer stays stale', () => {
    const kept = appliedAnswer(
      { question_id: 'q', student_answer: 'A' },
      { answer: 'B', saved_at: T0, client_seq: 7 },
      T1,
    );
    assert.deepEqual(kept, { answer: 'A', saved_at: T1, client_seq: 7 });
    assert.equal(isStale(kept, 6), true);
  });
  it('stores no client_seq field at all when none was ever sent (the answer as saves always stored it)', () => {
    assert.deepEqual(appliedAnswer({ question_id: 'q', student_answer: 'A' }, undefined, T1), {
      answer: 'A',
      saved_at: T1,
    });
    assert.ok(
      !('client_seq' in appliedAnswer({ question_id: 'q', student_answer: 'A' }, { answer: 'B', saved_at: T0 }, T1)),
    );
  });
});

describe('attempts/answerMerge judgeAnswers', () => {
  const stored = {
    q1: { answer: 'newer', saved_at: T0, client_seq: 5 },
    q2: { answer: 'old', saved_at: T0, client_seq: 1 },
    q3: { answer: 'plain', saved_at: T0 },
  };

  it('applies the fresh, keeps the stale with the answer that stays, in the order sent', () => {
    const judged = judgeAnswers(
      stored,
      [
        { question_id: 'q2', student_answer: 'fresh', client_seq: 2 },
        { question_id: 'q1', student_answer: 'replayed', client_seq: 4 },
        { question_id: 'q3', student_answer: 'numbered', client_seq: 0 },
        { question_id: 'q4', student_answer: 'first' },
      ],
      T1,
    );
    assert.deepEqual(judged, [
      { applied: true, questionId: 'q2', answer: { answer: 'fresh', saved_at: T1, client_seq: 2 } },
      { applied: false, questionId: 'q1', stored: stored.q1 },
      { applied: true, questionId: 'q3', answer: { answer: 'numbered', saved_at: T1, client_seq: 0 } },
      { applied: true, questionId: 'q4', answer: { answer: 'first', saved_at: T1 } },
    ]);
  });

  it('lets the highest seq win whatever order a queue is replayed in', () => {
    const seqs = [3, 1, 4, 2, 0];
    let answers: Record<string, { answer: string; saved_at: string; client_seq?: number }> = {};
    for (const seq of seqs) {
      const [j] = judgeAnswers(answers, [{ question_id: 'q', student_answer: `v${seq}`, client_seq: seq }], T1);
      if (j.applied) answers = { ...answers, q: j.answer };
    }
    assert.equal(answers.q.answer, 'v4');
    assert.equal(answers.q.client_seq, 4);
  });

  it('judges against an attempt with no answers map at all', () => {
    assert.equal(
      judgeAnswers(undefined, [{ question_id: 'q', student_answer: 'A', client_seq: 0 }], T1)[0].applied,
      true,
    );
  });
});

describe('attempts/rules firstOverBudget (a batch measured whole)', () => {
  const path = 'clients/c/attempts/c.x';
  const ids = Array.from({ length: 600 }, (_, i) => `question-${String(i).padStart(4, '0')}`);
  const attempt = (answers: StoredAttempt['answers']): StoredAttempt => ({
    id: 'c.x',
    client_id: 'c',
    test_id: 't',
    version: 1,
    student_id: 's',
    guest: false,
    guest_name: null,
    share_code: null,
    started_by: 's',
    status: 'in_progress',
    started_at: T0,
    expires_at: T1,
    submitted_at: null,
    auto_submitted: false,
    answers,
    question_order: ids,
    token_hash: 'h',
    score: null,
    total_marks: ids.length,
    results: null,
  });
  const long = (n: number) => 'x'.repeat(n);
  // An attempt 3,000 bytes under its budget.
  const near = (() => {
    const a = attempt({});
    for (const id of ids) {
      const room = ATTEMPT_BUDGET_BYTES - 3_000 - attemptBytes(path, a);
      if (room <= 100) break;
      a.answers[id] = { answer: long(Math.min(2_000, room - 60)), saved_at: T0 };
    }
    return a;
  })();
  const free = ids.filter((id) => !near.answers[id]);

  it('agrees with answerOverBudget for one answer', () => {
    for (const size of [10, 2_000]) {
      const change = { questionId: free[0], answer: { answer: long(size), saved_at: T1 } };
      assert.equal(
        firstOverBudget(path, near, [change]) === 0,
        answerOverBudget(path, near, change.questionId, change.answer),
        `size ${size}`,
      );
    }
  });

  it('names the item that takes the attempt past, though each alone would fit', () => {
    const changes = [0, 1, 2].map((i) => ({ questionId: free[i], answer: { answer: long(1_200), saved_at: T1 } }));
    for (const c of changes) assert.equal(answerOverBudget(path, near, c.questionId, c.answer), false);
    assert.equal(firstOverBudget(path, near, changes), 2);
  });

  it('counts what a replaced answer gives back: shortening one makes room for another in the same batch', () => {
    const answered = ids.find((id) => near.answers[id])!;
    const changes = [
      { questionId: answered, answer: { answer: '', saved_at: T1 } },
      { questionId: free[0], answer: { answer: long(1_900), saved_at: T1 } },
      { questionId: free[1], answer: { answer: long(1_900), saved_at: T1 } },
    ];
    assert.equal(firstOverBudget(path, near, changes), -1);
  });
});

describe('validating the answers body: a bad batch names its item', () => {
  const problems = (body: unknown): string[] => {
    try {
      validate(SaveAnswersBody, body, 'body');
    } catch (err) {
      return (err as { details: Array<{ path: string }> }).details.map((d) => d.path);
    }
    return [];
  };
  const item = (i: number, extra: Record<string, unknown> = {}) => ({
    question_id: `q${i}`,
    student_answer: 'A',
    ...extra,
  });

  it('takes one answer, with or without client_seq, and a batch of 1 to 100', () => {
    assert.deepEqual(problems(item(1)), []);
    assert.deepEqual(problems(item(1, { client_seq: 0 })), []);
    assert.deepEqual(problems({ answers: [item(1)] }), []);
    assert.deepEqual(problems({ answers: Array.from({ length: 100 }, (_, i) => item(i, { client_seq: i })) }), []);
  });

  it('names the item at fault, whatever the fault', () => {
    assert.deepEqual(problems({ answers: [item(0), item(1), item(2), { student_answer: 'A' }] }), [
      'body.answers.3.question_id',
    ]);
    assert.deepEqual(problems({ answers: [item(0), item(1, { client_seq: 1.5 })] }), ['body.answers.1.client_seq']);
    assert.deepEqual(problems({ answers: [item(0, { client_seq: -1 })] }), ['body.answers.0.client_seq']);
    assert.deepEqual(problems({ answers: [item(0, { score: 1 })] }), ['body.answers.0']);
    // Past an essay's 10,000 characters no answer is taken; a shorter one is measured against its question's type by the service.
    assert.deepEqual(problems({ answers: [item(0), item(1, { student_answer: 'x'.repeat(10_001) })] }), [
      'body.answers.1.student_answer',
    ]);
  });

  it('names a question answered twice at its second item', () => {
    assert.deepEqual(problems({ answers: [item(0), item(1), item(0)] }), ['body.answers.2.question_id']);
  });

  it('refuses an empty batch, 101 items, and answers that are not a list', () => {
    assert.deepEqual(problems({ answers: [] }), ['body.answers']);
    assert.deepEqual(problems({ answers: Array.from({ length: 101 }, (_, i) => item(i)) }), ['body.answers']);
    assert.deepEqual(problems({ answers: 'A' }), ['body.answers']);
  });

  it('names the field of one answer as before, and a body of neither shape as the body', () => {
    assert.deepEqual(problems(item(1, { client_seq: 'one' })), ['body.client_seq']);
    assert.deepEqual(problems({ question_id: 'q1' }), ['body.student_answer']);
    assert.deepEqual(problems(item(1, { score: 1 })), ['body']);
    assert.deepEqual(problems({ ...item(1), answers: [item(2)] }), ['body']);
    assert.deepEqual(problems(7), ['body']);
  });
});
