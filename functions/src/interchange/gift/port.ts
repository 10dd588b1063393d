import type { ExportTags } from '../conventions';
import type { ExportQuestion } from '../exportModel';
import type { QuestionDraft } from '../model';
import type { HtmlOptions } from '../richOptions';
import type { GiftAnswer, GiftFormat, GiftText } from './grammar';

// Pure: what GIFT's reader and writer ask of the question types, which they are given (each type's
// questionTypes/<type>/gift.ts, bound in questionTypes/formats/gift.ts). The reader tells GIFT's
// kinds of question apart and hands each to the type that reads it; the writer asks a question's
// type for its answer block. Neither knows a type by name.

/**
 * GIFT's kinds of question, told apart as Moodle tells them, each with its name as gift-pegjs gives
 * it (an item's source_type). A choice block without "=" is Moodle's multiple-response choice: a
 * kind of its own here, though gift-pegjs calls it MC too.
 */
export const GIFT_KINDS = {
  Description: 'Description',
  Essay: 'Essay',
  TF: 'TF',
  MC: 'MC',
  MultipleResponse: 'MC',
  Numerical: 'Numerical',
  Matching: 'Matching',
  Short: 'Short',
} as const;
export type GiftKind = keyof typeof GIFT_KINDS;

/** Our tags that carry a field of one type (EXPORT_TAGS): a file's tag for another type is ignored, with a warning. */
export type GiftFieldTag = 'maxWords' | 'caseSensitive' | 'allOrNothing';

/** What a type's reader is given of one question of its kind. */
export interface GiftReading {
  /** The block's answers, without the blank text the grammar finds before a first "=" or "~" (none for a description). */
  answers: GiftAnswer[];
  /** The question's format marker, which its answers and feedback take unless they name their own, as in Moodle. */
  inherited: GiftFormat | null;
  /** A feedback text in the question's own format (`what` names it in a warning). */
  feedback(text: GiftText, what: string): string;
  warn(message: string): void;
  /** Our tags on the question: its type's own (fieldTags) are its reader's to apply. */
  tags: ExportTags;
  /** Where the options kept as HTML are noted (optionText's `rich`): the others of an html question are escaped. */
  rich: Set<string>;
}

/** A question's answer block as written, and what is said above it. */
export interface GiftWritten {
  /** What goes between the braces. */
  body: string;
  /** Comment lines above the question (what was rounded or left out). */
  notes: string[];
  /** Its fields carried as tags (EXPORT_TAGS), after difficulty and marks. */
  tags?: string[];
  /** Texts written between the braces without a format marker whatever the question's format: a "->" in them is written "-&gt;", which a note says. */
  unmarked?: string[];
  /** Answers written each on a line of its own even when there is one. */
  multiline?: boolean;
}

/** What GIFT cannot say: why, for the comment written in the question's place. */
export interface GiftCannot {
  cannot: string;
}

/** How a type reads GIFT's questions of one kind. */
export interface GiftReader {
  readonly kind: GiftKind;
  /** Its fields (the question's text, format, marks and feedback are read already); a Refusal when they cannot be. */
  read(question: GiftReading): Partial<QuestionDraft>;
}

/** What a question type is in GIFT. */
export interface GiftMapping {
  /** How it reads the GIFT kind that becomes one of it (null: none does). */
  readonly reader: GiftReader | null;
  /** The tags that carry fields of its own (see GiftFieldTag). */
  readonly fieldTags: ReadonlyArray<GiftFieldTag>;
  /** Its answer block, or why GIFT cannot say it. */
  write(question: ExportQuestion): GiftWritten | GiftCannot;
}

/** A type GIFT cannot say: not read, and in a written file a comment saying why (`cannot`) in its place. */
export const cannotSay = (cannot: string): GiftMapping => ({ reader: null, fieldTags: [], write: () => ({ cannot }) });

/** A question type as GIFT's reader and writer ask it: its name, how its options are HTML, its GIFT mapping. */
export interface GiftType extends GiftMapping {
  readonly name: string;
  readonly htmlOptions: HtmlOptions;
}

/** A type that reads a GIFT kind. */
export type GiftReaderType = GiftType & { readonly reader: GiftReader };

/** The question types GIFT is read and written with: each kind's reader, each type's mapping. */
export interface GiftTypes {
  readerOf(kind: GiftKind): GiftReaderType;
  /** undefined: a type this export does not know. */
  typeNamed(name: string): GiftType | undefined;
}

/** The types indexed; every GIFT kind must be read by exactly one of them. */
export function giftTypes(types: readonly GiftType[]): GiftTypes {
  const byName = new Map(types.map((type) => [type.name, type]));
  const byKind = new Map<GiftKind, GiftReaderType>();
  for (const kind of Object.keys(GIFT_KINDS) as GiftKind[]) {
    const readers = types.filter((type): type is GiftReaderType => type.reader?.kind === kind);
    if (readers.length !== 1)
      throw new Error(`GIFT's ${kind} questions must be read by one type, not ${readers.length}`);
    byKind.set(kind, readers[0]);
  }
  return { readerOf: (kind) => byKind.get(kind)!, typeNamed: (name) => byName.get(name) };
}
