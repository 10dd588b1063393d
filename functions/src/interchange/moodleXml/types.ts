import type { HtmlOptions } from '../richOptions';
import type { QuestionDraft } from '../model';
import type { QuestionReader } from './questionReader';
import type { QuestionWriter } from './questionWriter';

// Pure: what the Moodle XML kit asks of each question type, the port its reader and writer
// dispatch through. Each type says it in its own folder (questionTypes/<type>/moodleXml.ts) and
// questionTypes/formats/moodleXml.ts gathers them into the table, so that the kit names no type.

/** Reads one `<question>` of a Moodle type into a draft; a Refusal says why it cannot be one. */
export type MoodleReader = (r: QuestionReader) => QuestionDraft;

/** A question as a type writes it: its Moodle type and the body after the fields every question has. */
export interface MoodleWritten {
  /** Moodle's name of the type written (`<question type="…">`). */
  type: string;
  body: string;
  /** What Moodle will read otherwise, written as comments before the question. */
  notes: string[];
  /** The question text as the type writes it (a cloze's gaps as embedded answers), when not as stored. */
  text?: string;
  /** Our export's tags (EXPORT_TAGS) saying what Moodle cannot, after the tags every question has. */
  tags?: string[];
}

/** A question the format cannot hold: why, for the comment written in its place. */
export interface MoodleCannot {
  cannot: string;
}

/** Writes one question of a type, or says why this one cannot be. */
export type MoodleWriter = (w: QuestionWriter) => MoodleWritten | MoodleCannot;

/** One question type in Moodle XML: the Moodle types it reads, and how it is written (or why it never is). */
export interface MoodleXmlMapping {
  /** Its readers by the Moodle type each reads (`<question type="…">`). */
  readonly reads: Readonly<Record<string, MoodleReader>>;
  readonly write: MoodleWriter | MoodleCannot;
}

/** The table the kit is given: every type's mapping, and the one fact of each type's module the reader needs. */
export interface MoodleXmlTypes {
  /** The readers by Moodle's type name. */
  readonly readers: ReadonlyMap<string, MoodleReader>;
  /** The writers by our type name. */
  readonly writers: ReadonlyMap<string, MoodleWriter | MoodleCannot>;
  /** How a type's options are HTML in an html question (its module's htmlOptions). */
  readonly htmlOptions: (type: string) => HtmlOptions;
}

/** The table of the types' mappings (by our type name); a Moodle type that two types read is a bug, thrown. */
export function moodleXmlTypes(
  mappings: Readonly<Record<string, MoodleXmlMapping>>,
  htmlOptions: (type: string) => HtmlOptions,
): MoodleXmlTypes {
  const readers = new Map<string, MoodleReader>();
  const readBy = new Map<string, string>();
  for (const [type, mapping] of Object.entries(mappings))
    for (const [moodleType, reader] of Object.entries(mapping.reads)) {
      const other = readBy.get(moodleType);
      if (other) throw new Error(`The Moodle type "${moodleType}" is read by both ${other} and ${type}`);
      readBy.set(moodleType, type);
      readers.set(moodleType, reader);
    }
  const writers = new Map(Object.entries(mappings).map(([type, mapping]) => [type, mapping.write]));
  return { readers, writers, htmlOptions };
}
