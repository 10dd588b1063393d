import { useState } from 'react';
import type { Schemas } from '../../api';
import { duplicateOption, problemsFrom, noProblems, type FieldLabels, type Problems } from '../../fieldErrors';
import { CheckedField, formProblems, FormSummary } from '../../FormProblems';
import {
  EMPTY_KEY_DRAFT,
  findQuestionType,
  QUESTION_TYPES,
  questionTypeOf,
  type KeyDraft,
  type QuestionType,
  type QuestionTypeModule,
} from '../../questionTypes';
import { QuestionText, type TextFormat } from '../../QuestionText';
import { plainTextOf } from '../../questionHtml';

type Question = Schemas['Question'];
export type Difficulty = Question['difficulty'];
export const DIFFICULTIES: Difficulty[] = ['easy', 'medium', 'hard'];

const optionsOf = (d: Draft) =>
  d.options
    .split('\n')
    .map((o) => o.trim())
    .filter(Boolean);

/** What the form edits: the question's fields as text, turned into a QuestionInput on save. */
interface Draft extends KeyDraft {
  question_type: QuestionType;
  question_text: string;
  marks: string;
  difficulty: Difficulty;
  folder_id: string;
  title: string;
  text_format: TextFormat;
  feedback: string;
  /** The passage shown beside it ('' for none). */
  passage_id: string;
}

// What the form does not edit but must not lose on a save (PUT replaces the question):
// kept while the type and the options stay as they were, since they follow the options.
const KEPT_WITH_OPTIONS = ['option_feedback', 'option_credits'] as const;
const KEPT_WITH_TYPE = ['alternatives', 'case_sensitive'] as const;

function draftOf(q?: Question): Draft {
  // The bank offers no edit of a type this app has no module for.
  const questionType = findQuestionType(q?.question_type) ?? QUESTION_TYPES[0];
  return {
    ...EMPTY_KEY_DRAFT,
    question_type: questionType.type,
    question_text: q?.question_text ?? '',
    options: questionType.hasOptions ? (q?.options ?? []).join('\n') : '',
    ...(q ? questionType.keyDraftOf(q) : {}),
    tolerance: q?.tolerance == null ? '' : String(q.tolerance),
    max_words: q?.max_words == null ? '' : String(q.max_words),
    marks: q ? String(q.marks) : '1',
    difficulty: q?.difficulty ?? 'medium',
    folder_id: q?.folder_id ?? '',
    title: q?.title ?? '',
    text_format: q?.text_format ?? 'plain',
    feedback: q?.feedback ?? '',
    passage_id: q?.passage_id ?? '',
  };
}

/** How the passage picker names a passage: its title, else the start of its text. */
function passageName(p: Schemas['Question']): string {
  const text = p.title || plainTextOf(p.question_text, p.text_format);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
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
  const questionType = questionTypeOf(d.question_type);
  const options = optionsOf(d);
  const base = {
    question_text: d.question_text,
    // A type that takes no answer has no marks: none are sent.
    ...(questionType.takesAnswer ? { marks: Number(d.marks) } : {}),
    difficulty: d.difficulty,
    folder_id: d.folder_id || null,
    client_id: clientId,
    // Sent only when set, so a bank without them reads the body as before.
    ...(d.title.trim() ? { title: d.title.trim() } : {}),
    ...(d.text_format === 'html' ? { text_format: 'html' as const } : {}),
    ...(d.feedback.trim() ? { feedback: d.feedback } : {}),
    // A question that asks nothing is a passage itself: it names none.
    ...(questionType.takesAnswer && d.passage_id ? { passage_id: d.passage_id } : {}),
    ...keptOf(d, questionType.hasOptions ? options : (question?.options ?? []), question),
  };
  // The union cannot tell marks present from absent by the type's name: the type's module says.
  return { ...base, ...questionType.bodyOf(d, options) } as Schemas['QuestionInput'];
}

/** The form's fields by the body path they edit, with their labels (the key's are its type's). */
function labelsOf(questionType: QuestionTypeModule): FieldLabels {
  return {
    question_type: 'Type',
    question_text: 'Question text',
    marks: 'Marks',
    difficulty: 'Difficulty',
    folder_id: 'Folder',
    title: 'Title',
    text_format: 'Text format',
    feedback: 'General feedback',
    passage_id: 'Passage',
    ...(questionType.hasOptions ? { options: 'Options' } : {}),
    correct_answer: questionType.keyLabel,
    ...questionType.keyFieldLabels,
  };
}

/** What the form can tell before sending: the options, and the key as its type checks it. */
function checkDraft(d: Draft): Problems {
  const questionType = questionTypeOf(d.question_type);
  const options = optionsOf(d);
  const choice = questionType.hasOptions;
  const repeated = choice ? duplicateOption(options) : null;
  const piped = choice ? options.find((o) => o.includes('|')) : undefined;
  return problemsFrom({
    options: !choice
      ? null
      : repeated
        ? `“${repeated.option}” is written twice (options ${repeated.first} and ${repeated.again}): make each option different.`
        : piped !== undefined
          ? `An option cannot contain “|”: rewrite “${piped}”.`
          : options.length < 2
            ? 'Write at least 2 options, one a line.'
            : options.length > questionType.maxOptions
              ? `Write at most ${questionType.maxOptions} options (there are ${options.length}).`
              : null,
    correct_answer: questionType.keyProblem(d, options),
  });
}

/** Creates or edits one question of any type; `onSave` gets the body for POST or PUT, `error` is its refusal. */
export function QuestionForm({
  question,
  folders,
  passages = [],
  clientId,
  busy,
  error,
  onSave,
  onCancel,
}: {
  question?: Question;
  folders: Schemas['Folder'][];
  /** The bank's passages (questions that ask nothing), one of which a question may be shown beside. */
  passages?: Schemas['Question'][];
  clientId: string;
  busy: boolean;
  error?: unknown;
  onSave: (input: Schemas['QuestionInput']) => void;
  onCancel?: () => void;
}) {
  const [d, setD] = useState<Draft>(() => draftOf(question));
  const [local, setLocal] = useState<Problems>(noProblems);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setD((prev) => ({ ...prev, [key]: value }));
  const setKey = <K extends keyof KeyDraft>(key: K, value: KeyDraft[K]) => setD((prev) => ({ ...prev, [key]: value }));
  const options = optionsOf(d);
  const heading = question ? 'Edit question' : 'New question';
  const questionType = questionTypeOf(d.question_type);
  const labels = labelsOf(questionType);
  const problems = formProblems(local, error, labels);
  const at = (field: string) => problems.fields[field];
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
              <option key={t.type} value={t.type}>
                {t.label}
              </option>
            ))}
          </select>
        </CheckedField>
        {questionType.takesAnswer && (
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
        )}
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
      {questionType.takesAnswer && (
        <CheckedField
          label="Passage"
          problems={at('passage_id')}
          hint="Optional: a description shown beside this question (once for all the questions that share it)"
        >
          <select value={d.passage_id} onChange={(e) => set('passage_id', e.target.value)}>
            <option value="">No passage</option>
            {passages
              .filter((p) => p.id !== question?.id)
              .map((p) => (
                <option key={p.id} value={p.id}>
                  {passageName(p)}
                </option>
              ))}
            {/* A passage past the first page of the list is still shown as chosen. */}
            {d.passage_id && !passages.some((p) => p.id === d.passage_id) ? (
              <option value={d.passage_id}>{d.passage_id}</option>
            ) : null}
          </select>
        </CheckedField>
      )}
      <CheckedField label="Question text" problems={at('question_text')}>
        <textarea required rows={3} value={d.question_text} onChange={(e) => set('question_text', e.target.value)} />
      </CheckedField>
      {questionType.hasOptions && (
        <CheckedField
          label="Options"
          problems={at('options')}
          hint={
            d.text_format === 'html'
              ? 'One option a line, in HTML like the text (an image, a formula: MathML, or TeX \\( \\) made MathML when saved)'
              : 'One option a line'
          }
        >
          <textarea rows={4} value={d.options} onChange={(e) => set('options', e.target.value)} />
        </CheckedField>
      )}
      {questionType.hasOptions && d.text_format === 'html' && options.length > 0 && (
        <ul className="plain option-counts" aria-label="Options as takers see them">
          {options.map((o) => (
            <li key={o}>
              <QuestionText text={o} format="html" />
            </li>
          ))}
        </ul>
      )}
      <questionType.views.AuthorKey draft={d} options={options} set={setKey} problemsAt={at} />
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
