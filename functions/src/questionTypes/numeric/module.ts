import { bestAlternative, keyOrAlternative, numericCorrect, SHORT_KEYED } from '../answers';
import type { KeyedQuestion, QuestionTypeModule } from '../module';
import { normalizeNumeric, NumericInput, numericExtras } from './schema';

// A number: the answer must be a plain finite number ("+1.5", "-2", "1e3", ".5"; no thousands separators,
// no "NaN"/"Infinity", no hex), within `tolerance` (0 when null) of the key. An answer (not a key) may use a
// decimal comma instead of the point: digits, one comma, digits, no point and no exponent ("1,41", "-0,5",
// "1234,5"), read as the same text with a point, so "1,41" is exactly "1.41". A comma that could group
// thousands ("1,234": 1 to 3 digits not starting with 0, then exactly 3) is ambiguous, so not a number.
// The only slack beyond the tolerance is the representation error of the parsed decimals: 4 units in the
// last place of the largest of |answer|, |key|, tolerance, i.e. 4 × Number.EPSILON relative (about 9e-16).
// So 1.0 vs key 1.1 with tolerance 0.1 is correct, "0.3" vs key "0.30000000000000004" is correct (one
// double apart), 4294967300 vs 4294967296 and 1e-12 vs 1.1e-12 are wrong, and decimals that parse to the
// same double (9007199254740993 and 9007199254740992) are equal. There is no absolute floor: 0 vs 1e-300
// is wrong. A non-numeric answer is wrong, never an error. With `alternatives`: an answer within the key's
// tolerance earns the marks; otherwise the alternative within its own tolerance (0 when absent) with the
// highest credit earns credit / 100 × marks; matching only alternatives of credit 0, or none, is wrong.

const isCorrect = (question: KeyedQuestion, answer: string): boolean =>
  numericCorrect(answer, question.correct_answer, question.tolerance);

export const numeric: QuestionTypeModule<'numeric', typeof NumericInput> = {
  name: 'numeric',
  input: NumericInput,
  ...SHORT_KEYED,
  options: 'none',
  extras: ['alternatives'],
  ownFields: ['tolerance'],
  numericKey: true,
  normalize: normalizeNumeric,
  normalizeExtras: numericExtras,
  mark: (question, answer) =>
    keyOrAlternative(isCorrect(question, answer), () =>
      bestAlternative(question, (alternative) =>
        numericCorrect(answer, alternative.answer, alternative.tolerance ?? 0),
      ),
    ),
  htmlOptions: null,
  keyFields: ['correct_answer', 'tolerance', 'marks', 'alternatives'],
};
