import type { Difficulty, TextFormat } from './fields';

// Pure: the fields of a stored question that its type decides (questions/documents.ts
// StoredQuestion adds the ids, the folder and the dates the bank keeps).

/** A further accepted answer of a question whose type takes alternatives. */
export interface StoredAlternative {
  answer: string;
  /** 0 to 100: the share of the marks it earns. */
  credit: number;
  /** Numeric keys only: its own accepted difference (absent: 0). */
  tolerance?: number;
}

/**
 * The optional fields of a question: each stored only when set (absent on
 * questions stored before them, and meaning the old behaviour), never as null.
 */
export interface QuestionExtras {
  title?: string;
  /** Stored only as 'html' (sanitized question_text, feedback and option_feedback); absent: plain. */
  text_format?: TextFormat;
  /** General feedback, shown in a released review. */
  feedback?: string;
  /** The description shown beside it (a reading passage), of the same organization; never on a description. */
  passage_id?: string;
  /** One per option, in the options' order ("" for none). */
  option_feedback?: string[];
  /** Partial credit of a type that takes it: one per option, −100 to 100. */
  option_credits?: number[];
  /** Further accepted answers of a type that takes them. */
  alternatives?: StoredAlternative[];
  /** Stored only as true, by a type that compares text case for case. */
  case_sensitive?: boolean;
  /** matching: the texts to match, in order. */
  stems?: string[];
  /** matching: per stem, the option that matches it (spelled as the option is). */
  matches?: string[];
  /** ordering: stored only when partial. */
  ordering_score?: 'all_or_nothing' | 'partial';
  /** gap_fill: one per [[n]], gap n at index n − 1. */
  gaps?: StoredGap[];
  /** gap_fill: the chips of its drag gaps. */
  drag_options?: string[];
  /** gap_fill: stored only as true, a chip may fill several gaps. */
  drag_reusable?: boolean;
  /** hottext: the most phrases a taker may choose (absent: no limit). */
  max_choices?: number;
  /** calculated: the variables drawn per attempt. */
  variables?: StoredVariable[];
  /** calculated with choices: the formulas shown as values, each with its credit. */
  choices?: StoredCalculatedChoice[];
  /** calculated: stored only when relative (tolerance a share of the right answer). */
  tolerance_type?: 'absolute' | 'relative';
  /** hotspot: the image its areas are drawn on, and their frame. */
  image?: StoredImage;
  /** hotspot: its areas, in the image's pixels. */
  areas?: StoredArea[];
  /** hotspot: whether a taker chooses areas or places points. */
  select?: 'areas' | 'points';
  /** hotspot with points: the most a taker may place. */
  max_points?: number;
  /** essay: the most files a taker may attach (stored only when 1 or more). */
  attachments?: number;
  /** essay with attachments: the fewest files a taker must attach (stored only when 1 or more). */
  attachments_required?: number;
}

export interface StoredImage {
  src: string;
  width: number;
  height: number;
  alt?: string;
}

export interface StoredArea {
  shape: 'circle' | 'rect' | 'poly';
  coords: number[];
  correct: boolean;
  label?: string;
}

/** A calculated question's variable: drawn uniform in [min, max] with `decimals` decimals. */
export interface StoredVariable {
  name: string;
  min: number;
  max: number;
  decimals: number;
}

/** A calculated question's choice: a formula over its variables, shown as its value (with `decimals`, when set), earning `credit` (0 to 100). */
export interface StoredCalculatedChoice {
  formula: string;
  credit: number;
  decimals?: number;
}

export const GAP_KINDS = ['text', 'numeric', 'select', 'drag'] as const;
export type GapKind = (typeof GAP_KINDS)[number];

/** One gap of a gap_fill question as stored: only the fields its kind takes. */
export interface StoredGap {
  kind: GapKind;
  /** Accepted answers, the first with full credit first. */
  answers: StoredAlternative[];
  /** select: the drop-down's choices. */
  options?: string[];
  /** text: stored only as true. */
  case_sensitive?: boolean;
  /** Its share of the marks (stored always, 1 by default). */
  weight: number;
}

/** The core fields a type's normalize writes: every stored question has them all. */
export interface TypedFields<Name extends string = string> {
  question_text: string;
  question_type: Name;
  options: string[];
  /** Empty for a type graded by a person (replies say null). */
  correct_answer: string;
  /** A numeric key's accepted difference (null on every other type). */
  tolerance: number | null;
  /** The most words an answer may have, on a type that counts them (null: no limit, and on every other type). */
  max_words: number | null;
  marks: number;
  difficulty: Difficulty;
}
