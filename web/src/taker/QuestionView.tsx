import { useEffect, useRef, useState } from 'react';
import type { Schemas } from '../api/client';

const TEXT_SAVE_DELAY_MS = 600;

/** One question, answered by the control its type calls for. */
export function QuestionView({ question, number, value, disabled, onAnswer }: {
  question: Schemas['AttemptQuestion']; number: number; value: string; disabled: boolean; onAnswer: (value: string) => void;
}) {
  const legend = (
    <legend>
      <span className="qnum">{number}.</span> {question.question_text} <span className="marks">({question.marks} {question.marks === 1 ? 'mark' : 'marks'})</span>
    </legend>
  );
  const name = `q-${question.id}`;
  switch (question.question_type) {
    case 'multiple_choice':
    case 'true_false':
      return (
        <fieldset disabled={disabled}>
          {legend}
          {question.options.map((option) => (
            <label key={option} className="option">
              <input type="radio" name={name} value={option} checked={value === option} onChange={() => onAnswer(option)} /> {option}
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
        <fieldset disabled={disabled}>
          {legend}
          {question.options.map((option) => (
            <label key={option} className="option">
              <input type="checkbox" name={name} value={option} checked={chosen.has(option)} onChange={() => toggle(option)} /> {option}
            </label>
          ))}
        </fieldset>
      );
    }
    default:
      return (
        <fieldset disabled={disabled}>
          {legend}
          <TextAnswer label={`Answer to question ${number}`} numeric={question.question_type === 'numeric'} multiline={question.question_type === 'essay'} value={value} onAnswer={onAnswer} />
        </fieldset>
      );
  }
}

/** Saves after a pause in typing and when the field is left, not at every keystroke. */
function TextAnswer({ label, numeric, multiline, value, onAnswer }: { label: string; numeric: boolean; multiline: boolean; value: string; onAnswer: (value: string) => void }) {
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
  const commit = (next: string) => {
    clearTimeout(timer.current);
    if (next === saved.current) return;
    saved.current = next;
    onAnswer(next);
  };
  const change = (next: string) => {
    setText(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => commit(next), TEXT_SAVE_DELAY_MS);
  };
  const props = { 'aria-label': label, value: text, onChange: (e: { target: { value: string } }) => change(e.target.value), onBlur: () => commit(text) };
  return multiline ? <textarea rows={8} maxLength={10000} {...props} /> : <input type="text" inputMode={numeric ? 'decimal' : 'text'} autoComplete="off" {...props} />;
}
