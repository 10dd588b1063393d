import { CheckedField } from '../../FormProblems';
import { OneChoice } from '../choices';
import type { AuthorKeyProps, QuestionTypeModule } from '../module';
import { ChoiceReview } from '../review';
import { multipleChoice } from './definition';

function AuthorKey({ draft, options, set, problemsAt }: AuthorKeyProps) {
  return (
    <CheckedField label="Correct option" problems={problemsAt('correct_answer')}>
      <select value={draft.correct_choice} onChange={(e) => set('correct_choice', e.target.value)}>
        <option value="">Choose…</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </CheckedField>
  );
}

export const multipleChoiceModule: QuestionTypeModule = {
  ...multipleChoice,
  views: { TakerInput: OneChoice, AuthorKey, Review: ChoiceReview },
};
