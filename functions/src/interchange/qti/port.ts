import type { HtmlOptions } from '../richOptions';
import type { XmlElement } from '../xml';
import type { HtmlContext } from './html';
import type { InteractionPart, ItemReading } from './interactions';
import type { PartsWriter } from './itemParts';

// Pure: what the QTI reader and writer are given of the question types, which they never name:
// questionTypes/formats/qti.ts builds it from each type's mapping (questionTypes/<type>/qti.ts).

/** Reads an interaction that is an item's only one. */
export interface InteractionReader {
  read(item: ItemReading): InteractionPart;
  /** Its answer has no key (an essay's text, a file): its item need not declare its response. */
  readonly keyless?: true;
  /** It stands in the text (gaps, hot texts): the text is read with it, which the reader marks, not taken out. */
  readonly inText?: true;
}

/** What a reader of several interactions of one item is given. */
export interface ItemInteractions {
  body: XmlElement;
  /** The body's interactions, in text order. */
  interactions: XmlElement[];
  /** What each interaction's reader is given. */
  reading(interaction: XmlElement): ItemReading;
  ctx: HtmlContext;
  /** The declared maximum score, when it is a positive number of marks. */
  marks: number | undefined;
}

/** Several interactions of one item read as one question (the gaps of one text, an upload beside an essay's text). */
export interface CompositeReader {
  /** Whether the item's interactions (two or more, in text order) are one question it reads. */
  holds(root: XmlElement, interactions: XmlElement[]): boolean;
  /** The interaction the text is read around (taken out, its prompt in its place), if any. */
  apart?(interactions: XmlElement[]): XmlElement | undefined;
  read(item: ItemInteractions): InteractionPart;
}

/** Reads an item that asks nothing (no interaction): its declared responses are warned of. */
export type NoInteractionReader = (root: XmlElement, warnings: Set<string>) => InteractionPart;

/** Why QTI gets no item for a type: said in a comment of the package's test. */
export interface NotWritten {
  readonly notWritten: string;
}

/** What one question type is in QTI: a type's qti.ts. */
export interface QtiMapping {
  /** The type's name (the registry's). */
  readonly type: string;
  /** The interactions it reads when one is an item's only interaction, by their QTI 2.1 names (`choiceInteraction`). */
  readonly readers?: Readonly<Record<string, InteractionReader>>;
  /** The items of several interactions it reads as one question. */
  readonly composite?: CompositeReader;
  /** An item that asks nothing is one of it. */
  readonly noInteraction?: NoInteractionReader;
  /** What writes its item's declarations, interaction and response processing, or why QTI holds no item of it. */
  readonly write: PartsWriter | NotWritten;
  /** Its questions are the passages others name: a stimulus is read as one, and one a question names is written as one. */
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
  /** Each interaction read on its own, by its QTI 2.1 name: one reader each. */
  readonly readers: ReadonlyMap<string, InteractionReader>;
  /** The readers of several interactions as one question, tried in turn. */
  readonly composites: ReadonlyArray<CompositeReader>;
  readonly noInteraction: NoInteractionReader;
  /** Each type's facts, by its name. */
  readonly byName: ReadonlyMap<string, QtiTypeFacts>;
  /** The type of the passages questions name: a stimulus is read as one, and written from one a question names. */
  readonly passageType: string;
}
