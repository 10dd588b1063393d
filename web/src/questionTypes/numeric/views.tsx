import { CheckedField } from '../../FormProblems';
import type { AuthorKeyProps, QuestionTypeModule, ReviewProps, TakerInputProps } from '../module';
import { KeyedReview } from '../review';
import { TypedKey } from '../typedKey';
import { TypedLine } from '../typedAnswer';
import { numeric } from './definition';
import { numberProblem, readNumberAnswer } from './numberAnswer';

// An entry that is no number is not sent: it would score as wrong.
const NUMBER_CHECK = {
  problemOf: numberProblem,
  unsaved: 'Not saved until it is a number.',
  testId: 'number-error',
};

/** Numeric answers take the number pad (with its point or comma) on a phone. */
const TakerInput = ({ name, label, value, onAnswer }: TakerInputProps) => (
  <TypedLine id={name} label={label} value={value} onAnswer={onAnswer} inputMode="decimal" check={NUMBER_CHECK} />
);

function AuthorKey(props: AuthorKeyProps) {
  const { draft, set, problemsAt } = props;
  return (
    <>
      <TypedKey {...props} hint="A number, e.g. 3.14" />
      <CheckedField
        label="Tolerance"
        problems={problemsAt('tolerance')}
        hint="Accepted absolute difference; empty for exact"
      >
        <input
          type="number"
          min="0"
          step="any"
          value={draft.tolerance}
          onChange={(e) => set('tolerance', e.target.value)}
        />
      </CheckedField>
    </>
  );
}

/** The answer as the taker entered it, and how it was read when that differs ("1,41", read as 1.41). */
function entered(answer: string) {
  const reading = readNumberAnswer(answer);
  return (
    <>
      {answer}
      {reading.kind === 'number' && reading.decimal !== answer.trim() ? ` (read as ${reading.decimal})` : ''}
      {reading.kind === 'ambiguous' || reading.kind === 'not_a_number' ? ' (not read as a number)' : ''}
    </>
  );
}

const Review = (props: ReviewProps) => <KeyedReview {...props} entered={entered} shown={numeric.shownAnswer} />;

export const numericModule: QuestionTypeModule = { ...numeric, views: { TakerInput, AuthorKey, Review } };
