import type { HtmlOptions } from '../richOptions';
import type { PartsWriter } from './itemParts';

// Pure: what the QTI reader and writer are given of the question types, which they never name:
// questionTypes/formats/qti.ts builds it from each type's mapping (questionTypes/<type>/qti.ts).

/** Why QTI gets no item for a type: said in a comment of the package's test. */
export interface NotWritten {
  readonly notWritten: string;
}

/** What one question type is in QTI: a type's qti.ts. */
export interface QtiMapping {
  /** The type's name (the registry's). */
  readonly type: string;
  /** What writes its item's declarations, interaction and response processing, or why QTI holds no item of it. */
  readonly write: PartsWriter | NotWritten;
  /** Its questions are the passages others name: one a question names is written as a stimulus. */
  readonly passage?: true;
}

/** A type as the QTI writer writes it and the reader reads it back. */
export interface QtiTypeFacts {
  readonly write: PartsWriter | NotWritten;
  /** A person scores it: its item's SCORE is scored outside the item (external-scored human). */
  readonly scoredByPerson: boolean;
  /** How its options are HTML in an html question. */
  readonly htmlOptions: HtmlOptions;
}

/** The question types as the QTI reader and writer are given them. */
export interface QtiTypes {
  /** Each type's facts, by its name. */
  readonly byName: ReadonlyMap<string, QtiTypeFacts>;
  /** The type of the passages questions name: written as a stimulus when a question names one. */
  readonly passageType: string;
}
