// Pure: what reading a bank file gives, whatever its format, before the bank's
// own schema validates each question. Every parser (gift, aiken, moodleXml,
// qti) returns a ParsedBank; every exporter takes the bank's questions back.

/**
 * A question type's name, as questionTypes/ lists them and the bank's schema validates a draft's: the
 * formats' kits name no type, each type's mappings (questionTypes/<type>/) say what it becomes.
 */
export type QuestionType = string;
/** The bank's difficulties (questions/schemas.ts validates them): spelled here so that the parsers depend on nothing of the bank's. */
export type Difficulty = 'easy' | 'medium' | 'hard';

/** Joins options in a multiple_select answer key (questions/schemas.ts), so no option may contain it. */
export const OPTION_SEPARATOR = '|';

export const INTERCHANGE_FORMATS = ['csv', 'gift', 'aiken', 'moodle_xml', 'qti'] as const;
export type InterchangeFormat = (typeof INTERCHANGE_FORMATS)[number];

/**
 * Where a media file is referred to in a draft's HTML: the placeholder
 * `@@PLUGINFILE@@/<name>` (Moodle's own spelling), `<name>` being a key of
 * ParsedBank.media. The import stores each file and rewrites the placeholder to
 * `/api/media/{mediaId}`; the export writes it back the format's own way.
 */
export const MEDIA_PLACEHOLDER = '@@PLUGINFILE@@/';

/** A further accepted answer of a short_answer or numeric question. */
export interface AlternativeAnswer {
  answer: string;
  /** 0 to 100: the share of the marks it earns. */
  credit: number;
  /** numeric only: its own tolerance (absent: 0). */
  tolerance?: number;
}

/**
 * A question of ours as a file carries it: the fields POST /api/questions takes
 * (the bank's schema validates it later, as it validates a CSV row). Optional
 * fields are absent when the file does not give them.
 */
export interface QuestionDraft {
  question_type: QuestionType;
  question_text: string;
  title?: string;
  /** `html` text is sanitized by the bank on write; `plain` (the default) is shown as written. */
  text_format?: 'plain' | 'html';
  options?: string[];
  /** multiple_select: the correct options joined by "|"; true_false: "True" or "False". */
  correct_answer?: string;
  marks: number;
  difficulty: Difficulty;
  tolerance?: number;
  max_words?: number;
  /** essay: the most files a taker may attach, and the fewest it must (docs/question-types.md). */
  attachments?: number;
  attachments_required?: number;
  /** General feedback, shown in a released review. */
  feedback?: string;
  /** One per option, in the options' order ("" where an option has none). */
  option_feedback?: string[];
  /** multiple_select partial credit: one per option, −100 to 100 (Moodle's fractions × 100). */
  option_credits?: number[];
  alternatives?: AlternativeAnswer[];
  /** short_answer only: compare case-sensitively. */
  case_sensitive?: boolean;
  /** matching: the texts to match, and for each the option that matches it (docs/question-types.md). */
  stems?: string[];
  matches?: string[];
  /** ordering (options in the right order): all_or_nothing (absent) or partial. */
  ordering_score?: 'all_or_nothing' | 'partial';
  /** gap_fill: one per `[[n]]` in the text, gap n at index n − 1. */
  gaps?: GapDraft[];
  /** gap_fill: the chips of its drag gaps, and whether one may fill several gaps. */
  drag_options?: string[];
  drag_reusable?: boolean;
  /** hottext: the most phrases a taker may choose. */
  max_choices?: number;
  /** calculated: the variables drawn per attempt, the formula of the right answer, how its tolerance reads. */
  variables?: Array<{ name: string; min: number; max: number; decimals: number }>;
  formula?: string;
  /** calculated with choices: formulas shown as values, each with its credit (and the decimals it is shown with). */
  choices?: Array<{ formula: string; credit: number; decimals?: number }>;
  tolerance_type?: 'absolute' | 'relative';
  /** hotspot: the image (its frame), the areas, whether a taker chooses areas or places points. */
  image?: { src: string; width: number; height: number; alt?: string };
  areas?: Array<{ shape: 'circle' | 'rect' | 'poly'; coords: number[]; correct: boolean; label?: string }>;
  select?: 'areas' | 'points';
  max_points?: number;
  /** A description that items of the file name as their passage: the key they name it by (its path in a package). */
  passage_key?: string;
  /** The passage_key of the description this question is shown beside; the import makes it the passage_id. */
  passage_ref?: string;
}

/** One gap of a gap_fill question (docs/question-types.md). */
export interface GapDraft {
  kind: 'text' | 'numeric' | 'select' | 'drag';
  /** Accepted answers: credit 0 to 100 (at least one 100); tolerance for numeric only. */
  answers: AlternativeAnswer[];
  /** select only: the drop-down's choices. */
  options?: string[];
  /** text only. */
  case_sensitive?: boolean;
  /** Its share of the marks (absent: 1). */
  weight?: number;
}

export type ItemStatus = 'ok' | 'error' | 'unsupported';

/** One question found in the file, in file order: the per-question report's source. */
export interface ParsedItem {
  /** GIFT, Aiken, CSV: the line the question starts on (1-based). */
  line?: number;
  /** XML, zip: where it is, e.g. `question[3]` or `items/q1.xml`. */
  path?: string;
  title: string | null;
  /** The source's own name for its type (`multichoice`, `match`, `choiceInteraction`…), for messages. */
  source_type: string;
  status: ItemStatus;
  /** Why it is an error or unsupported; null when ok. */
  message: string | null;
  /** What was carried imperfectly (a weight rounded, a format flag ignored…): nothing is dropped without one. */
  warnings: string[];
  /** The category path in effect for it (segments), or null when the file names none. */
  category: string[] | null;
  /** Present when status is ok. */
  question?: QuestionDraft;
}

/** A media file a bank file carries (Moodle XML base64, a QTI package's files), by its name in MEDIA_PLACEHOLDER references. */
export interface MediaFile {
  name: string;
  bytes: Uint8Array;
}

export interface ParsedBank {
  format: InterchangeFormat;
  items: ParsedItem[];
  media: Map<string, MediaFile>;
}

/**
 * A whole-file refusal (not UTF-8, a DOCTYPE, a zip bomb, QTI 1.2…): the
 * import answers 400 with this message, having written nothing.
 */
export class BankFileRefused extends Error {
  constructor(
    message: string,
    /** Where in the file, when known (`line 3`, `items/q1.xml`). */
    readonly where?: string,
  ) {
    super(message);
    this.name = 'BankFileRefused';
  }
}

/**
 * One question of a file that cannot be carried, thrown by a reader and caught
 * where the question is reported: its message becomes the item's, as an error
 * or (a kind of question the bank cannot hold) unsupported. The item's source
 * type when the refusal itself names it (QTI's "composite item").
 */
export class Refusal extends Error {
  constructor(
    message: string,
    readonly status: 'error' | 'unsupported' = 'error',
    readonly sourceType?: string,
  ) {
    super(message);
    this.name = 'Refusal';
  }
}
