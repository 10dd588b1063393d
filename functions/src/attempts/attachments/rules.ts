import type { ErrorCode } from '../../shared';
import type { StoredAttachment, StoredAttempt } from '../documents';
import { ATTEMPT_BUDGET_BYTES, attemptBytes, isOverdue, stopMessage } from '../rules';

// Pure: the files a taker attaches to an essay. Whether one may be attached or
// removed now, what it is called, and how it is shown. No Firebase import.

/** The most files one attempt holds, whatever its essays allow: their records live in the attempt's one document. */
export const MAX_ATTACHMENTS_PER_ATTEMPT = 100;
/** The most characters of a file's name that are kept. */
export const MAX_ATTACHMENT_NAME = 120;

export type AttachmentCode = Extract<ErrorCode, 'NOT_FOUND' | 'CONFLICT' | 'VALIDATION_ERROR'>;
/** Why a file may not be attached or removed: the status it answers and what the taker is told. */
export interface AttachmentRefusal {
  code: AttachmentCode;
  message: string;
}

/** The attempt as these decisions read it. */
export type AttemptForFiles = Pick<
  StoredAttempt,
  'status' | 'expires_at' | 'stopped' | 'question_order' | 'attachments'
>;

/** What the decisions read of the question (as frozen): how many files it takes. */
export interface QuestionForFiles {
  attachments?: number | null;
}

export interface FilesContext {
  attempt: AttemptForFiles;
  questionId: string;
  /** The question as frozen on the attempt's paper; undefined when the paper has none of that id. */
  question: QuestionForFiles | undefined;
  nowMs: number;
}

const refusal = (code: AttachmentCode, message: string): AttachmentRefusal => ({ code, message });

/** The files held by one answer. */
export function filesOf(attempt: Pick<StoredAttempt, 'attachments'>, questionId: string): StoredAttachment[] {
  const held = attempt.attachments;
  // Own keys only: a question id such as "__proto__" names no files.
  return held && Object.hasOwn(held, questionId) ? held[questionId] : [];
}

/** Every file the attempt holds. */
const filesHeld = (attempt: Pick<StoredAttempt, 'attachments'>): number =>
  Object.values(attempt.attachments ?? {}).reduce((sum, files) => sum + files.length, 0);

/** What refuses any change to an answer's files: the question, then the attempt's state, then the question's type. */
function changeRefusal({ attempt, questionId, question, nowMs }: FilesContext): AttachmentRefusal | undefined {
  if (!question || !attempt.question_order.includes(questionId))
    return refusal('NOT_FOUND', 'This question is not part of the attempt');
  if (attempt.status !== 'in_progress')
    return refusal('CONFLICT', 'This attempt has been submitted; its attached files can no longer change');
  if (isOverdue(attempt, nowMs))
    return refusal(
      'CONFLICT',
      'Time is up: the attempt passed its deadline (expires_at + 30 s); its files can no longer change',
    );
  const stopped = stopMessage(attempt);
  if (stopped) return refusal('CONFLICT', stopped);
  if (!question.attachments) return refusal('VALIDATION_ERROR', 'This question takes no attached files');
  return undefined;
}

/**
 * Whether one more file may be attached to the answer now. Checked before the bytes are read (a cheap
 * refusal) and again in the transaction that records it, on the attempt as it then stands: that second
 * check is what holds when many uploads race for the last place.
 */
export function decideAttach(context: FilesContext): AttachmentRefusal | undefined {
  const refused = changeRefusal(context);
  if (refused) return refused;
  const most = context.question!.attachments!;
  const held = filesOf(context.attempt, context.questionId).length;
  if (held >= most)
    return refusal(
      'CONFLICT',
      `This answer already has ${held} attached file${held === 1 ? '' : 's'}, the most this question takes (${most}); remove one to attach another`,
    );
  if (filesHeld(context.attempt) >= MAX_ATTACHMENTS_PER_ATTEMPT)
    return refusal(
      'CONFLICT',
      `This attempt already holds ${MAX_ATTACHMENTS_PER_ATTEMPT} attached files, the most one attempt may`,
    );
  return undefined;
}

/** Whether the file may be removed from the answer now: the files that remain, or why not. */
export function decideDetach(
  context: FilesContext & { attachmentId: string },
): { refused: AttachmentRefusal } | { remaining: StoredAttachment[]; removed: StoredAttachment } {
  const refused = changeRefusal(context);
  if (refused) return { refused };
  const files = filesOf(context.attempt, context.questionId);
  const removed = files.find((file) => file.id === context.attachmentId);
  if (!removed) return { refused: refusal('NOT_FOUND', 'Attachment not found') };
  return { remaining: files.filter((file) => file !== removed), removed };
}

/** Whether recording `files` as the answer's files would take the attempt past its storage budget (and make it larger). */
export function filesOverBudget(
  path: string,
  attempt: StoredAttempt,
  questionId: string,
  files: readonly StoredAttachment[],
): boolean {
  const before = attemptBytes(path, attempt);
  const after = attemptBytes(path, { ...attempt, attachments: { ...attempt.attachments, [questionId]: [...files] } });
  return after > ATTEMPT_BUDGET_BYTES && after > before;
}

const EXTENSIONS: Record<StoredAttachment['content_type'], string> = {
  'application/pdf': '.pdf',
  'image/png': '.png',
  'image/jpeg': '.jpg',
};

/**
 * A file's name as kept and shown: the browser's name without any folder, control or direction-changing
 * characters (which could make "exe.pdf" read otherwise), at most MAX_ATTACHMENT_NAME characters with its
 * extension kept; a name that leaves nothing is "attachment" with the extension its content has.
 */
export function attachmentName(sent: string | undefined, contentType: StoredAttachment['content_type']): string {
  const base = (sent ?? '').split(/[/\\]/).pop() ?? '';
  const clean = base
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Cf}\u2028\u2029]/gu, '')
    .replace(/\s+/gu, ' ')
    .trim();
  const characters = Array.from(clean);
  if (characters.length === 0 || /^\.+$/u.test(clean)) return `attachment${EXTENSIONS[contentType]}`;
  if (characters.length <= MAX_ATTACHMENT_NAME) return clean;
  const dot = clean.lastIndexOf('.');
  const extension = dot > 0 && clean.length - dot <= 10 ? Array.from(clean.slice(dot)) : [];
  return [...characters.slice(0, MAX_ATTACHMENT_NAME - extension.length), ...extension].join('');
}

/** Where a file's bytes are served: its taker and the organization's administrators read them there. */
export const attachmentUrl = (attemptId: string, questionId: string, attachmentId: string): string =>
  `/api/attempts/${encodeURIComponent(attemptId)}/answers/${encodeURIComponent(questionId)}/attachments/${encodeURIComponent(attachmentId)}`;

/** A file as replies show it. */
export interface AttachmentView {
  id: string;
  question_id: string;
  name: string;
  content_type: StoredAttachment['content_type'];
  size: number;
  uploaded_at: string;
  url: string;
}

export const attachmentView = (attemptId: string, questionId: string, file: StoredAttachment): AttachmentView => ({
  id: file.id,
  question_id: questionId,
  name: file.name,
  content_type: file.content_type,
  size: file.size,
  uploaded_at: file.uploaded_at,
  url: attachmentUrl(attemptId, questionId, file.id),
});

/** Every file of the attempt, in its questions' order, then the order each was attached. */
export const attachmentViews = (
  attempt: Pick<StoredAttempt, 'id' | 'attachments' | 'question_order'>,
): AttachmentView[] =>
  attempt.question_order.flatMap((questionId) =>
    filesOf(attempt, questionId).map((file) => attachmentView(attempt.id, questionId, file)),
  );
