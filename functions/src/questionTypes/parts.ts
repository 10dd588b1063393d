import { characterLimit } from './answers';
import type { Marking, QuestionTypeModule } from './module';

// Pure: the answers of the types with parts (docs/question-types.md "Answers with parts"): a JSON
// array text with one string per part, each part scored on its own, the question's score their sum.

/** What an answer with parts may be: its JSON carries every part. */
export const MAX_PARTS_ANSWER = 10_000;

/** The parts of a JSON array text of strings (a stored key, an answer), or undefined when it is not one. */
export function readKey(text: string): string[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  return Array.isArray(parsed) && parsed.every((part) => typeof part === 'string') ? (parsed as string[]) : undefined;
}

/** The answer's parts when it is a JSON array of `count` strings; undefined when it cannot be read. */
export function readParts(answer: string, count: number): string[] | undefined {
  const parts = readKey(answer);
  return parts && parts.length === count ? parts : undefined;
}

/** Every answered part's text, whatever the count: what analytics counts of an answer (nothing when it cannot be read). */
export const answeredParts = (answer: string): string[] =>
  (readKey(answer) ?? []).filter((part) => part.trim().length > 0);

/** The parts as a stored key writes them. */
export const partsText = (parts: readonly string[]): string => JSON.stringify(parts);

/** One part as scored: its weight, the share of it earned (0 to 1), and whether it was answered. */
export interface PartResult {
  weight: number;
  earned: number;
  answered: boolean;
}

/** The question's marking from its parts: earned weight ÷ all weight; a part answered and earning nothing is wrong. */
export function partsMarking(parts: readonly PartResult[]): Marking {
  const total = parts.reduce((sum, part) => sum + part.weight, 0);
  if (total <= 0) return { share: 0 };
  const earned = parts.reduce((sum, part) => sum + part.weight * part.earned, 0);
  const wrong = parts.reduce((sum, part) => sum + (part.answered && part.earned === 0 ? part.weight : 0), 0);
  return wrong > 0 ? { share: earned / total, wrong: wrong / total } : { share: earned / total };
}

/** The parts every type with parts shares: answers up to MAX_PARTS_ANSWER, counted by part, its key shown as stored. */
export const PARTS_ANSWERED = {
  ownFields: [],
  numericKey: false,
  marking: 'key',
  derivesKey: true,
  answerProblem: (answer, question) => characterLimit(answer, question, MAX_PARTS_ANSWER),
  answerParts: answeredParts,
  shownKey: (question) => question.correct_answer,
  regradeRefusal: null,
} as const satisfies Partial<QuestionTypeModule>;
