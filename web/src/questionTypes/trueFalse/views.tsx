import { CheckedField } from '../../FormProblems';
import { OneChoice } from '../choices';
import type { AuthorKeyProps, KeyDraft, QuestionTypeModule } from '../module';
import { StoredAnswerReview } from '../review';
import { trueFalse } from './definition';

function AuthorKey({ draft, set, problemsAt }: AuthorKeyProps) {
  return (
    <CheckedField label="Correct answer" problems={problemsAt('correct_answer')}>
      <select value={draft.truth} onChange={(e) => set('truth', e.target.value as KeyDraft['truth'])}>
        <option value="True">True</option>
        <option value="False">False</option>
      </select>
    </CheckedField>
  );
}

export const trueFalseModule: QuestionTypeModule = {
  ...trueFalse,
  views: { TakerInput: OneChoice, AuthorKey, Review: StoredAnswerReview },
};
