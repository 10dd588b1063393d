import { writeQuestion, type QuestionFixture } from '../exams/fixtures';
import { publishTest } from '../attempts/fixtures';

// A published test with one multiple-choice question (2 marks, key "4") and
// essays, for the grading and regrading tests.

export async function essayQuestion(
  clientId: string,
  overrides: { marks?: number; max_words?: number | null; question_text?: string } = {},
): Promise<QuestionFixture> {
  return writeQuestion(clientId, {
    question_type: 'essay' as QuestionFixture['question_type'],
    question_text: overrides.question_text ?? 'Explain photosynthesis',
    options: [],
    correct_answer: '',
    marks: overrides.marks ?? 10,
    ...({ max_words: overrides.max_words === undefined ? 50 : overrides.max_words } as object),
  });
}

export async function essayTest(adminToken: string, clientId: string, essays = 1, extra: Record<string, unknown> = {}) {
  const choice = await writeQuestion(clientId, {
    question_text: 'What is 2 + 2?',
    options: ['3', '4', '5'],
    correct_answer: '4',
    marks: 2,
  });
  const written = await Promise.all(
    Array.from({ length: essays }, (_, i) => essayQuestion(clientId, { question_text: `Essay ${i + 1}` })),
  );
  const { test } = await publishTest(adminToken, clientId, { questions: [choice, ...written], extra });
  return { test, choice, essays: written };
}
