import { useId } from 'react';
import { CheckedField, ProblemText } from '../../FormProblems';
import type { AuthorKeyProps, KeyDraft, QuestionTypeModule, ReviewProps } from '../module';
import { pairedParts } from '../parts';
import { PartsReview } from '../partsReview';
import { matching } from './definition';

// A new question starts with two rows to fill in: the fewest stems a matching has.
const FEWEST_STEMS = 2;
const rowsOf = (draft: KeyDraft) => [
  ...draft.matches,
  ...Array.from({ length: Math.max(0, FEWEST_STEMS - draft.matches.length) }, () => ({ stem: '', match: '' })),
];

/** A row per stem: its text and the option that matches it; the options box holds the matches and any distractors. */
function AuthorKey({ draft, options, set, problemsAt }: AuthorKeyProps) {
  const problemsId = useId();
  const problems = problemsAt('correct_answer') ?? problemsAt('stems') ?? problemsAt('matches');
  const rows = rowsOf(draft);
  const update = (i: number, change: Partial<KeyDraft['matches'][number]>) =>
    set(
      'matches',
      rows.map((row, j) => (j === i ? { ...row, ...change } : row)),
    );
  return (
    <fieldset aria-describedby={problems ? problemsId : undefined}>
      <legend>Stems and their matches</legend>
      <p className="hint">Write the options above: every match and any distractors, one a line.</p>
      <ProblemText id={problemsId} messages={problems} />
      {rows.map((row, i) => (
        <div key={i} className="row">
          <CheckedField label={`Stem ${i + 1}`} problems={undefined}>
            <input value={row.stem} onChange={(e) => update(i, { stem: e.target.value })} />
          </CheckedField>
          <CheckedField label={`Match of stem ${i + 1}`} problems={undefined}>
            <select value={row.match} onChange={(e) => update(i, { match: e.target.value })}>
              <option value="">—</option>
              {options.map((o) => (
                <option key={o} value={o}>
                  {o}
                </option>
              ))}
            </select>
          </CheckedField>
          <button
            type="button"
            className="secondary"
            aria-label={`Remove stem ${i + 1}`}
            onClick={() =>
              set(
                'matches',
                rows.filter((_, j) => j !== i),
              )
            }
          >
            Remove
          </button>
        </div>
      ))}
      <button type="button" className="secondary" onClick={() => set('matches', [...rows, { stem: '', match: '' }])}>
        Add a stem
      </button>
    </fieldset>
  );
}

/** Per stem, the option chosen beside the one that matches it. */
const Review = (props: ReviewProps) => {
  const stems = props.question?.stems ?? [];
  return (
    <PartsReview
      {...props}
      caption="Your matches"
      parts={pairedParts(props.item, (i) => stems[i] ?? `Item ${i + 1}`)}
      format={props.question?.text_format}
    />
  );
};

export const matchingModule: QuestionTypeModule = {
  ...matching,
  views: {
    TakerInput: { load: () => import('./takerInput').then((m) => m.TakerInput) },
    AuthorKey,
    Review,
  },
};
