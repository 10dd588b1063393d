import { qtiWriting, type ExportQuestion, type QtiMapping } from '../../interchange';
import { multipleChoice } from './module';

// A multiple choice in QTI: a choice interaction of one choice.

const { choiceIds, choiceParts } = qtiWriting;
type ExportMedia = qtiWriting.ExportMedia;

// ---- Writing

/** Choices C1, C2…, the one right choice its key. */
const choiceItem = (q: ExportQuestion, media: ExportMedia, notes: string[]) =>
  choiceParts(q, media, notes, { ids: choiceIds(q), correct: new Set([q.correct_answer]), multiple: false });

export const multipleChoiceQti: QtiMapping = { type: multipleChoice.name, write: choiceItem };
