import { comparable } from '../fields';
import type { KeyedQuestion, Marking, QuestionTypeModule } from '../module';
import { PARTS_ANSWERED, partsMarking, readKey, readParts } from '../parts';
import { MatchingInput, matchingExtras, normalizeMatching } from './schema';

// Stems matched to options. The answer gives one option per stem (a JSON array text, "" for a stem
// left blank); the key is stored the same way. Each stem is a part of equal weight, so an answer earns
// marks × right stems ÷ stems, as Moodle's match question grades (grade_response); negative marking
// charges the stems answered wrongly. An answer that cannot be read earns nothing and is not charged.

function mark(question: KeyedQuestion, answer: string): Marking {
  const key = readKey(question.correct_answer);
  if (!key) return { share: 0 };
  const given = readParts(answer, key.length);
  if (!given) return { share: 0 };
  return partsMarking(
    key.map((match, i) => {
      const part = given[i].trim();
      return { weight: 1, answered: part.length > 0, earned: comparable(part) === comparable(match) ? 1 : 0 };
    }),
  );
}

export const matching: QuestionTypeModule<'matching', typeof MatchingInput> = {
  name: 'matching',
  input: MatchingInput,
  ...PARTS_ANSWERED,
  options: 'authored',
  extras: ['stems', 'matches'],
  normalize: normalizeMatching,
  normalizeExtras: matchingExtras,
  inputWithKey: (input, key) => {
    const parts = readKey(key);
    // A key that cannot be read stays correct_answer, which the schema refuses.
    return parts ? { ...input, matches: parts } : { ...input, correct_answer: key };
  },
  mark,
  takerView: (question) => ({ options: [...question.options], stems: [...(question.stems ?? [])] }),
  keyFields: ['correct_answer', 'marks'],
};
