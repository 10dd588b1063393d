import { shuffled } from '../shared';

// Pure: the order an attempt shows its questions and options in. Derived only from
// the attempt's seed, so every read of the attempt shows the same order without storing it.
// The question order comes from sha256(seed); each question's options from
// sha256(seed + question id), so an option order does not depend on where the question landed.

/**
 * The questions in blocks: those that share a passage together, in their own order, where the
 * first of them stands; every other question a block of its own. A passage is shown once beside
 * its questions, so they are never parted, shuffled or not. With no passage, the blocks are the
 * questions one by one, and a shuffle of them is the shuffle of the questions.
 */
export function passageBlocks<Q extends { passage_id?: string }>(questions: readonly Q[]): Q[][] {
  const blocks: Q[][] = [];
  const byPassage = new Map<string, Q[]>();
  for (const question of questions) {
    const shared = question.passage_id ? byPassage.get(question.passage_id) : undefined;
    if (shared) shared.push(question);
    else {
      const block = [question];
      blocks.push(block);
      if (question.passage_id) byPassage.set(question.passage_id, block);
    }
  }
  return blocks;
}

/** The attempt's questions in its order, each a copy with its options in its order. */
export function orderForAttempt<Q extends { id: string; options: string[]; passage_id?: string }>(
  seed: string,
  questions: Q[],
): Q[] {
  return shuffled(passageBlocks(questions), `questions:${seed}`).flatMap((block) =>
    block.map((question) => ({
      ...question,
      options: shuffled(question.options, `options:${seed}:${question.id}`),
    })),
  );
}
