// Loaded only when a test holds the type (its module's loader), with the attempt.
import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { QuestionText } from '../../QuestionText';
import { choiceLabelOf } from '../../questionHtml';
import type { TakerInputProps } from '../module';
import { answerOfParts, partsOf } from '../parts';
import { dropIndexOf, moved } from './definition';

/** The item being dragged and the order the list shows while it is. */
interface Drag {
  item: string;
  order: string[];
}

/**
 * The items as a list, each dragged by pointer or touch (its handle) or moved by its "Move up" and
 * "Move down" buttons (named by the item): the buttons are the way without dragging. The moved
 * item's button keeps the focus and its new place is said in a polite live region. Until the taker
 * moves an item or keeps the order shown, the answer is "" (not answered) and the list is the
 * attempt's order.
 */
export function TakerInput({ question, name, value, onAnswer }: TakerInputProps) {
  const shown = question.options;
  const given = partsOf(value, shown.length);
  const answered = value !== '' && given.every((item) => shown.includes(item));
  const items = answered ? given : shown;
  const nameOf = (item: string) => choiceLabelOf(item, question.text_format);
  const [said, setSaid] = useState('');
  const [drag, setDrag] = useState<Drag | null>(null);
  const list = useRef<HTMLOListElement>(null);
  // The button to keep focus on once its item has moved (the list is drawn again around it).
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    if (focusNext.current === null) return;
    document.getElementById(focusNext.current)?.focus();
    focusNext.current = null;
  });
  // Escape puts a dragged item back where it was.
  useEffect(() => {
    if (!drag) return;
    const cancel = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setDrag(null);
    };
    window.addEventListener('keydown', cancel);
    return () => window.removeEventListener('keydown', cancel);
  }, [drag]);
  /** The order `next` answered, `item` said at its new place and its `way` button focused. */
  const settle = (next: string[], item: string, way: 'up' | 'down') => {
    const to = next.indexOf(item);
    // At either end one of its buttons is disabled: the other keeps the focus.
    const kept = to === 0 ? 'down' : to === next.length - 1 ? 'up' : way;
    focusNext.current = `${name}-${kept}-${to}`;
    setSaid(`“${nameOf(item)}” is now ${to + 1} of ${next.length}.`);
    onAnswer(answerOfParts(next));
  };
  const move = (from: number, to: number) => settle(moved(items, from, to), items[from], to < from ? 'up' : 'down');

  const startDrag = (e: PointerEvent<HTMLLIElement>, item: string) => {
    const target = e.target as HTMLElement;
    // A button moves by its click; a fieldset disabled (time up) disables its buttons, not a drag.
    if (e.button !== 0 || target.closest('button') || e.currentTarget.closest('fieldset')?.disabled) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    setDrag({ item, order: items });
  };
  const dragOver = (e: PointerEvent<HTMLLIElement>) => {
    if (!drag || !list.current) return;
    const centres = Array.from(list.current.children, (li) => {
      const box = li.getBoundingClientRect();
      return box.top + box.height / 2;
    });
    const from = drag.order.indexOf(drag.item);
    const to = dropIndexOf(centres, from, e.clientY);
    if (to !== from) setDrag({ item: drag.item, order: moved(drag.order, from, to) });
  };
  const drop = () => {
    if (!drag) return;
    setDrag(null);
    if (drag.order.some((item, i) => item !== items[i])) settle(drag.order, drag.item, 'up');
  };

  const order = drag?.order ?? items;
  return (
    <div className="ordering">
      <p className="hint" id={`${name}-how`}>
        Drag an item by its handle, or move it with its buttons.
      </p>
      <ol ref={list} aria-label="Items in your order" aria-describedby={`${name}-how`}>
        {order.map((item, i) => (
          <li
            key={item}
            className={drag?.item === item ? 'ordering-item dragging' : 'ordering-item'}
            onPointerDown={(e) => startDrag(e, item)}
            onPointerMove={dragOver}
            onPointerUp={drop}
            onPointerCancel={() => setDrag(null)}
          >
            <span className="ordering-handle" aria-hidden="true" />
            <QuestionText text={item} format={question.text_format} />{' '}
            <button
              type="button"
              id={`${name}-up-${i}`}
              className="secondary"
              aria-label={`Move up: ${nameOf(item)}`}
              disabled={i === 0}
              onClick={() => move(i, i - 1)}
            >
              Move up
            </button>{' '}
            <button
              type="button"
              id={`${name}-down-${i}`}
              className="secondary"
              aria-label={`Move down: ${nameOf(item)}`}
              disabled={i === order.length - 1}
              onClick={() => move(i, i + 1)}
            >
              Move down
            </button>
          </li>
        ))}
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
