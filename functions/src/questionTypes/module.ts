import type { z } from 'zod';
import type { QuestionExtras, StoredAlternative, TypedFields } from './stored';
import type { TakerExtras } from './takerFields';

// Pure: what a question type is made of. Each type is one folder holding one
// QuestionTypeModule; registry.ts lists them, and the rest of the code asks the
// registry rather than naming a type. A new concern of every type (its mappings to
// and from the bank file formats, say) is a new part here, which the registry's
// test then asks of every type.

/** The optional fields some types take beyond those of every type (title, text_format, feedback). */
export type TypedExtra = Exclude<keyof QuestionExtras, 'title' | 'text_format' | 'feedback' | 'passage_id'>;
/** The core fields some types set and every other stores as null. */
export type OwnField = 'tolerance' | 'max_words';
/** A field a type may take or not: what a refusal of it names. */
export type TypedField = TypedExtra | OwnField;

/** The parts of a question (as stored or frozen) that its type's scoring reads. */
export interface KeyedQuestion {
  /** Present on a question of a paper: what a type that draws per attempt draws for. */
  id?: string;
  question_type: string;
  options: string[];
  correct_answer: string;
  tolerance: number | null;
  marks: number;
  option_credits?: number[] | null;
  alternatives?: ReadonlyArray<StoredAlternative> | null;
  case_sensitive?: boolean | null;
  matches?: ReadonlyArray<string> | null;
  ordering_score?: QuestionExtras['ordering_score'] | null;
  gaps?: QuestionExtras['gaps'] | null;
  stems?: ReadonlyArray<string> | null;
  drag_options?: ReadonlyArray<string> | null;
  variables?: QuestionExtras['variables'] | null;
  choices?: QuestionExtras['choices'] | null;
  tolerance_type?: QuestionExtras['tolerance_type'] | null;
  areas?: QuestionExtras['areas'] | null;
  select?: QuestionExtras['select'] | null;
}

/** The fields of a frozen question a regrade compares to tell a changed key from the same one sent again. */
export type KeyField =
  | 'correct_answer'
  | 'tolerance'
  | 'marks'
  | 'option_credits'
  | 'alternatives'
  | 'case_sensitive'
  | 'matches'
  | 'ordering_score'
  | 'gaps'
  | 'tolerance_type'
  | 'variables'
  | 'choices'
  | 'areas'
  | 'select';

/**
 * What a non-blank answer earns: a share of the marks (0 to 1), and the share of the marks answered
 * wrongly (absent: none), which negative marking charges: all of them for a wrong answer, the wrong
 * parts' share for a type with parts.
 */
export interface Marking {
  share: number;
  wrong?: number;
}

/** How a type's options are HTML in an html question (QuestionTypeModule.htmlOptions). */
export type HtmlOptions = 'one' | 'several' | 'apart' | null;

/** What a taker is shown of a question beside its text: its options and its type's fields, never its key. */
export type TakerView = { options: string[]; question_text?: string } & TakerExtras;

/** A question as frozen, as far as a taker's view of it reads. */
export type ShownQuestion = {
  id: string;
  question_text: string;
  options: string[];
  tolerance: number | null;
  max_words?: number | null;
} & Pick<
  QuestionExtras,
  | 'stems'
  | 'gaps'
  | 'drag_options'
  | 'drag_reusable'
  | 'max_choices'
  | 'variables'
  | 'choices'
  | 'image'
  | 'areas'
  | 'select'
  | 'max_points'
  | 'attachments'
  | 'attachments_required'
>;

/** One part of an answer as analytics counts it: answered or not, the share of the part earned, the choice it made (an index into its part's choices, -1 for none of them). */
export interface PartOutcome {
  answered: boolean;
  earned: number;
  choice?: number;
}

/** What analytics calls a part of a question, and the choices it counts within it (null: none to count). */
export interface PartLabel {
  label: string;
  choices: string[] | null;
}

/** Why a regrade of a question of this type is refused, whatever it corrects (null: its key may be corrected). */
export interface RegradeRefusal {
  message: string;
  detail: string;
}

/**
 * One question type: its schema, how it is stored, scored, counted, shown and regraded.
 * Every part is present on every type (test/questionTypes/registry.test.ts), so a caller
 * asks without knowing which type it has.
 */
export interface QuestionTypeModule<Name extends string = string, Input extends z.ZodType = z.ZodType> {
  /** Its question_type. */
  readonly name: Name;

  // ---- authoring
  /** Its create schema (a strict object whose question_type is `name`): one member of the registry's union. */
  readonly input: Input;
  /** Where its options come from: the author's, its own fixed ones (an author's option feedback does not fit them), or none. */
  readonly options: 'authored' | 'fixed' | 'none';
  /** The optional fields it takes beyond those of every type. */
  readonly extras: ReadonlyArray<TypedExtra>;
  /** The core fields it sets beside correct_answer (stored null on every other type). */
  readonly ownFields: ReadonlyArray<OwnField>;
  /** Its key and alternatives are numbers (an alternative may carry its own tolerance): how a CSV cell of alternatives is read. */
  readonly numericKey: boolean;
  /** The core fields of a validated question as stored: options and answers spelled as the options are. */
  normalize(input: z.output<Input>): TypedFields<Name>;
  /** The extras of its own (among `extras`, but option_feedback) as stored: only those set. */
  normalizeExtras(
    input: z.output<Input>,
  ): Omit<QuestionExtras, 'title' | 'text_format' | 'feedback' | 'option_feedback' | 'passage_id'>;

  /**
   * Whether its key is derived from fields of its own (a matching's `matches`): then correct_answer is
   * never sent, only stored and shown.
   */
  readonly derivesKey: boolean;
  /** An author's input with `key` (written as correct_answer is stored) as its key: how a stored or corrected key is sent back through the schema. */
  inputWithKey(input: Record<string, unknown>, key: string): Record<string, unknown>;
  /**
   * Whether an html question of it holds its options (stems, matches, gap choices) as HTML, and how its
   * key names them: 'one' option, 'several' joined by "|", or 'apart' (a key of its own, left as it is);
   * null: its options are text whatever the question's format (true/false's, hot text's phrases).
   */
  readonly htmlOptions: HtmlOptions;

  // ---- marking
  /** 'key': scored against its answer key when submitted; 'person': graded by a person (no key, nothing to regrade); 'none': no answer, no marks (a description). */
  readonly marking: 'key' | 'person' | 'none';
  /** What a non-blank answer earns against its key, partial credit included (`seed`: the attempt's, for a type that draws per attempt). */
  mark(question: KeyedQuestion, answer: string, seed: string): Marking;
  /** Why a taker's answer cannot be saved for a question of this type (too long, too many words), or undefined. */
  answerProblem(
    answer: string,
    question: {
      question_type: string;
      max_words?: number | null;
      max_choices?: number | null;
      max_points?: number | null;
    },
    maxLength: number,
  ): string | undefined;

  // ---- analytics
  /** The choices an answer names, as analytics counts them per option (one part for a single-answer type). */
  answerParts(answer: string): string[];
  /** Its parts as analytics names them (a matching's stems, a gap fill's gaps…), or null for a type without parts. */
  partLabels(question: KeyedQuestion): PartLabel[] | null;
  /** How an answer did on each part, in partLabels' order (null: the type has no parts). */
  partOutcomes(question: KeyedQuestion, answer: string, seed: string): PartOutcome[] | null;

  // ---- replies and reviews
  /** Its key as an administrator's reply and (with the attempt's `seed`) a released review show it (null: it has none). */
  shownKey(question: Partial<KeyedQuestion> & { correct_answer: string }, seed?: string): string | null;
  /** What a taker sees of it beside its text (options in the attempt's order: `seed` orders a type's own items). */
  takerView(question: ShownQuestion, seed: string): TakerView;

  // ---- regrading
  /** The fields of a frozen question its scoring reads: a regrade that changes none of them changes nothing. */
  readonly keyFields: ReadonlyArray<KeyField>;
  /** Why its questions are never regraded, or null. */
  readonly regradeRefusal: RegradeRefusal | null;
}
