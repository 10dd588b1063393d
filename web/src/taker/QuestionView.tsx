import { useEffect, useRef, useState } from 'react';
import type { Schemas } from '../api/client';
import { QuestionText } from '../QuestionText';
import { wordCount } from './wordCount';

const TEXT_SAVE_DELAY_MS = 600;

/** One question, answered by the control its type calls for. */
export function QuestionView({
  question,
  number,
  value,
  disabled,
  onAnswer,
}: {
  question: Schemas['AttemptQuestion'];
  number: number;
  value: string;
  disabled: boolean;
  onAnswer: (value: string) => void;
}) {
  const legend = (
    <legend>
      <span className="qnum">{number}.</span>{' '}
      <QuestionText text={question.question_text} format={question.text_format} />{' '}
      <span className="marks">
        ({question.marks} {question.marks === 1 ? 'mark' : 'marks'})
      </span>
    </legend>
  );
  const name = `q-${question.id}`;
  // HTML text has blocks (paragraphs, images) that a legend drawn on the border cannot hold.
  const className = question.text_format === 'html' ? 'rich' : undefined;
  switch (question.question_type) {
    case 'multiple_choice':
    case 'true_false':
      return (
        <fieldset disabled={disabled} className={className}>
          {legend}
          {question.options.map((option) => (
            <label key={option} className="option">
              <input
                type="radio"
                name={name}
                value={option}
                checked={value === option}
                onChange={() => onAnswer(option)}
              />{' '}
              {option}
            </label>
          ))}
        </fieldset>
      );
    case 'multiple_select': {
      const chosen = new Set(value ? value.split('|') : []);
      const toggle = (option: string) => {
        const next = new Set(chosen);
        if (next.has(option)) next.delete(option);
        else next.add(option);
        onAnswer(question.options.filter((o) => next.has(o)).join('|'));
      };
      return (
        <fieldset disabled={disabled} className={className}>
          {legend}
          {question.options.map((option) => (
            <label key={option} className="option">
              <input
                type="checkbox"
                name={name}
                value={option}
                checked={chosen.has(option)}
                onChange={() => toggle(option)}
              />{' '}
              {option}
            </label>
          ))}
        </fieldset>
      );
    }
    default:
      return (
        <fieldset disabled={disabled} className={className}>
          {legend}
          <TextAnswer
            label={`Answer to question ${number}`}
            numeric={question.question_type === 'numeric'}
            essay={
              question.question_type === 'essay' ? { id: `${name}-words`, maxWords: question.max_words ?? null } : null
            }
            value={value}
            onAnswer={onAnswer}
          />
        </fieldset>
      );
  }
}

/**
 * Saves after a pause in typing and when the field is left, not at every keystroke. An essay shows
 * its word count (and its limit); past the limit it is not sent, since the service would refuse it.
 */
function TextAnswer({
  label,
  numeric,
  essay,
  value,
  onAnswer,
}: {
  label: string;
  numeric: boolean;
  essay: { id: string; maxWords: number | null } | null;
  value: string;
  onAnswer: (value: string) => void;
}) {
  const [text, setText] = useState(value);
  const saved = useRef(value);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    // An answer restored from this browser's queue after the first render.
    if (value !== saved.current) {
      saved.current = value;
      setText(value);
    }
  }, [value]);
  const tooLong = (text: string) => essay !== null && essay.maxWords !== null && wordCount(text) > essay.maxWords;
  const commit = (next: string) => {
    clearTimeout(timer.current);
    if (next === saved.current || tooLong(next)) return;
    saved.current = next;
    onAnswer(next);
  };
  const change = (next: string) => {
    setText(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => commit(next), TEXT_SAVE_DELAY_MS);
  };
  const props = {
    'aria-label': label,
    value: text,
    onChange: (e: { target: { value: string } }) => change(e.target.value),
    onBlur: () => commit(text),
  };
  if (!essay) return <input type="text" inputMode={numeric ? 'decimal' : 'text'} autoComplete="off" {...props} />;
  const words = wordCount(text);
  const over = tooLong(text);
  return (
    <>
      <textarea
        rows={8}
        maxLength={10000}
        style={{ width: '100%' }}
        aria-describedby={essay.id}
        aria-invalid={over || undefined}
        {...props}
      />
      <p id={essay.id} className={over ? 'warning' : undefined} data-testid="word-count">
        {words} {words === 1 ? 'word' : 'words'}
        {essay.maxWords !== null ? ` of at most ${essay.maxWords}` : ''}
        {over ? ': too long, shorten it to save it' : ''}
      </p>
    </>
  );
}
