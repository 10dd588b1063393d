// Loaded only when a test holds the type (its module's loader), with the attempt.
import { useState } from 'react';
import { MarkedText } from '../markedText';
import type { TakerInputProps } from '../module';
import { PHRASE_MARK } from '../parts';
import { chosenPhrases, joinPhrases } from './definition';

/**
 * The text with each phrase a toggle button (`aria-pressed`). At the most a taker may choose, a
 * further phrase is not chosen and the live region says why; the buttons stay in the tab order.
 */
export function TakerInput({ question, name, value, onAnswer }: TakerInputProps) {
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
