// Loaded only when a test holds the type (its module's loader), with the attempt.
import { useEffect, useRef, useState } from 'react';
import { QuestionText } from '../../QuestionText';
import { choiceLabelOf } from '../../questionHtml';
import type { TakerInputProps } from '../module';
import { answerOfParts, partsOf } from '../parts';
import { moved } from './definition';

/**
 * The items as a list, each moved by its "Move up" and "Move down" buttons (named by the item), the
 * new order said in a polite live region. Until the taker moves an item or keeps the order shown,
 * the answer is "" (not answered) and the list is the attempt's order.
 */
export function TakerInput({ question, name, value, onAnswer }: TakerInputProps) {
  const shown = question.options;
  const given = partsOf(value, shown.length);
  const answered = value !== '' && given.every((item) => shown.includes(item));
  const items = answered ? given : shown;
  const nameOf = (item: string) => choiceLabelOf(item, question.text_format);
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
    setSaid(`“${nameOf(items[from])}” is now ${to + 1} of ${items.length}.`);
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
              <QuestionText text={item} format={question.text_format} />{' '}
              <button
                type="button"
                id={up}
                className="secondary"
                aria-label={`Move up: ${nameOf(item)}`}
                disabled={i === 0}
                onClick={() => move(i, i - 1, `${name}-up-${i - 1}`, `${name}-down-${i - 1}`)}
              >
                Move up
              </button>{' '}
              <button
                type="button"
                id={down}
                className="secondary"
                aria-label={`Move down: ${nameOf(item)}`}
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
