import { WRONG } from '../answers';
import { comparable } from '../fields';
import type { KeyedQuestion, Marking, QuestionTypeModule } from '../module';
import { PARTS_ANSWERED, readKey, readParts } from '../parts';
import { shuffled } from '../../shared';
import { normalizeOrdering, OrderingInput, orderingExtras } from './schema';

// Items put in order. The answer is the items in the taker's order (a JSON array text, one per
// position); the key is stored the same way. all_or_nothing: the whole order earns the marks and any
// other is wrong. partial: Moodle's longest ordered subset: the most items (not necessarily adjacent)
// that stand in the right relative order, ÷ items; the other items are the wrong parts. An item named
// twice or not an item counts once or not at all; an answer that cannot be read earns nothing.

/** The length of the longest strictly increasing subsequence (patience sorting, O(n log n)). */
export function longestIncreasing(values: readonly number[]): number {
  const tails: number[] = [];
  for (const value of values) {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (tails[middle] < value) low = middle + 1;
      else high = middle;
    }
    tails[low] = value;
  }
  return tails.length;
}

/** The key positions of the answer's items, in the answer's order: each item once, unknown ones left out. */
function keyPositions(key: readonly string[], given: readonly string[]): number[] {
  const position = new Map(key.map((item, i) => [comparable(item), i]));
  const seen = new Set<number>();
  return given.flatMap((item) => {
    const at = position.get(comparable(item));
    if (at === undefined || seen.has(at)) return [];
    seen.add(at);
    return [at];
  });
}

function mark(question: KeyedQuestion, answer: string): Marking {
  const key = readKey(question.correct_answer);
  const given = key && readParts(answer, key.length);
  if (!key || !given || given.every((item) => item.trim() === '')) return { share: 0 };
  const inOrder = longestIncreasing(keyPositions(key, given));
  if (question.ordering_score === 'partial')
    return inOrder === key.length ? { share: 1 } : { share: inOrder / key.length, wrong: 1 - inOrder / key.length };
  return inOrder === key.length && given.every((item, i) => comparable(item) === comparable(key[i]))
    ? { share: 1 }
    : WRONG;
}

export const ordering: QuestionTypeModule<'ordering', typeof OrderingInput> = {
  name: 'ordering',
  input: OrderingInput,
  ...PARTS_ANSWERED,
  options: 'authored',
  extras: ['ordering_score'],
  normalize: normalizeOrdering,
  normalizeExtras: orderingExtras,
  inputWithKey: (input, key) => {
    const parts = readKey(key);
    // A key that cannot be read stays correct_answer, which the schema refuses.
    return parts ? { ...input, options: parts } : { ...input, correct_answer: key };
  },
  mark,
  // Per item: whether it stands at its own place (the figure a teacher reads, whatever the scoring).
  partLabels: (question) => (readKey(question.correct_answer) ?? []).map((item) => ({ label: item, choices: null })),
  partOutcomes: (question, answer) => {
    const key = readKey(question.correct_answer) ?? [];
    const given = readParts(answer, key.length);
    return key.map((item, i) => ({
      answered: given !== undefined && given.some((g) => comparable(g) === comparable(item)),
      earned: given !== undefined && comparable(given[i]) === comparable(item) ? 1 : 0,
    }));
  },
  // Always shuffled, whatever the test's shuffle: the right order is the key.
  takerView: (question, seed) => ({ options: shuffled(question.options, `ordering:${seed}:${question.id}`) }),
  htmlOptions: 'apart',
  keyFields: ['correct_answer', 'marks', 'ordering_score'],
};
