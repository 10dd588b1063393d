import { CheckedField } from '../../FormProblems';
import type { AuthorKeyProps, KeyDraft, QuestionTypeModule, ReviewProps } from '../module';
import { pairedParts } from '../parts';
import { PartsReview } from '../partsReview';
import { ordering } from './definition';

/** The options above are the key, in the right order; the scoring is the author's choice. */
function AuthorKey({ draft, set, problemsAt }: AuthorKeyProps) {
  return (
    <CheckedField
      label="Scoring"
      problems={problemsAt('ordering_score')}
      hint="Write the options above in the right order: takers see them shuffled."
    >
      <select
        value={draft.ordering_score}
        onChange={(e) => set('ordering_score', e.target.value as KeyDraft['ordering_score'])}
      >
        <option value="all_or_nothing">All or nothing: the whole order or no marks</option>
        <option value="partial">Partial: the longest run of items in the right relative order</option>
      </select>
    </CheckedField>
  );
}

/** Per position, the item the taker put there beside the right one. */
const Review = (props: ReviewProps) => (
  <PartsReview
    {...props}
    caption="Your order"
    parts={pairedParts(props.item, (i) => `Position ${i + 1}`)}
    format={props.question?.text_format}
  />
);

export const orderingModule: QuestionTypeModule = {
  ...ordering,
  views: {
    TakerInput: { load: () => import('./takerInput').then((m) => m.TakerInput) },
    AuthorKey,
    Review,
  },
};
