import { shuffled } from '../shared';

// Pure: the order an attempt shows its questions and options in. Derived only from
// the attempt's seed, so every read of the attempt shows the same order without storing it.
// The question order comes from sha256(seed); each question's options from
// sha256(seed + question id), so an option order does not depend on where the question landed.

/** The attempt's questions in its order, each a copy with its options in its order. */
export function orderForAttempt<Q extends { id: string; options: string[] }>(seed: string, questions: Q[]): Q[] {
  return shuffled(questions, `questions:${seed}`).map((question) => ({
    ...question,
    options: shuffled(question.options, `options:${seed}:${question.id}`),
  }));
}
