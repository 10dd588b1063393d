import { documentSize, type FrozenQuestion, MAX_DOCUMENT_BYTES, type TestVersion, valueSize } from '../exams';
import { isAnswer, scoreAttempt, type ScoringQuestion } from './scoring';
import { orderForAttempt, passageBlocks } from './shuffle';
import { questionTypeOf } from '../questionTypes';
import { percentageOf, round4 } from '../shared';
import type { StopReason, StoredAnswer, StoredAttempt, StoredGradingItem, SubmittedBy } from './documents';
import {
  MAX_ANSWER_LENGTH,
  type AttemptPassage,
  type AttemptStatus,
  type AttemptQuestion,
  type TestDetails,
} from './schemas';

// Pure: the rules of an attempt's life (deadline, grace, closing, what the
// taker sees), shared by the request handlers and the scheduled closer. No
// Firebase import.

/** Answers are taken until this long after expires_at, by the server's clock only. */
export const GRACE_MS = 30_000;

const STOP_MESSAGES: Record<StopReason, string> = {
  test_archived:
    'This test has been archived: no more answers are taken; submit the attempt to have the answers saved so far scored',
  share_code_revoked:
    'The share code this attempt was started with has been revoked: no more answers are taken; submit the attempt to have the answers saved so far scored',
};

/** Why answers to this attempt are refused (409), or null while it takes them (as far as being stopped goes). */
export const stopMessage = (attempt: Pick<StoredAttempt, 'stopped'>): string | null =>
  attempt.stopped ? STOP_MESSAGES[attempt.stopped.reason] : null;

/**
 * The organization an attempt id names: ids are `<clientId>.<random>`, so the
 * attempt's organization is known before the attempt is read. Undefined for an
 * id of another shape (which names no attempt).
 */
export function organizationOfAttemptId(attemptId: string): string | undefined {
  const at = attemptId.lastIndexOf('.');
  if (at <= 0 || at === attemptId.length - 1) return undefined;
  return attemptId.slice(0, at);
}

/**
 * The most an attempt in progress may weigh in Firestore (documentSize), so
 * that it still fits in one document (1 MiB) once submitted. The limits allow
 * far more answers than any document holds: 500 questions × 2,000 characters
 * of 3 UTF-8 bytes is 3 MB. So a save that would take the attempt past this
 * budget is refused (413), and the taker keeps every answer saved before it.
 * Submitting adds at most: one result per question, 500 × 182 bytes with
 * 128-character ids (91 KB), and the score fields (under 100 bytes); 900,000
 * plus those leaves about 57 KB of 1 MiB to spare (test/attempts/sizeBudget).
 */
export const ATTEMPT_BUDGET_BYTES = 900_000;

/** The stored size of an attempt at `path` (clients/c/attempts/id). */
export const attemptBytes = (path: string, attempt: StoredAttempt | Record<string, unknown>): number =>
  documentSize(path, attempt as Record<string, unknown>);

/**
 * Whether saving `answer` would take the attempt past its budget. A save that
 * does not make it larger is always taken, so an attempt already past its
 * budget (stored before there was one) can still be shortened and submitted.
 */
export function answerOverBudget(
  path: string,
  attempt: StoredAttempt,
  questionId: string,
  answer: StoredAnswer,
): boolean {
  const before = attemptBytes(path, attempt);
  const after = attemptBytes(path, { ...attempt, answers: { ...attempt.answers, [questionId]: answer } });
  return after > ATTEMPT_BUDGET_BYTES && after > before;
}

/** Stored bytes of one entry of the answers map: its key and its value. */
const answerEntryBytes = (questionId: string, answer: StoredAnswer): number => valueSize({ [questionId]: answer });

/**
 * The first of `changes` (answers to distinct questions, applied in order)
 * that takes the attempt past its budget, by the rule of answerOverBudget
 * applied to the attempt as the changes before it left it; -1 when all fit.
 * The attempt is measured once, then each change by what it adds.
 */
export function firstOverBudget(
  path: string,
  attempt: StoredAttempt,
  changes: ReadonlyArray<{ questionId: string; answer: StoredAnswer }>,
): number {
  const answers = attempt.answers ?? {};
  let size = attemptBytes(path, { ...attempt, answers });
  for (let i = 0; i < changes.length; i++) {
    const { questionId, answer } = changes[i];
    const before = answers[questionId];
    const after = size + answerEntryBytes(questionId, answer) - (before ? answerEntryBytes(questionId, before) : 0);
    if (after > ATTEMPT_BUDGET_BYTES && after > size) return i;
    size = after;
  }
  return -1;
}

/** Whether the submitted attempt (with its results) fits in one Firestore document. */
export const fitsInOneDocument = (path: string, submitted: StoredAttempt): boolean =>
  attemptBytes(path, submitted) <= MAX_DOCUMENT_BYTES;

/** The frozen version as attempts use it: the parts of exams/documents.ts TestVersion read here. */
export type VersionForAttempt = Pick<TestVersion, 'version' | 'test_id' | 'test' | 'questions' | 'total_marks'> &
  Partial<Pick<TestVersion, 'pools' | 'pool_freeze_id' | 'revision' | 'passages'>> & {
    /** On an attempt's paper: how many of `questions` are the version's fixed ones (the rest were drawn). Absent: all. */
    fixed_count?: number;
  };

/**
 * An attempt's paper: its version with the questions it drew added after the
 * fixed ones, and its own total. Everything that shows or scores an attempt
 * works on this, so a drawn question is one of its questions like any other.
 */
export function paperOf(version: VersionForAttempt, drawn: readonly FrozenQuestion[]): VersionForAttempt {
  const questions = [...version.questions, ...drawn];
  return {
    ...version,
    questions,
    fixed_count: version.questions.length,
    total_marks: round4(questions.reduce((sum, q) => sum + (typeof q.marks === 'number' ? q.marks : 0), 0)),
  };
}

/** Where each question of the version stands among all it may show: the fixed ones, then each pool's, in order. */
export function universePositions(
  version: Pick<VersionForAttempt, 'questions' | 'pools' | 'fixed_count'>,
): Map<string, number> {
  const positions = new Map<string, number>();
  version.questions.slice(0, version.fixed_count ?? version.questions.length).forEach((q, i) => positions.set(q.id, i));
  for (const pool of version.pools ?? [])
    for (const id of pool.question_ids) if (!positions.has(id)) positions.set(id, positions.size);
  return positions;
}

/** The last instant (ms) an answer or a submit is taken for an attempt expiring at `expiresAtIso`: its expires_at plus the grace. */
export const graceEndsMs = (expiresAtIso: string): number => Date.parse(expiresAtIso) + GRACE_MS;

/** In progress and past its deadline: the next read or write closes it first. */
export const isOverdue = (attempt: { status: AttemptStatus; expires_at: string }, nowMs: number): boolean =>
  attempt.status === 'in_progress' && nowMs > graceEndsMs(attempt.expires_at);

/**
 * The answers that count: saved (server clock) by the deadline. Saving refuses later ones; this makes sure.
 * An essay answered with files and no text counts as answered (a person grades it): its answer is
 * then the files' count in words, which only says it is not blank.
 */
export function answersInTime(
  attempt: Pick<StoredAttempt, 'answers' | 'expires_at' | 'attachments'>,
): Record<string, string> {
  const graceEnds = graceEndsMs(attempt.expires_at);
  const counted: Record<string, string> = {};
  for (const [questionId, saved] of Object.entries(attempt.answers ?? {})) {
    if (saved && typeof saved.answer === 'string' && Date.parse(saved.saved_at) <= graceEnds)
      counted[questionId] = saved.answer;
  }
  for (const [questionId, files] of Object.entries(attempt.attachments ?? {})) {
    const inTime = files.filter((file) => Date.parse(file.uploaded_at) <= graceEnds).length;
    if (inTime > 0 && !isAnswer(counted[questionId]))
      counted[questionId] = `(${inTime} attached file${inTime === 1 ? '' : 's'})`;
  }
  return counted;
}

/**
 * The fields that submit an attempt: scored on the version it started on,
 * with the answers saved in time. An attempt closed by the service after its
 * deadline is dated at its expiry (time ran out then) and marked automatic.
 */
export function submission(
  attempt: StoredAttempt,
  version: VersionForAttempt,
  { nowMs, automatic, submitter = 'taker' }: { nowMs: number; automatic: boolean; submitter?: 'taker' | 'admin' },
) {
  const submittedAt = automatic ? attempt.expires_at : new Date(nowMs).toISOString();
  return {
    status: 'submitted' as const,
    submitted_at: submittedAt,
    auto_submitted: automatic,
    submitted_by: (automatic ? 'deadline' : submitter) as SubmittedBy,
    ...scoredFields(attempt, version),
  };
}

/**
 * The score of a submitted attempt (or one being submitted) on `paper`, with
 * the grades its essays have: what a submit, a grade and a regrade write.
 */
export function scoredFields(
  attempt: Pick<StoredAttempt, 'id' | 'answers' | 'attachments' | 'expires_at' | 'grades' | 'revision'>,
  paper: VersionForAttempt,
) {
  const grades = Object.fromEntries(
    Object.entries(attempt.grades ?? {}).map(([id, grade]) => [id, { marks: grade.marks }]),
  );
  const scored = scoreAttempt(
    paper.questions as ScoringQuestion[],
    answersInTime(attempt),
    {
      negativeMarking: paper.test.negative_marking === 1,
      negativeMarkRatio: paper.test.negative_mark_ratio,
      seed: attempt.id,
    },
    grades,
  );
  // While an essay waits for its grade the score is not final: no percentage, and no final_score (the
  // analytics aggregate over these, so a pending attempt is never averaged or ranked as final).
  const final = scored.grading !== 'pending';
  return {
    score: scored.score,
    total_marks: scored.total_marks,
    percentage: final ? percentageOf(scored.score, scored.total_marks) : null,
    ...(final ? { final_score: scored.score } : {}),
    results: scored.results,
    grading: scored.grading,
    pending_marks: scored.pending_marks,
    // Each scoring written moves it on: a receiver of its events keeps the highest it has seen.
    revision: (attempt.revision ?? 0) + 1,
  };
}

/** The attempt's questions in its order: shuffled when the test says so, those sharing a passage together either way. */
const inAttemptOrder = (attemptId: string, version: VersionForAttempt): FrozenQuestion[] =>
  version.test.shuffle === 1 ? orderForAttempt(attemptId, version.questions) : passageBlocks(version.questions).flat();

/** The attempt's questions in its order, without answer keys and without titles (the bank's, never a taker's). */
export function questionsForTaker(attemptId: string, version: VersionForAttempt): AttemptQuestion[] {
  const passages = new Set((version.passages ?? []).map((p) => p.id));
  return inAttemptOrder(attemptId, version).map((q) => ({
    id: q.id,
    question_text: q.question_text,
    ...(q.text_format === 'html' ? { text_format: 'html' as const } : {}),
    question_type: q.question_type,
    marks: q.marks,
    // A passage the version froze: one it could not (gone before the publish) is not named.
    ...(q.passage_id && passages.has(q.passage_id) ? { passage_id: q.passage_id } : {}),
    // Its options and its type's fields (an essay's word limit, a matching's stems), never its key.
    ...questionTypeOf(q.question_type).takerView(q, attemptId),
  }));
}

/** The passages the attempt's questions name, each once, in the order its questions first name them. */
export function passagesForTaker(version: VersionForAttempt, questions: readonly AttemptQuestion[]): AttemptPassage[] {
  const byId = new Map((version.passages ?? []).map((p) => [p.id, p]));
  const named = [...new Set(questions.flatMap((q) => (q.passage_id ? [q.passage_id] : [])))];
  return named.flatMap((id) => {
    const passage = byId.get(id);
    return passage ? [passage] : [];
  });
}

export function testDetails(attemptId: string, version: VersionForAttempt): TestDetails {
  const questions = questionsForTaker(attemptId, version);
  return {
    test_id: version.test_id,
    version: version.version,
    test_name: version.test.test_name,
    description: version.test.description ?? null,
    timer: version.test.timer ?? 0,
    shuffle: version.test.shuffle,
    allow_review: version.test.allow_review,
    negative_marking: version.test.negative_marking,
    negative_mark_ratio: version.test.negative_mark_ratio,
    max_attempts: version.test.max_attempts ?? null,
    question_count: version.questions.length,
    total_marks: version.total_marks,
    questions,
    passages: passagesForTaker(version, questions),
  };
}

/** The question ids in this attempt's order. */
export const questionOrder = (attemptId: string, version: VersionForAttempt): string[] =>
  inAttemptOrder(attemptId, version).map((q) => q.id);

/** Who submitted: stored since sittings; before, an automatic close was the deadline's and any other its taker's. */
export function submittedBy(
  attempt: Pick<StoredAttempt, 'status' | 'submitted_by' | 'auto_submitted'>,
): SubmittedBy | null {
  if (attempt.status !== 'submitted') return null;
  return attempt.submitted_by ?? (attempt.auto_submitted ? 'deadline' : 'taker');
}

export function summaryOf(attempt: StoredAttempt) {
  return {
    attempt_id: attempt.id,
    test_id: attempt.test_id,
    version: attempt.version,
    client_id: attempt.client_id,
    student_id: attempt.student_id,
    guest: attempt.guest,
    guest_name: attempt.guest_name,
    status: attempt.status,
    started_at: attempt.started_at,
    expires_at: attempt.expires_at,
    submitted_at: attempt.submitted_at,
    auto_submitted: attempt.auto_submitted ?? false,
    submitted_by: submittedBy(attempt),
    score: attempt.score,
    total_marks: attempt.total_marks,
    grading: attempt.grading ?? null,
    pending_marks: attempt.pending_marks ?? 0,
  };
}

/** A listed attempt: its summary and how many of its questions have an answer, counted as scoring counts them. */
export function listedSummaryOf(attempt: StoredAttempt) {
  const answers = attempt.answers ?? {};
  return {
    ...summaryOf(attempt),
    answered: attempt.question_order.filter((id) => isAnswer(answers[id]?.answer)).length,
  };
}

export function savedAnswers(attempt: StoredAttempt) {
  const answers = attempt.answers ?? {};
  return attempt.question_order
    .filter((id) => answers[id] !== undefined)
    .map((id) => {
      const { answer, saved_at, client_seq } = answers[id];
      return { question_id: id, student_answer: answer, saved_at, ...(client_seq !== undefined ? { client_seq } : {}) };
    });
}

/** Per question, in the attempt's order: the answer, its result and the key. Only for a submitted attempt. */
export function reviewOf(attempt: StoredAttempt, version: VersionForAttempt) {
  const keys = new Map(version.questions.map((q) => [q.id, q]));
  const results = new Map((attempt.results ?? []).map((r) => [r.question_id, r]));
  const shown = new Map(questionsForTaker(attempt.id, version).map((q) => [q.id, q.options]));
  return attempt.question_order.map((id) => {
    const result = results.get(id);
    const key = keys.get(id);
    const type = key ? questionTypeOf(key.question_type) : undefined;
    return {
      ...(key ? keyExtras(key, shown.get(id) ?? key.options) : {}),
      question_id: id,
      student_answer: attempt.answers?.[id]?.answer ?? null,
      answered: result?.answered ?? false,
      correct: result?.correct ?? false,
      marks_awarded: result?.marks_awarded ?? 0,
      correct_answer: key && type ? type.shownKey(key, attempt.id) : '',
      tolerance: key?.tolerance ?? null,
      pending: result?.pending === true,
      feedback: type?.marking === 'person' ? (attempt.grades?.[id]?.feedback ?? null) : null,
    };
  });
}

/** A per-option list of the question (in its options' order) in the order the attempt showed the options. */
function inShownOrder<T>(question: FrozenQuestion, values: T[], shownOptions: string[]): T[] {
  const byOption = new Map(question.options.map((option, i) => [option, values[i]]));
  return shownOptions.map((option) => byOption.get(option)!);
}

/** What a released review adds of a question's optional fields: its feedback and the rest of its key. */
function keyExtras(question: FrozenQuestion, shownOptions: string[]) {
  const options = question.options.length === shownOptions.length;
  return {
    ...(question.feedback ? { question_feedback: question.feedback } : {}),
    ...(question.option_feedback && options
      ? { option_feedback: inShownOrder(question, question.option_feedback, shownOptions) }
      : {}),
    ...(question.option_credits && options
      ? { option_credits: inShownOrder(question, question.option_credits, shownOptions) }
      : {}),
    ...(question.alternatives ? { alternatives: question.alternatives } : {}),
    ...(question.case_sensitive ? { case_sensitive: true } : {}),
  };
}

/** The grading queue's items for a submitted attempt: each answered essay still pending, with what a grader reads. */
export function gradingItems(attempt: StoredAttempt, paper: VersionForAttempt): StoredGradingItem[] {
  const questions = new Map(paper.questions.map((q) => [q.id, q]));
  return (attempt.results ?? []).flatMap((result) => {
    const question = questions.get(result.question_id);
    if (!result.pending || !question) return [];
    return [
      {
        attempt_id: attempt.id,
        question_id: question.id,
        client_id: attempt.client_id,
        test_id: attempt.test_id,
        version: attempt.version,
        student_id: attempt.student_id,
        guest_name: attempt.guest_name,
        question_text: question.question_text,
        ...(question.text_format === 'html' ? { text_format: 'html' as const } : {}),
        marks: question.marks,
        max_words: question.max_words ?? null,
        student_answer: attempt.answers?.[question.id]?.answer ?? '',
        ...(attempt.attachments?.[question.id]?.length ? { attachments: attempt.attachments[question.id] } : {}),
        submitted_at: attempt.submitted_at ?? attempt.expires_at,
      },
    ];
  });
}

/**
 * What is wrong with answers for their questions' types: an answer longer
 * than its type takes (an essay's 10,000 characters, any other's 2,000), or an
 * essay past its max_words. By index of `answers`.
 */
export function answerProblems(
  paper: VersionForAttempt,
  answers: ReadonlyArray<{ question_id: string; student_answer: string }>,
): Array<{ index: number; message: string }> {
  const questions = new Map(paper.questions.map((q) => [q.id, q]));
  return answers.flatMap((answer, index) => {
    const question = questions.get(answer.question_id);
    if (!question) return [];
    const message = questionTypeOf(question.question_type).answerProblem(
      answer.student_answer,
      question,
      MAX_ANSWER_LENGTH,
    );
    return message === undefined ? [] : [{ index, message }];
  });
}
