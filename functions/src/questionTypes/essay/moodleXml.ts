import {
  MAX_ESSAY_ATTACHMENTS,
  textElement,
  xmlElement,
  type MoodleReader,
  type MoodleXmlMapping,
  type QuestionDraft,
  type QuestionReader,
  type TypedDraft,
} from '../../interchange';

// An essay in Moodle XML: Moodle's essay, read for its word limit and attachments; written as the
// bank takes an answer (plain text, which may be left empty).

/** An essay's attachments may be these, in Moodle's filetypeslist words. */
const ESSAY_FILE_TYPES = '.pdf,.png,.jpg,.jpeg';

/** The file types an essay's attachments may be here, as Moodle's filetypeslist names them. */
const ATTACHMENT_FILE_TYPES = new Set([
  '.pdf',
  '.png',
  '.jpg',
  '.jpeg',
  '.jpe',
  'application/pdf',
  'image/png',
  'image/jpeg',
]);

/**
 * An essay's attachments: Moodle's count (-1: any number) within our 0 to 5, its required count within
 * that; the file types it names that are not PDF, PNG or JPEG (or none named: any) are said not carried.
 */
function essayAttachments(r: QuestionReader): Pick<QuestionDraft, 'attachments' | 'attachments_required'> {
  const given = Number(r.value('attachments') ?? 0);
  if (!Number.isInteger(given) || given === 0) return {};
  const most = given < 0 || given > MAX_ESSAY_ATTACHMENTS ? MAX_ESSAY_ATTACHMENTS : given;
  if (most !== given)
    r.warnings.push(
      `It takes ${given < 0 ? 'any number of' : given} attachments; ${MAX_ESSAY_ATTACHMENTS}, the most an essay takes here, were carried`,
    );
  const required = Math.max(0, Math.min(most, Number(r.value('attachmentsrequired') ?? 0) || 0));
  const types = (r.value('filetypeslist') ?? '')
    .split(/[\s,;]+/u)
    .map((t) => t.trim().toLowerCase())
    .filter(Boolean);
  const others = types.filter((t) => !ATTACHMENT_FILE_TYPES.has(t));
  if (types.length === 0 || others.length > 0)
    r.warnings.push(
      `Its attachments may be ${types.length === 0 ? 'any type of file' : others.join(', ')} in Moodle; here they are PDF, PNG or JPEG only`,
    );
  return required > 0 ? { attachments: most, attachments_required: required } : { attachments: most };
}

const essay: MoodleReader = (r) => {
  const draft: TypedDraft = { question_type: 'essay' };
  const max = r.value('maxwordlimit');
  if (max) {
    const words = Number(max);
    if (Number.isInteger(words) && words > 0) draft.max_words = words;
    else r.warnings.push(`maxwordlimit "${max}" is not a positive whole number: no word limit`);
  }
  const min = r.value('minwordlimit');
  if (min) r.notCarried.push(`a minimum of ${min} words`);
  const responseFormat = r.value('responseformat');
  if (responseFormat && responseFormat !== 'plain')
    r.notCarried.push(`response format "${responseFormat}" (answers are plain text here)`);
  if (r.value('responserequired') === '1') r.notCarried.push('response required');
  const lines = r.value('responsefieldlines');
  if (lines) r.notCarried.push(`${lines} response lines`);
  Object.assign(draft, essayAttachments(r));
  const graderInfo = r.child('graderinfo');
  if (graderInfo && r.fieldText(graderInfo) !== '')
    r.warnings.push(
      'Its information for graders is not carried (feedback is shown to students, so it is not put there)',
    );
  const template = r.child('responsetemplate');
  if (template && r.fieldText(template) !== '') r.notCarried.push('response template');
  return r.assemble(draft);
};

export const essayMoodleXml: MoodleXmlMapping = {
  reads: { essay },
  write: ({ q }) => ({
    type: 'essay',
    body:
      // As the bank takes an answer: plain text, which may be left empty (the box's height is Moodle's default).
      textElement('responseformat', 'plain') +
      textElement('responserequired', '0') +
      textElement('minwordlimit', '') +
      textElement('maxwordlimit', q.max_words ? String(q.max_words) : '') +
      textElement('attachments', String(q.attachments ?? 0)) +
      textElement('attachmentsrequired', String(q.attachments_required ?? 0)) +
      (q.attachments ? textElement('filetypeslist', ESSAY_FILE_TYPES) : '') +
      xmlElement('graderinfo', { format: 'html' }, textElement('text', '')) +
      xmlElement('responsetemplate', { format: 'html' }, textElement('text', '')),
    notes: [],
  }),
};
