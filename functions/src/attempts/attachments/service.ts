import { randomBytes } from 'node:crypto';
import { FieldPath, FieldValue } from 'firebase-admin/firestore';
import { assertCanAttachFiles } from '../../auth';
import { db, paths, retryOnContention } from '../../firestore';
import { loadMediaType, loadStore } from '../../media';
import { ApiError, type CallContext, notFound, type UploadBody } from '../../shared';
import { receiveFile, streamBytes, uploadError } from '../../transfer';
import { TAKER_CONTENTION } from '../answering';
import { oneAttemptAtATime } from '../attemptGate';
import { findAttempt, requireAttemptInTransaction } from '../attemptLookup';
import type { StoredAttachment, StoredAttempt } from '../documents';
import { requirePaper } from '../frozenReads';
import { type AttemptCaller, attemptForReading, authorizer, countingRefusals } from '../service';
import {
  type AttachmentRefusal,
  type AttachmentView,
  attachmentName,
  attachmentView,
  decideAttach,
  decideDetach,
  filesOf,
  filesOverBudget,
} from './rules';

// A taker's files attached to an essay: the bytes in Cloud Storage (as media's), the records in the
// attempt's own document, so that counting them, and refusing the one past the limit, is one
// transaction on the attempt however many uploads race.

const refused = (r: AttachmentRefusal) => new ApiError(r.code, r.message);

/** The question as the attempt's paper froze it. */
async function questionOf(attempt: StoredAttempt, questionId: string) {
  const paper = await requirePaper(attempt);
  return paper.questions.find((q) => q.id === questionId);
}

/** The taker's checks (as a save makes them): an administrator by its own token is refused first. */
async function authorizedForChange(caller: AttemptCaller, attemptId: string, call: CallContext) {
  if (caller.token === undefined) assertCanAttachFiles(caller.principal);
  const authorize = authorizer(caller, attemptId, call);
  const attempt = await countingRefusals(call, async () => {
    const found = await findAttempt(attemptId);
    if (!found) throw notFound('Attempt not found');
    await authorize(found.attempt);
    return found.attempt;
  });
  return { attempt, authorize };
}

/**
 * Attaches one file to the answer to an essay: refused before its bytes are read when the answer
 * may take no more; the bytes read (at most 10 MB, 413 past it) and sniffed (PDF, PNG or JPEG, else
 * 400); the object written, then its record, in a transaction that decides again on the attempt as
 * it then stands. Whatever refuses the record removes the object: nothing is left half written.
 */
export async function attachFile(
  caller: AttemptCaller,
  attemptId: string,
  questionId: string,
  upload: UploadBody,
  call: CallContext,
): Promise<AttachmentView> {
  const { attempt, authorize } = await authorizedForChange(caller, attemptId, call);
  const question = await questionOf(attempt, questionId);
  const before = decideAttach({ attempt, questionId, question, nowMs: Date.now() });
  if (before) throw refused(before);

  const { MAX_ATTACHMENT_BYTES, sniffAttachment } = await loadMediaType();
  const received = await receiveFile(upload, MAX_ATTACHMENT_BYTES);
  const { result: bytes, sha256 } = await received.finish(streamBytes(received.stream));
  const sniffed = await sniffAttachment(bytes);
  if (!sniffed.ok) throw uploadError(`This file cannot be attached: ${sniffed.reason}`);

  const record: StoredAttachment = {
    id: randomBytes(12).toString('base64url'),
    name: attachmentName(received.filename, sniffed.contentType),
    content_type: sniffed.contentType,
    size: bytes.byteLength,
    sha256,
    uploaded_at: new Date().toISOString(),
  };
  const object = paths.attachmentObject(attempt.client_id, attempt.id, record.id);
  const store = await loadStore();
  await store.writeFileObject(object, bytes, record.content_type);
  try {
    await retryOnContention(
      () =>
        oneAttemptAtATime(attemptId, () =>
          db.runTransaction(async (tx) => {
            const found = await requireAttemptInTransaction(tx, attemptId);
            await authorize(found.attempt);
            const nowMs = Date.now();
            const refusal = decideAttach({ attempt: found.attempt, questionId, question, nowMs });
            if (refusal) throw refused(refusal);
            const files = [
              ...filesOf(found.attempt, questionId),
              { ...record, uploaded_at: new Date(nowMs).toISOString() },
            ];
            if (filesOverBudget(found.ref.path, found.attempt, questionId, files))
              throw new ApiError(
                'PAYLOAD_TOO_LARGE',
                'The attempt has no room left for another file’s record; remove a file or shorten answers',
              );
            tx.update(found.ref, new FieldPath('attachments', questionId), files);
            record.uploaded_at = files[files.length - 1].uploaded_at;
          }),
        ),
      TAKER_CONTENTION,
    );
  } catch (err) {
    await store.removeFileObject(object);
    throw err;
  }
  return attachmentView(attemptId, questionId, record);
}

/** Removes one file from the answer while the attempt is being taken: its record first, then its bytes. */
export async function removeAttachment(
  caller: AttemptCaller,
  attemptId: string,
  questionId: string,
  attachmentId: string,
  call: CallContext,
): Promise<void> {
  const { attempt, authorize } = await authorizedForChange(caller, attemptId, call);
  const question = await questionOf(attempt, questionId);
  const removed = await retryOnContention(
    () =>
      oneAttemptAtATime(attemptId, () =>
        db.runTransaction(async (tx) => {
          const found = await requireAttemptInTransaction(tx, attemptId);
          await authorize(found.attempt);
          const decision = decideDetach({
            attempt: found.attempt,
            questionId,
            question,
            attachmentId,
            nowMs: Date.now(),
          });
          if ('refused' in decision) throw refused(decision.refused);
          tx.update(
            found.ref,
            new FieldPath('attachments', questionId),
            decision.remaining.length > 0 ? decision.remaining : FieldValue.delete(),
          );
          return decision.removed;
        }),
      ),
    TAKER_CONTENTION,
  );
  // Bytes without a record are never served; a failure here is logged and swept, not the taker's.
  await (await loadStore()).removeFileObject(paths.attachmentObject(attempt.client_id, attempt.id, removed.id));
}

/** One attached file with its bytes, to the attempt's taker or its organization's administrators (anyone else: 404). */
export async function readAttachment(
  caller: AttemptCaller,
  attemptId: string,
  questionId: string,
  attachmentId: string,
  call: CallContext,
): Promise<{ file: StoredAttachment; bytes: Buffer }> {
  const attempt = await attemptForReading(caller, attemptId, call);
  const file = filesOf(attempt, questionId).find((f) => f.id === attachmentId);
  if (!file) throw notFound('Attachment not found');
  const bytes = await (
    await loadStore()
  ).readFileObject(paths.attachmentObject(attempt.client_id, attempt.id, file.id));
  return { file, bytes };
}
