import { useEffect, useRef, useState } from 'react';
import type { TakerInputProps } from './module';

const TEXT_SAVE_DELAY_MS = 600;

/**
 * A typed answer, saved after a pause in typing and when the field is left, not at every keystroke.
 * An entry with a problem (`problemOf`: a numeric entry that is no number, an essay past its limit)
 * is not sent, since the service would refuse it or score it as wrong. `problem` is the entry's,
 * from the first pause or leaving the field until the entry has none.
 */
export function useTypedAnswer({
  label,
  value,
  onAnswer,
  problemOf,
}: {
  label: string;
  value: string;
  onAnswer: (value: string) => void;
  problemOf: (text: string) => string | null;
}) {
  const [text, setText] = useState(value);
  // Whether the entry has been checked (a pause, the field left) since it last had no problem.
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
  const commit = (next: string) => {
    clearTimeout(timer.current);
    setChecked(true);
    if (next === saved.current || problemOf(next) !== null) return;
    saved.current = next;
    onAnswer(next);
  };
  const change = (next: string) => {
    setText(next);
    if (problemOf(next) === null) setChecked(false);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => commit(next), TEXT_SAVE_DELAY_MS);
  };
  const props = {
    'aria-label': label,
    value: text,
    onChange: (e: { target: { value: string } }) => change(e.target.value),
    onBlur: () => commit(text),
  };
  return { text, problem: checked ? problemOf(text) : null, props };
}

const noProblem = () => null;

/**
 * A one-line typed answer. With `check`, an entry with a problem is `aria-invalid` and says why in a
 * message it names with `aria-describedby`, until it has none.
 */
export function TypedLine({
  id,
  label,
  value,
  onAnswer,
  inputMode,
  check,
}: {
  id: string;
  label: string;
  value: string;
  onAnswer: (value: string) => void;
  inputMode: 'text' | 'decimal';
  check?: { problemOf: (text: string) => string | null; unsaved: string; testId: string };
}) {
  const { problem, props } = useTypedAnswer({ label, value, onAnswer, problemOf: check?.problemOf ?? noProblem });
  const errorId = `${id}-error`;
  return (
    <>
      <input
        type="text"
        inputMode={inputMode}
        autoComplete="off"
        aria-invalid={problem !== null || undefined}
        aria-describedby={problem !== null ? errorId : undefined}
        {...props}
      />
      {check ? (
        <p id={errorId} className="field-error" aria-live="polite" data-testid={check.testId}>
          {problem !== null ? `${problem} ${check.unsaved}` : ''}
        </p>
      ) : null}
    </>
  );
}

/** A typed answer on one line, as it is read: text. */
export const TextLineInput = ({ name, label, value, onAnswer }: TakerInputProps) => (
  <TypedLine id={name} label={label} value={value} onAnswer={onAnswer} inputMode="text" />
);
