import { qtiWriting, type ExportQuestion, type QtiMapping } from '../../interchange';
import { multipleSelect } from './module';

// A multiple select in QTI: a choice interaction of any number of choices, scored by the mapping
// of its credits when it has them.

const { choiceIds, choiceParts, correctOptions } = qtiWriting;
type ExportMedia = qtiWriting.ExportMedia;

// ---- Writing

/** Choices C1, C2…, the right ones its key, each scored by its credit when the question has credits. */
const choicesItem = (q: ExportQuestion, media: ExportMedia, notes: string[]) =>
  choiceParts(q, media, notes, { ids: choiceIds(q), correct: correctOptions(q), multiple: true });

export const multipleSelectQti: QtiMapping = { type: multipleSelect.name, write: choicesItem };
