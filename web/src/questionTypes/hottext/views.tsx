import { useId } from 'react';
import { CheckedField, ProblemText } from '../../FormProblems';
import type { AuthorKeyProps, QuestionTypeModule, ReviewProps } from '../module';
import { phrasesOf } from '../parts';
import { PartsReview } from '../partsReview';
import { chosenPhrases, hottext } from './definition';

/** The phrases the text marks, each ticked when right, and the most a taker may choose. */
function AuthorKey({ draft, set, problemsAt }: AuthorKeyProps) {
  const problemsId = useId();
  const problems = problemsAt('correct_answer');
  const phrases = phrasesOf(draft.question_text);
  return (
    <>
      <fieldset aria-describedby={problems ? problemsId : undefined}>
        <legend>Right phrases</legend>
        <p className="hint">Mark the phrases a taker may choose in the question text, [[like this]].</p>
        <ProblemText id={problemsId} messages={problems} />
        {phrases.map((phrase) => (
          <label key={phrase} className="option">
            <input
              type="checkbox"
              checked={draft.correct_choices.includes(phrase)}
              onChange={(e) =>
                set(
                  'correct_choices',
                  e.target.checked
                    ? [...draft.correct_choices, phrase]
                    : draft.correct_choices.filter((c) => c !== phrase),
                )
              }
            />{' '}
            {phrase}
          </label>
        ))}
      </fieldset>
      <CheckedField
        label="Most phrases a taker may choose"
        problems={problemsAt('max_choices')}
        hint="Empty for no limit; at least the right phrases’ count"
      >
        <input
          type="number"
          min="1"
          step="1"
          value={draft.max_choices}
          onChange={(e) => set('max_choices', e.target.value)}
        />
      </CheckedField>
    </>
  );
}

/** Per phrase, whether the taker chose it and whether it is right. */
const Review = (props: ReviewProps) => {
  const chosen = chosenPhrases(props.item.student_answer ?? '');
  const right = chosenPhrases(props.item.correct_answer ?? '');
  const phrases = props.question?.options ?? [...new Set([...right, ...chosen])];
  return (
    <PartsReview
      {...props}
      caption="Your phrases"
      parts={phrases.map((phrase) => {
        const answer = chosen.includes(phrase) ? 'chosen' : 'not chosen';
        const key = right.includes(phrase) ? 'chosen' : 'not chosen';
        return { label: phrase, answer, key, right: answer === key };
      })}
    />
  );
};

export const hottextModule: QuestionTypeModule = {
  ...hottext,
  views: {
    TakerInput: { load: () => import('./takerInput').then((m) => m.TakerInput) },
    AuthorKey,
    Review,
  },
};
