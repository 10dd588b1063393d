import { qtiWriting, type ExportQuestion, type QtiMapping } from '../../interchange';
import { trueFalse } from './module';

// A true/false in QTI: a choice interaction of one choice between True and False, identified TRUE
// and FALSE.

const { choiceParts } = qtiWriting;
type ExportMedia = qtiWriting.ExportMedia;

// ---- Writing

const TRUE_FALSE_IDS = ['TRUE', 'FALSE'] as const;

/** Its choices True and False (identified TRUE and FALSE), the one right its key. */
const trueFalseItem = (q: ExportQuestion, media: ExportMedia, notes: string[]) =>
  choiceParts(q, media, notes, { ids: [...TRUE_FALSE_IDS], correct: new Set([q.correct_answer]), multiple: false });

export const trueFalseQti: QtiMapping = { type: trueFalse.name, write: trueFalseItem };
