import { useId, useState } from 'react';
import { CheckedField, ProblemText } from '../../FormProblems';
import { MarkedText } from '../markedText';
import type { AuthorKeyProps, QuestionTypeModule, ReviewProps, TakerInputProps } from '../module';
import { PHRASE_MARK, phrasesOf } from '../parts';
import { PartsReview } from '../partsReview';
import { chosenPhrases, hottext, joinPhrases } from './definition';

/**
 * The text with each phrase a toggle button (`aria-pressed`). At the most a taker may choose, a
 * further phrase is not chosen and the live region says why; the buttons stay in the tab order.
 */
function TakerInput({ question, name, value, onAnswer }: TakerInputProps) {
  const phrases = question.options;
  const chosen = new Set(chosenPhrases(value));
  const most = question.max_choices ?? null;
  const [said, setSaid] = useState('');
  const toggle = (phrase: string) => {
    const next = new Set(chosen);
    if (next.has(phrase)) next.delete(phrase);
    else if (most !== null && next.size >= most) {
      setSaid(`You may choose at most ${most}: unchoose one first.`);
      return;
    } else next.add(phrase);
    setSaid(`${next.size} chosen${most !== null ? ` of at most ${most}` : ''}.`);
    onAnswer(joinPhrases(phrases, (p) => next.has(p)));
  };
  return (
    <>
      <MarkedText
        text={question.question_text}
        format={question.text_format}
        mark={PHRASE_MARK}
        render={(k, inner) => {
          const phrase = phrases[k] ?? inner.trim();
          const pressed = chosen.has(phrase);
          return (
            <button
              type="button"
              id={`${name}-${k}`}
              className="hottext"
              aria-pressed={pressed}
              onClick={() => toggle(phrase)}
            >
              {phrase}
            </button>
          );
        }}
      />
      <p aria-live="polite" className="hint">
        {said || (most !== null ? `Choose at most ${most}.` : '')}
      </p>
    </>
  );
}

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

export const hottextModule: QuestionTypeModule = { ...hottext, views: { TakerInput, AuthorKey, Review } };
