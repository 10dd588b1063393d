import { useEffect, useRef, useState } from 'react';
import type { Schemas } from '../api';
import { QuestionText } from '../QuestionText';
import { plural } from '../ui';
import { numberProblem } from './numberAnswer';
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
      <span className="marks">({plural(question.marks, 'mark')})</span>
      {question.question_type === 'multiple_select' ? (
        <>
          {' '}
          <span className="select-all">Select all that apply.</span>
        </>
      ) : null}
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
            id={name}
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
 * A numeric entry that is no number (a word, "1,234") is not sent either, since it would score as
 * wrong: the field says why, from the first pause or leaving the field until it reads as a number.
 */
function TextAnswer({
  id,
  label,
  numeric,
  essay,
  value,
  onAnswer,
}: {
  id: string;
  label: string;
  numeric: boolean;
  essay: { id: string; maxWords: number | null } | null;
  value: string;
  onAnswer: (value: string) => void;
}) {
  const [text, setText] = useState(value);
  // Whether the entry has been checked (a pause, the field left) since it last read as a number.
  const [checked, setChecked] = useState(value !== '');
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
  const notNumber = (text: string) => (numeric ? numberProblem(text) : null);
  const commit = (next: string) => {
    clearTimeout(timer.current);
    setChecked(true);
    if (next === saved.current || tooLong(next) || notNumber(next) !== null) return;
    saved.current = next;
    onAnswer(next);
  };
  const change = (next: string) => {
    setText(next);
    if (notNumber(next) === null) setChecked(false);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => commit(next), TEXT_SAVE_DELAY_MS);
  };
  const props = {
    'aria-label': label,
    value: text,
    onChange: (e: { target: { value: string } }) => change(e.target.value),
    onBlur: () => commit(text),
  };
  if (!essay) {
    const problem = checked ? notNumber(text) : null;
    const errorId = `${id}-error`;
    return (
      <>
        <input
          type="text"
          inputMode={numeric ? 'decimal' : 'text'}
          autoComplete="off"
          aria-invalid={problem !== null || undefined}
          aria-describedby={problem !== null ? errorId : undefined}
          {...props}
        />
        {numeric ? (
          <p id={errorId} className="field-error" aria-live="polite" data-testid="number-error">
            {problem !== null ? `${problem} Not saved until it is a number.` : ''}
          </p>
        ) : null}
      </>
    );
  }
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
