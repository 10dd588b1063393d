import type { Schemas } from '../api';

// Pure: the taker's questions in runs that share a passage, each run shown beside its passage once.
// The service keeps a passage's questions together in every attempt's order.

type Question = Schemas['AttemptQuestion'];
type Passage = Schemas['AttemptPassage'];

/** A run of questions: those beside one passage, or one question with none. */
export interface QuestionRun {
  passage: Passage | null;
  questions: Question[];
}

/** The questions in runs: consecutive questions naming one passage (one the reply carries) form a run with it. */
export function passageRuns(questions: readonly Question[], passages: readonly Passage[] | undefined): QuestionRun[] {
  const byId = new Map((passages ?? []).map((p) => [p.id, p]));
  const runs: QuestionRun[] = [];
  for (const question of questions) {
    const passage = (question.passage_id && byId.get(question.passage_id)) || null;
    const last = runs[runs.length - 1];
    if (passage && last?.passage?.id === passage.id) last.questions.push(question);
    else runs.push({ passage, questions: [question] });
  }
  return runs;
}
