import { qtiReading, qtiWriting, type ExportQuestion, type QtiMapping } from '../../interchange';
import { essay } from './module';

// An essay in QTI: an extended text (its word limit ours, data-max-words) and, when it takes
// files, an upload beside it (its count of files ours, data-attachments); a person scores it. An
// upload alone, or beside text entries (TAO's), is an essay taking files too.

const { MAX_ESSAY_ATTACHMENTS, attr, correctValues, qtiName } = qtiReading;
type CompositeReader = qtiReading.CompositeReader;
type HtmlContext = qtiReading.HtmlContext;
type InteractionPart = qtiReading.InteractionPart;
type ItemReading = qtiReading.ItemReading;
type XmlElement = qtiReading.XmlElement;
const { element } = qtiWriting;
type ItemParts = qtiWriting.ItemParts;

/** On an extended text interaction: our export's word limit. */
const MAX_WORDS_ATTRIBUTE = 'data-max-words';
/** On an essay's upload interaction: how many files it takes, and how many it requires. */
const ATTACHMENTS_ATTRIBUTE = 'data-attachments';
const ATTACHMENTS_REQUIRED_ATTRIBUTE = 'data-attachments-required';

// ---- Reading

/** An extended text: an essay, its word limit as our export writes it. */
function extendedTextInteraction(item: ItemReading): InteractionPart {
  const { interaction, warnings } = item;
  const maxWords = interaction.attrs[MAX_WORDS_ATTRIBUTE];
  const words = Number(maxWords);
  const limited = maxWords !== undefined && Number.isInteger(words) && words > 0;
  if (maxWords !== undefined && !limited)
    warnings.add(`${MAX_WORDS_ATTRIBUTE} "${maxWords}" is not a positive whole number: no word limit`);
  const hints = ['expectedLength', 'expectedLines']
    .map((a) => [a, attr(interaction, a)] as const)
    .filter(([, v]) => v !== undefined);
  if (hints.length > 0)
    warnings.add(
      `The answer box's size hint (${hints.map(([a, v]) => `${a} ${v}`).join(', ')}) was not carried: it is not a word limit`,
    );
  if (correctValues(item.declaration).length > 0) warnings.add('The model answer (correct response) was not carried');
  return { draft: { question_type: essay.name, ...(limited ? { max_words: words } : {}) }, marks: item.marks ?? 1 };
}

/** A count our export wrote on an upload (whole, 0 to 5), or undefined. */
function countAttribute(interaction: XmlElement, name: string): number | undefined {
  const value = Number(interaction.attrs[name]);
  return Number.isInteger(value) && value >= 0 && value <= MAX_ESSAY_ATTACHMENTS ? value : undefined;
}

/** The file types the bank takes as attachments, as an upload's `type` may name them. */
const ATTACHMENT_TYPES = new Set(['application/pdf', 'image/png', 'image/jpeg']);

/**
 * An upload: an essay taking a file (our export's count of files, else one), graded by a person. Its
 * correct response names a file, which is no key; a `type` other than PDF, PNG or JPEG is said not carried.
 */
function uploadInteraction(item: ItemReading): InteractionPart {
  const { interaction, warnings } = item;
  const attachments = countAttribute(interaction, ATTACHMENTS_ATTRIBUTE) || 1;
  const required = Math.min(attachments, countAttribute(interaction, ATTACHMENTS_REQUIRED_ATTRIBUTE) ?? 0);
  const named = correctValues(item.declaration);
  if (named.length > 0)
    warnings.add(
      `The correct response of the upload (${named.join(', ')}) names a file, not a key: it was not carried`,
    );
  const type = attr(interaction, 'type')?.trim();
  if (type && !type.split(/\s+/u).every((t) => ATTACHMENT_TYPES.has(t.toLowerCase())))
    warnings.add(`The upload asks for ${type}; files attached here are PDF, PNG or JPEG`);
  return {
    draft: {
      question_type: essay.name,
      attachments,
      ...(required > 0 ? { attachments_required: required } : {}),
    },
    marks: item.marks ?? 1,
  };
}

/**
 * An upload beside text entries (our export's extended text and upload; TAO's upload beside a blank):
 * one essay taking files, whose text holds what the entries asked. An extended text gives its word
 * limit; a text entry is merged into the essay's text, and said so.
 */
function essayWithUpload(upload: ItemReading, entries: readonly ItemReading[]): InteractionPart {
  const part = uploadInteraction(upload);
  for (const entry of entries) {
    if (qtiName(entry.interaction) === 'extendedTextInteraction') {
      const written = extendedTextInteraction(entry);
      part.draft = { ...written.draft, ...part.draft };
      continue;
    }
    const id = attr(entry.interaction, 'responseIdentifier') ?? '';
    upload.warnings.add(
      `The text entry "${id}" beside the upload was merged into the essay: its answer is written in the essay's text${correctValues(entry.declaration).length > 0 ? ' (its key was not carried)' : ''}`,
    );
  }
  return part;
}

/**
 * The text entries beside an upload, each marked in the text by what stands in its place: nothing for
 * an extended text (the essay's own box), a blank for a text entry amid running text.
 */
function mergedEntries(interactions: XmlElement[], upload: XmlElement, ctx: HtmlContext): XmlElement[] {
  const entries = interactions.filter((i) => i !== upload);
  for (const entry of entries) {
    const blank = qtiName(entry) === 'textEntryInteraction' ? '_____' : '';
    ctx.marked!.set(entry, { html: blank, text: blank });
  }
  return entries;
}

/** The interactions an upload may stand beside in one essay: the texts it is written in. */
const ESSAY_ENTRIES = new Set(['extendedTextInteraction', 'textEntryInteraction']);

/** The one upload of an item whose other interactions are text entries (one essay taking files), or undefined. */
function uploadAmongEntries(interactions: XmlElement[]): XmlElement | undefined {
  const uploads = interactions.filter((i) => qtiName(i) === 'uploadInteraction');
  if (interactions.length < 2 || uploads.length !== 1) return undefined;
  return interactions.every((i) => i === uploads[0] || ESSAY_ENTRIES.has(qtiName(i))) ? uploads[0] : undefined;
}

/** An upload beside text entries, read as one essay taking files: the text is read around the upload. */
const essayWithUploadReader: CompositeReader = {
  holds: (_root, interactions) => uploadAmongEntries(interactions) !== undefined,
  apart: uploadAmongEntries,
  read: ({ interactions, reading, ctx }) => {
    const upload = uploadAmongEntries(interactions)!;
    return essayWithUpload(reading(upload), mergedEntries(interactions, upload, ctx).map(reading));
  },
};

// ---- Writing

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

export const essayQti: QtiMapping = {
  type: essay.name,
  readers: {
    extendedTextInteraction: { read: extendedTextInteraction, keyless: true },
    uploadInteraction: { read: uploadInteraction, keyless: true },
  },
  composite: essayWithUploadReader,
  write: essayItem,
};
