import { CheckedField } from '../../FormProblems';
import type { AuthorKeyProps, QuestionTypeModule, ReviewProps } from '../module';
import { KeyedReview } from '../review';
import { TypedKey } from '../typedKey';
import { numeric } from './definition';
import { enteredNumber, NumberInput } from './numberInput';

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

const Review = (props: ReviewProps) => <KeyedReview {...props} entered={enteredNumber} shown={numeric.shownAnswer} />;

export const numericModule: QuestionTypeModule = { ...numeric, views: { TakerInput: NumberInput, AuthorKey, Review } };
