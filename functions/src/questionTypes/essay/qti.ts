import { qtiWriting, type ExportQuestion, type QtiMapping } from '../../interchange';
import { essay } from './module';

// An essay in QTI: an extended text (its word limit ours, data-max-words) and, when it takes
// files, an upload beside it (its count of files ours, data-attachments); a person scores it.

const { element } = qtiWriting;
type ItemParts = qtiWriting.ItemParts;

// ---- Writing

/** On an extended text interaction: our export's word limit. */
export const MAX_WORDS_ATTRIBUTE = 'data-max-words';
/** On an essay's upload interaction: how many files it takes, and how many it requires. */
const ATTACHMENTS_ATTRIBUTE = 'data-attachments';
const ATTACHMENTS_REQUIRED_ATTRIBUTE = 'data-attachments-required';

/** An essay: an extended text, and when it takes files an upload beside it (its count of files ours). */
const essayItem = (q: ExportQuestion): ItemParts => ({
  declarations:
    element('qti-response-declaration', { identifier: 'RESPONSE', cardinality: 'single', 'base-type': 'string' }) +
    (q.attachments
      ? element('qti-response-declaration', { identifier: 'FILE', cardinality: 'single', 'base-type': 'file' })
      : ''),
  interaction:
    element('qti-extended-text-interaction', {
      'response-identifier': 'RESPONSE',
      [MAX_WORDS_ATTRIBUTE]: q.max_words ?? undefined,
    }) +
    (q.attachments
      ? element('qti-upload-interaction', {
          'response-identifier': 'FILE',
          [ATTACHMENTS_ATTRIBUTE]: q.attachments,
          [ATTACHMENTS_REQUIRED_ATTRIBUTE]: q.attachments_required || undefined,
        })
      : ''),
  processing: '',
});

export const essayQti: QtiMapping = { type: essay.name, write: essayItem };
