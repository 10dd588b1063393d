import { useEffect, useRef, useState } from 'react';
import { CheckedField } from '../../FormProblems';
import type { AuthorKeyProps, KeyDraft, QuestionTypeModule, ReviewProps, TakerInputProps } from '../module';
import { answerOfParts, pairedParts, partsOf } from '../parts';
import { PartsReview } from '../partsReview';
import { moved, ordering } from './definition';

/**
 * The items as a list, each moved by its "Move up" and "Move down" buttons (named by the item), the
 * new order said in a polite live region. Until the taker moves an item or keeps the order shown,
 * the answer is "" (not answered) and the list is the attempt's order.
 */
function TakerInput({ question, name, value, onAnswer }: TakerInputProps) {
  const shown = question.options;
  const given = partsOf(value, shown.length);
  const answered = value !== '' && given.every((item) => shown.includes(item));
  const items = answered ? given : shown;
  const [said, setSaid] = useState('');
  // The button to keep focus on once its item has moved (the list is drawn again around it).
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    if (focusNext.current === null) return;
    document.getElementById(focusNext.current)?.focus();
    focusNext.current = null;
  });
  const move = (from: number, to: number, buttonId: string, otherId: string) => {
    const next = moved(items, from, to);
    const last = to === 0 || to === items.length - 1;
    focusNext.current = last ? otherId : buttonId;
    setSaid(`“${items[from]}” is now ${to + 1} of ${items.length}.`);
    onAnswer(answerOfParts(next));
  };
  return (
    <div className="ordering">
      <ol aria-label="Items in your order">
        {items.map((item, i) => {
          const up = `${name}-up-${i}`;
          const down = `${name}-down-${i}`;
          return (
            <li key={item}>
              <span>{item}</span>{' '}
              <button
                type="button"
                id={up}
                className="secondary"
                aria-label={`Move up: ${item}`}
                disabled={i === 0}
                onClick={() => move(i, i - 1, `${name}-up-${i - 1}`, `${name}-down-${i - 1}`)}
              >
                Move up
              </button>{' '}
              <button
                type="button"
                id={down}
                className="secondary"
                aria-label={`Move down: ${item}`}
                disabled={i === items.length - 1}
                onClick={() => move(i, i + 1, `${name}-down-${i + 1}`, `${name}-up-${i + 1}`)}
              >
                Move down
              </button>
            </li>
          );
        })}
      </ol>
      {answered ? null : (
        <button type="button" className="secondary" onClick={() => onAnswer(answerOfParts(items))}>
          Keep this order
        </button>
      )}
      <p aria-live="polite" className="hint">
        {answered ? said : 'Not answered yet: move an item or keep this order.'}
      </p>
    </div>
  );
}

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
  <PartsReview {...props} caption="Your order" parts={pairedParts(props.item, (i) => `Position ${i + 1}`)} />
);

export const orderingModule: QuestionTypeModule = { ...ordering, views: { TakerInput, AuthorKey, Review } };
