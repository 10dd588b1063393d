import type { ComponentType } from 'react';
import type { Schemas } from '../api';
import type { FieldLabels } from '../fieldErrors';
import type { CsvColumn } from './csvTemplate';

// What every question type is made of, as a Moodle question type plugin is: one folder per type
// holding all of it, asked through the registry (index.ts). A type's pure parts (definition.ts)
// load without React or a browser; its React parts (views.tsx) are the rest of its module.

type Question = Schemas['Question'];
type QuestionInput = Schemas['QuestionInput'];
type AttemptQuestion = Schemas['AttemptQuestion'];
type ReviewItem = Schemas['ReviewItem'];
type Attachment = Schemas['Attachment'];

/** The API's name of a question type. */
export type QuestionType = Question['question_type'];

/** A gap of a gap fill as the form edits it, as text. */
export interface GapDraft {
  kind: 'text' | 'numeric' | 'select' | 'drag';
  /** The accepted answers, one a line: `answer`, or `answer | credit` (numeric: `answer | credit | tolerance`). */
  answers: string;
  /** A select gap's choices, one a line. */
  options: string;
  /** A numeric gap's tolerance, for the answers that name none. */
  tolerance: string;
  case_sensitive: boolean;
  weight: string;
}

/** A calculated question's variable as the form edits it, as text. */
export interface VariableDraft {
  name: string;
  min: string;
  max: string;
  decimals: string;
}

/** A calculated question's choice as the form edits it, as text: a formula shown as its value, its credit, its decimals. */
export interface ChoiceDraft {
  formula: string;
  credit: string;
  decimals: string;
}

/** A hotspot's area as the form edits it: its coordinates as a comma list. */
export interface AreaDraft {
  shape: 'circle' | 'rect' | 'poly';
  coords: string;
  correct: boolean;
  label: string;
}

/** A hotspot's image as the form edits it, as text. */
export interface ImageDraft {
  src: string;
  width: string;
  height: string;
  alt: string;
}

/**
 * The answer key as the question form edits it, as text. One shape for every type, so that
 * switching the type keeps what still fits (the options, a typed answer, a tolerance).
 */
export interface KeyDraft {
  /** The options, one a line. */
  options: string;
  correct_choice: string;
  correct_choices: string[];
  correct_text: string;
  truth: 'True' | 'False';
  tolerance: string;
  max_words: string;
  /** An essay's most files a taker may attach, and the fewest it must; empty for none. */
  attachments: string;
  attachments_required: string;
  /** The question's text, read by the types whose parts are marked in it (gaps, phrases). */
  question_text: string;
  /** A matching's stems, each with the option that matches it. */
  matches: { stem: string; match: string }[];
  ordering_score: 'all_or_nothing' | 'partial';
  /** A gap fill's gaps, gap n at index n − 1. */
  gaps: GapDraft[];
  /** A gap fill's chips, one a line. */
  drag_options: string;
  drag_reusable: boolean;
  /** A hottext's most chosen phrases; empty for no limit. */
  max_choices: string;
  /** A calculated question's variables, its formula (its stored key) and how its tolerance reads. */
  variables: VariableDraft[];
  formula: string;
  tolerance_type: 'absolute' | 'relative';
  /** A calculated question's choices, shown as their values to choose among (none: the number is typed). */
  calculated_choices: ChoiceDraft[];
  /** A hotspot's image, its areas, what the taker does and the most points placed (empty: as many as the correct areas). */
  image: ImageDraft;
  areas: AreaDraft[];
  select: 'areas' | 'points';
  max_points: string;
}

/** The fields every question has, which the form fills in whatever the type. */
type CommonField =
  'question_text' | 'marks' | 'difficulty' | 'folder_id' | 'client_id' | 'title' | 'text_format' | 'feedback';
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** What a type adds to the common fields of a question's body: its name and its key. */
export type KeyBody = DistributiveOmit<QuestionInput, CommonField>;

/** A type's pure parts: data and functions over plain values, tested in node. */
export interface QuestionTypeDefinition {
  type: QuestionType;
  /** Its name in the pages: the question form, the bank's column and filter, the import's report. */
  label: string;
  /** Whether the author writes its options, one a line. */
  hasOptions: boolean;
  /** The most options the author may write (the API's limit for the type); 0 when they write none. */
  maxOptions: number;
  /** Whether its taker's input shows the question's text (its gaps, its phrases), so the legend does not repeat it. */
  textInAnswer: boolean;
  /** The options every question of the type has, not written by the author nor listed in the bank; null when none. */
  fixedOptions: readonly string[] | null;
  /** Said after the question in the taker's legend (its group's accessible name); null when nothing. */
  legendNote: string | null;
  /** Whether a taker answers it: a description is read only (no input, no marks, nothing saved or regraded). */
  takesAnswer: boolean;
  /** Marked by a person rather than by a key: nothing to regrade, and the grading queue holds its answers. */
  markedByPerson: boolean;
  /** The options an answer chose, for their feedback in the review. */
  chosenOptions: (answer: string) => string[];
  /** An answer or a key as the review shows it. */
  shownAnswer: (answer: string) => string;
  /** The form's key fields as a stored question holds them (the rest keep their defaults). */
  keyDraftOf: (question: Question) => Partial<KeyDraft>;
  /** The label of the field that edits `correct_answer`, where its problems are shown. */
  keyLabel: string;
  /** The key's further fields, by the body path they edit, with their labels. */
  keyFieldLabels: FieldLabels;
  /** What the form can tell about the key before sending it; null when nothing. */
  keyProblem: (draft: KeyDraft, options: string[]) => string | null;
  /** The body's type and key, from the draft and its options as written (trimmed, blank lines dropped). */
  bodyOf: (draft: KeyDraft, options: string[]) => KeyBody;
  /** The regrade dialog's hint for a new key; null when the type has no key. */
  regradeKeyHint: string | null;
  /** Whether its key takes a tolerance, which the regrade dialog then offers to change. */
  toleranceInKey: boolean;
  /** Its example row of the CSV template, valid as the import checks it; null when a CSV row cannot hold its key. */
  csvExample: Readonly<Partial<Record<CsvColumn, string>>> | null;
}

/**
 * The files a taker attached to its answer, and how it attaches more: given by the attempt's page
 * for a question that takes files. Each call sends at once (files need the network, unlike text).
 */
export interface AnswerFiles {
  list: readonly Attachment[];
  /** Rejects with the service's refusal, or OfflineError. */
  attach: (file: File) => Promise<void>;
  remove: (attachmentId: string) => Promise<void>;
  /** Fetches a file with the reader's credentials and hands it to the browser. */
  open: (attachment: Attachment) => Promise<void>;
}

/** The taker's control for an answer, inside the question's fieldset (its legend is the page's). */
export interface TakerInputProps {
  question: AttemptQuestion;
  /** The name its controls share, unique on the page. */
  name: string;
  /** The accessible name of a control that has no label of its own. */
  label: string;
  value: string;
  onAnswer: (value: string) => void;
  /** Its attached files, when the question takes files. */
  files?: AnswerFiles;
}

/** The question form's fields for the key, below its options. */
export interface AuthorKeyProps {
  draft: KeyDraft;
  /** The options as written, trimmed, blank lines dropped. */
  options: string[];
  set: <K extends keyof KeyDraft>(key: K, value: KeyDraft[K]) => void;
  /** The problems the form found, or the API reported, at a body path. */
  problemsAt: (field: string) => string[] | undefined;
}

/** A released review's answer: what the taker gave, the key, the marks. */
export interface ReviewProps {
  item: ReviewItem;
  question: AttemptQuestion | undefined;
}

/** A taker's input whose code loads only when a test holds its type: a chunk of its own, loaded with the attempt. */
export interface TakerInputLoader {
  load: () => Promise<ComponentType<TakerInputProps>>;
}

/** A type's React parts. */
export interface QuestionTypeViews {
  TakerInput: ComponentType<TakerInputProps> | TakerInputLoader;
  AuthorKey: ComponentType<AuthorKeyProps>;
  Review: ComponentType<ReviewProps>;
}

/**
 * A whole question type. Its views are bundled with the pages that ask for them; a type whose
 * taker code should load only when a test holds it holds a loader for its `TakerInput` instead,
 * awaited with the attempt before the questions are first shown (`loadTakerInputs`).
 */
export interface QuestionTypeModule extends QuestionTypeDefinition {
  views: QuestionTypeViews;
}
