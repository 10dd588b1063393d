import { comparable } from '../fields';
import type { KeyedQuestion, Marking, PartOutcome, QuestionTypeModule } from '../module';
import { PARTS_ANSWERED, partsMarking, readKey, readParts } from '../parts';
import { MatchingInput, matchingExtras, normalizeMatching } from './schema';

// Stems matched to options. The answer gives one option per stem (a JSON array text, "" for a stem
// left blank); the key is stored the same way. Each stem is a part of equal weight, so an answer earns
// marks × right stems ÷ stems, as Moodle's match question grades (grade_response); negative marking
// charges the stems answered wrongly. An answer that cannot be read earns nothing and is not charged.

/** Each stem as answered: right or not, and the option chosen for it. */
function outcomes(question: KeyedQuestion, answer: string): PartOutcome[] | undefined {
  const key = readKey(question.correct_answer);
  const given = key && readParts(answer, key.length);
  if (!key || !given) return undefined;
  const options = question.options.map(comparable);
  return key.map((match, i) => {
    const part = comparable(given[i]);
    return { answered: part.length > 0, earned: part === comparable(match) ? 1 : 0, choice: options.indexOf(part) };
  });
}

function mark(question: KeyedQuestion, answer: string): Marking {
  const parts = outcomes(question, answer);
  return parts ? partsMarking(parts.map((part) => ({ ...part, weight: 1 }))) : { share: 0 };
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
  partLabels: (question) =>
    (readKey(question.correct_answer) ?? []).map((_, i) => ({
      label: question.stems?.[i] ?? `Stem ${i + 1}`,
      choices: [...question.options],
    })),
  partOutcomes: (question, answer) =>
    outcomes(question, answer) ?? (readKey(question.correct_answer) ?? []).map(() => ({ answered: false, earned: 0 })),
  takerView: (question) => ({ options: [...question.options], stems: [...(question.stems ?? [])] }),
  htmlOptions: 'apart',
  keyFields: ['correct_answer', 'marks'],
};
