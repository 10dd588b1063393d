import { useState } from 'react';
import type { Schemas } from '../../api/client';
import { Field } from '../../ui';
import { type TextFormat } from '../../QuestionText';

type Question = Schemas['Question'];
export type QuestionType = Question['question_type'];
export type Difficulty = Question['difficulty'];

export const QUESTION_TYPES: Array<{ value: QuestionType; label: string }> = [
  { value: 'multiple_choice', label: 'Multiple choice' },
  { value: 'multiple_select', label: 'Multiple select' },
  { value: 'true_false', label: 'True / false' },
  { value: 'short_answer', label: 'Short answer' },
  { value: 'numeric', label: 'Numeric' },
  { value: 'essay', label: 'Essay' },
];
/** The most an essay's "Max words" may be (the API's MAX_ESSAY_WORDS). */
const MAX_ESSAY_WORDS = 10_000;
export const DIFFICULTIES: Difficulty[] = ['easy', 'medium', 'hard'];

const hasOptions = (type: QuestionType) => type === 'multiple_choice' || type === 'multiple_select';

/** What the form edits: the question's fields as text, turned into a QuestionInput on save. */
interface Draft {
  question_type: QuestionType;
  question_text: string;
  options: string;
  correct_choice: string;
  correct_choices: string[];
  correct_text: string;
  true_false: 'True' | 'False';
  tolerance: string;
  max_words: string;
  marks: string;
  difficulty: Difficulty;
  folder_id: string;
  title: string;
  text_format: TextFormat;
  feedback: string;
}

// What the form does not edit but must not lose on a save (PUT replaces the question):
// kept while the type and the options stay as they were, since they follow the options.
const KEPT_WITH_OPTIONS = ['option_feedback', 'option_credits'] as const;
const KEPT_WITH_TYPE = ['alternatives', 'case_sensitive'] as const;

function draftOf(q?: Question): Draft {
  const type = q?.question_type ?? 'multiple_choice';
  return {
    question_type: type,
    question_text: q?.question_text ?? '',
    options: hasOptions(type) ? (q?.options ?? []).join('\n') : '',
    correct_choice: type === 'multiple_choice' ? (q?.correct_answer ?? '') : '',
    correct_choices: type === 'multiple_select' ? (q?.correct_answer ?? '').split('|').filter(Boolean) : [],
    correct_text: type === 'short_answer' || type === 'numeric' ? (q?.correct_answer ?? '') : '',
    true_false: q && type === 'true_false' && (q.correct_answer ?? '').toLowerCase() === 'false' ? 'False' : 'True',
    tolerance: q?.tolerance == null ? '' : String(q.tolerance),
    max_words: q?.max_words == null ? '' : String(q.max_words),
    marks: q ? String(q.marks) : '1',
    difficulty: q?.difficulty ?? 'medium',
    folder_id: q?.folder_id ?? '',
    title: q?.title ?? '',
    text_format: q?.text_format ?? 'plain',
    feedback: q?.feedback ?? '',
  };
}

/** The fields of `q` the form keeps as they are, when the draft still fits them. */
function keptOf(d: Draft, options: string[], q?: Question): Record<string, unknown> {
  if (!q || q.question_type !== d.question_type) return {};
  const source = q as unknown as Record<string, unknown>;
  const sameOptions = options.length === q.options.length && options.every((o, i) => o === q.options[i]);
  const kept: Record<string, unknown> = {};
  for (const key of [...KEPT_WITH_TYPE, ...(sameOptions ? KEPT_WITH_OPTIONS : [])])
    if (source[key] !== undefined && source[key] !== null) kept[key] = source[key];
  return kept;
}

function inputOf(d: Draft, clientId: string, question?: Question): Schemas['QuestionInput'] {
  const options = d.options
    .split('\n')
    .map((o) => o.trim())
    .filter(Boolean);
  const base = {
    question_text: d.question_text,
    marks: Number(d.marks),
    difficulty: d.difficulty,
    folder_id: d.folder_id || null,
    client_id: clientId,
    // Sent only when set, so a bank without them reads the body as before.
    ...(d.title.trim() ? { title: d.title.trim() } : {}),
    ...(d.text_format === 'html' ? { text_format: 'html' as const } : {}),
    ...(d.feedback.trim() ? { feedback: d.feedback } : {}),
    ...keptOf(d, hasOptions(d.question_type) ? options : (question?.options ?? []), question),
  };
  switch (d.question_type) {
    case 'multiple_choice':
      return { ...base, question_type: 'multiple_choice', options, correct_answer: d.correct_choice };
    case 'multiple_select':
      return {
        ...base,
        question_type: 'multiple_select',
        options,
        correct_answer: options.filter((o) => d.correct_choices.includes(o)).join('|'),
      };
    case 'true_false':
      return { ...base, question_type: 'true_false', options: ['True', 'False'], correct_answer: d.true_false };
    case 'short_answer':
      return { ...base, question_type: 'short_answer', correct_answer: d.correct_text };
    case 'numeric':
      return {
        ...base,
        question_type: 'numeric',
        correct_answer: d.correct_text,
        tolerance: d.tolerance.trim() === '' ? null : Number(d.tolerance),
      };
    case 'essay':
      return { ...base, question_type: 'essay', max_words: d.max_words.trim() === '' ? null : Number(d.max_words) };
  }
}

/** Creates or edits one question of any type; `onSave` gets the body for POST or PUT. */
export function QuestionForm({
  question,
  folders,
  clientId,
  busy,
  onSave,
  onCancel,
}: {
  question?: Question;
  folders: Schemas['Folder'][];
  clientId: string;
  busy: boolean;
  onSave: (input: Schemas['QuestionInput']) => void;
  onCancel?: () => void;
}) {
  const [d, setD] = useState<Draft>(() => draftOf(question));
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setD((prev) => ({ ...prev, [key]: value }));
  const options = d.options
    .split('\n')
    .map((o) => o.trim())
    .filter(Boolean);
  const heading = question ? 'Edit question' : 'New question';
  return (
    <form
      className="card"
      aria-label={heading}
      onSubmit={(e) => {
        e.preventDefault();
        onSave(inputOf(d, clientId, question));
      }}
    >
      <h2>{heading}</h2>
      <div className="row">
        <Field label="Type">
          <select value={d.question_type} onChange={(e) => set('question_type', e.target.value as QuestionType)}>
            {QUESTION_TYPES.map((t) => (
              <option key={t.value} value={t.value}>
                {t.label}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Marks">
          <input
            type="number"
            min="0"
            step="any"
            required
            value={d.marks}
            onChange={(e) => set('marks', e.target.value)}
          />
        </Field>
        <Field label="Difficulty">
          <select value={d.difficulty} onChange={(e) => set('difficulty', e.target.value as Difficulty)}>
            {DIFFICULTIES.map((x) => (
              <option key={x} value={x}>
                {x}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Folder">
          <select value={d.folder_id} onChange={(e) => set('folder_id', e.target.value)}>
            <option value="">No folder</option>
            {folders.map((f) => (
              <option key={f.id} value={f.id}>
                {f.name}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <div className="row">
        <Field label="Title" hint="Optional: a name for the bank, not shown to takers">
          <input value={d.title} maxLength={255} onChange={(e) => set('title', e.target.value)} />
        </Field>
        <Field label="Text format">
          <select value={d.text_format} onChange={(e) => set('text_format', e.target.value as TextFormat)}>
            <option value="plain">Plain text</option>
            <option value="html">HTML (sanitized)</option>
          </select>
        </Field>
      </div>
      <Field label="Question text">
        <textarea required rows={3} value={d.question_text} onChange={(e) => set('question_text', e.target.value)} />
      </Field>
      {hasOptions(d.question_type) && (
        <Field label="Options" hint="One option a line">
          <textarea rows={4} value={d.options} onChange={(e) => set('options', e.target.value)} />
        </Field>
      )}
      {d.question_type === 'multiple_choice' && (
        <Field label="Correct option">
          <select value={d.correct_choice} onChange={(e) => set('correct_choice', e.target.value)}>
            <option value="">Choose…</option>
            {options.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
        </Field>
      )}
      {d.question_type === 'multiple_select' && (
        <fieldset>
          <legend>Correct options</legend>
          {options.length === 0 ? <p>Write the options first.</p> : null}
          {options.map((o) => (
            <label key={o} className="option">
              <input
                type="checkbox"
                checked={d.correct_choices.includes(o)}
                onChange={(e) =>
                  set(
                    'correct_choices',
                    e.target.checked ? [...d.correct_choices, o] : d.correct_choices.filter((c) => c !== o),
                  )
                }
              />{' '}
              {o}
            </label>
          ))}
        </fieldset>
      )}
      {d.question_type === 'true_false' && (
        <Field label="Correct answer">
          <select value={d.true_false} onChange={(e) => set('true_false', e.target.value as Draft['true_false'])}>
            <option value="True">True</option>
            <option value="False">False</option>
          </select>
        </Field>
      )}
      {(d.question_type === 'short_answer' || d.question_type === 'numeric') && (
        <Field
          label="Correct answer"
          hint={d.question_type === 'short_answer' ? 'Compared ignoring case and spacing' : 'A number, e.g. 3.14'}
        >
          <input required value={d.correct_text} onChange={(e) => set('correct_text', e.target.value)} />
        </Field>
      )}
      {d.question_type === 'numeric' && (
        <Field label="Tolerance" hint="Accepted absolute difference; empty for exact">
          <input
            type="number"
            min="0"
            step="any"
            value={d.tolerance}
            onChange={(e) => set('tolerance', e.target.value)}
          />
        </Field>
      )}
      {d.question_type === 'essay' && (
        <Field
          label="Max words"
          hint={`Graded by a person. 1 to ${MAX_ESSAY_WORDS.toLocaleString('en')}; empty for no limit`}
        >
          <input
            type="number"
            min="1"
            max={MAX_ESSAY_WORDS}
            step="1"
            value={d.max_words}
            onChange={(e) => set('max_words', e.target.value)}
          />
        </Field>
      )}
      <Field label="General feedback" hint="Optional: shown in the review once it is released">
        <textarea rows={2} value={d.feedback} onChange={(e) => set('feedback', e.target.value)} />
      </Field>
      <div className="row">
        <button type="submit" disabled={busy}>
          {question ? 'Save question' : 'Create question'}
        </button>
        {onCancel && (
          <button type="button" className="secondary" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
