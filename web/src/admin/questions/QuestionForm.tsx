import { useId, useState } from 'react';
import type { Schemas } from '../../api';
import {
  duplicateOption,
  isNumberText,
  problemsFrom,
  noProblems,
  type FieldLabels,
  type Problems,
} from '../../fieldErrors';
import { CheckedField, formProblems, FormSummary, ProblemText } from '../../FormProblems';
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

/** The most options a question may have (the API's MAX_OPTIONS). */
const MAX_OPTIONS = 10;

const optionsOf = (d: Draft) =>
  d.options
    .split('\n')
    .map((o) => o.trim())
    .filter(Boolean);

/** The form's fields by the body path they edit, with their labels (the correct answer's depends on the type). */
function labelsOf(type: QuestionType): FieldLabels {
  return {
    question_type: 'Type',
    question_text: 'Question text',
    marks: 'Marks',
    difficulty: 'Difficulty',
    folder_id: 'Folder',
    title: 'Title',
    text_format: 'Text format',
    feedback: 'General feedback',
    ...(hasOptions(type) ? { options: 'Options' } : {}),
    correct_answer:
      type === 'multiple_choice' ? 'Correct option' : type === 'multiple_select' ? 'Correct options' : 'Correct answer',
    ...(type === 'numeric' ? { tolerance: 'Tolerance' } : {}),
    ...(type === 'essay' ? { max_words: 'Max words' } : {}),
  };
}

/** What the form can tell before sending: the options, the key among them, a numeric key that is a number. */
function checkDraft(d: Draft): Problems {
  const options = optionsOf(d);
  const choice = hasOptions(d.question_type);
  const repeated = choice ? duplicateOption(options) : null;
  const piped = choice ? options.find((o) => o.includes('|')) : undefined;
  const chosen = options.filter((o) => d.correct_choices.includes(o));
  return problemsFrom({
    options: !choice
      ? null
      : repeated
        ? `“${repeated.option}” is written twice (options ${repeated.first} and ${repeated.again}): make each option different.`
        : piped !== undefined
          ? `An option cannot contain “|”: rewrite “${piped}”.`
          : options.length < 2
            ? 'Write at least 2 options, one a line.'
            : options.length > MAX_OPTIONS
              ? `Write at most ${MAX_OPTIONS} options (there are ${options.length}).`
              : null,
    correct_answer:
      d.question_type === 'multiple_choice'
        ? d.correct_choice === ''
          ? 'Choose the correct option.'
          : !options.includes(d.correct_choice)
            ? `“${d.correct_choice}” is no longer an option: choose the correct option again.`
            : null
        : d.question_type === 'multiple_select'
          ? chosen.length === 0
            ? 'Tick at least one correct option.'
            : null
          : d.question_type === 'numeric' && !isNumberText(d.correct_text)
            ? /^\s*[+-]?\d+,\d+\s*$/.test(d.correct_text)
              ? `Write the decimals with a point: ${d.correct_text.trim().replace(',', '.')}.`
              : 'Write a number, such as 3.14 or -2 (digits, a point for decimals).'
            : null,
  });
}

/** Creates or edits one question of any type; `onSave` gets the body for POST or PUT, `error` is its refusal. */
export function QuestionForm({
  question,
  folders,
  clientId,
  busy,
  error,
  onSave,
  onCancel,
}: {
  question?: Question;
  folders: Schemas['Folder'][];
  clientId: string;
  busy: boolean;
  error?: unknown;
  onSave: (input: Schemas['QuestionInput']) => void;
  onCancel?: () => void;
}) {
  const [d, setD] = useState<Draft>(() => draftOf(question));
  const [local, setLocal] = useState<Problems>(noProblems);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setD((prev) => ({ ...prev, [key]: value }));
  const options = optionsOf(d);
  const heading = question ? 'Edit question' : 'New question';
  const labels = labelsOf(d.question_type);
  const problems = formProblems(local, error, labels);
  const at = (field: string) => problems.fields[field];
  const correctId = useId();
  return (
    <form
      className="card"
      aria-label={heading}
      onSubmit={(e) => {
        e.preventDefault();
        const found = checkDraft(d);
        setLocal(found);
        if (Object.keys(found.fields).length === 0) onSave(inputOf(d, clientId, question));
      }}
    >
      <h2>{heading}</h2>
      <div className="row">
        <CheckedField label="Type" problems={at('question_type')}>
          <select value={d.question_type} onChange={(e) => set('question_type', e.target.value as QuestionType)}>
            {QUESTION_TYPES.map((t) => (
              <option key={t.value} value={t.value}>
                {t.label}
              </option>
            ))}
          </select>
        </CheckedField>
        <CheckedField label="Marks" problems={at('marks')}>
          <input
            type="number"
            min="0"
            step="any"
            required
            value={d.marks}
            onChange={(e) => set('marks', e.target.value)}
          />
        </CheckedField>
        <CheckedField label="Difficulty" problems={at('difficulty')}>
          <select value={d.difficulty} onChange={(e) => set('difficulty', e.target.value as Difficulty)}>
            {DIFFICULTIES.map((x) => (
              <option key={x} value={x}>
                {x}
              </option>
            ))}
          </select>
        </CheckedField>
        <CheckedField label="Folder" problems={at('folder_id')}>
          <select value={d.folder_id} onChange={(e) => set('folder_id', e.target.value)}>
            <option value="">No folder</option>
            {folders.map((f) => (
              <option key={f.id} value={f.id}>
                {f.name}
              </option>
            ))}
          </select>
        </CheckedField>
      </div>
      <div className="row">
        <CheckedField label="Title" problems={at('title')} hint="Optional: a name for the bank, not shown to takers">
          <input value={d.title} maxLength={255} onChange={(e) => set('title', e.target.value)} />
        </CheckedField>
        <CheckedField label="Text format" problems={at('text_format')}>
          <select value={d.text_format} onChange={(e) => set('text_format', e.target.value as TextFormat)}>
            <option value="plain">Plain text</option>
            <option value="html">HTML (sanitized)</option>
          </select>
        </CheckedField>
      </div>
      <CheckedField label="Question text" problems={at('question_text')}>
        <textarea required rows={3} value={d.question_text} onChange={(e) => set('question_text', e.target.value)} />
      </CheckedField>
      {hasOptions(d.question_type) && (
        <CheckedField label="Options" problems={at('options')} hint="One option a line">
          <textarea rows={4} value={d.options} onChange={(e) => set('options', e.target.value)} />
        </CheckedField>
      )}
      {d.question_type === 'multiple_choice' && (
        <CheckedField label="Correct option" problems={at('correct_answer')}>
          <select value={d.correct_choice} onChange={(e) => set('correct_choice', e.target.value)}>
            <option value="">Choose…</option>
            {options.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
        </CheckedField>
      )}
      {d.question_type === 'multiple_select' && (
        <fieldset aria-describedby={at('correct_answer') ? correctId : undefined}>
          <legend>Correct options</legend>
          {options.length === 0 ? <p>Write the options first.</p> : null}
          <ProblemText id={correctId} messages={at('correct_answer')} />
          {options.map((o) => (
            <label key={o} className="option">
              <input
                type="checkbox"
                aria-invalid={at('correct_answer') ? true : undefined}
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
        <CheckedField label="Correct answer" problems={at('correct_answer')}>
          <select value={d.true_false} onChange={(e) => set('true_false', e.target.value as Draft['true_false'])}>
            <option value="True">True</option>
            <option value="False">False</option>
          </select>
        </CheckedField>
      )}
      {(d.question_type === 'short_answer' || d.question_type === 'numeric') && (
        <CheckedField
          label="Correct answer"
          problems={at('correct_answer')}
          hint={d.question_type === 'short_answer' ? 'Compared ignoring case and spacing' : 'A number, e.g. 3.14'}
        >
          <input required value={d.correct_text} onChange={(e) => set('correct_text', e.target.value)} />
        </CheckedField>
      )}
      {d.question_type === 'numeric' && (
        <CheckedField label="Tolerance" problems={at('tolerance')} hint="Accepted absolute difference; empty for exact">
          <input
            type="number"
            min="0"
            step="any"
            value={d.tolerance}
            onChange={(e) => set('tolerance', e.target.value)}
          />
        </CheckedField>
      )}
      {d.question_type === 'essay' && (
        <CheckedField
          label="Max words"
          problems={at('max_words')}
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
        </CheckedField>
      )}
      <CheckedField
        label="General feedback"
        problems={at('feedback')}
        hint="Optional: shown in the review once it is released"
      >
        <textarea rows={2} value={d.feedback} onChange={(e) => set('feedback', e.target.value)} />
      </CheckedField>
      <FormSummary error={error} problems={problems} labels={labels} />
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
