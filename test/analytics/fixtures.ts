import assert from 'node:assert/strict';
import { startOk } from '../attempts/fixtures';
import { as } from '../exams/fixtures';
import type { TestUser } from '../support/fixtures';
import { get, post, type ApiResponse } from '../support/http';

export const analytics = (token: string, testId: string, query = ''): Promise<ApiResponse> =>
  get(`/api/analytics/tests/${testId}${query}`, as(token));

/** Starts, answers (question text → answer) and submits as `student`; answers the score. */
export async function take(student: TestUser, testId: string, answers: Record<string, string>): Promise<number> {
  const started = await startOk(student.token, { test_id: testId });
  for (const q of started.test_details.questions as Array<{ id: string; question_text: string }>) {
    if (answers[q.question_text] === undefined) continue;
    const saved = await post(
      `/api/attempts/${started.attempt_id}/answers`,
      { question_id: q.id, student_answer: answers[q.question_text] },
      as(student.token),
    );
    assert.equal(saved.status, 200, saved.text);
  }
  const submitted = await post(`/api/attempts/${started.attempt_id}/submit`, undefined, as(student.token));
  assert.equal(submitted.status, 200, submitted.text);
  return submitted.body.score;
}
