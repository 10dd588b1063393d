import type { DocumentData } from 'firebase-admin/firestore';
import { isDocumentId, notFound, type PageRequest } from '../shared';
import { db, fetchPage, hasStatus, NOT_FOUND, paths } from '../firestore';
import { findFolderInTransaction } from '../folders';
import { questionQuerySpec } from './questionQuery';
import type { QuestionExtras } from '../questionTypes';
import type { StoredQuestion } from './documents';
import { EXTRA_FIELDS, type QuestionFilters } from './schemas';

const questionNotFound = () => notFound('Question not found');

/** Thrown inside a write's transaction when its folder_id names no folder of the question's organization. */
export class MissingFolder extends Error {
  constructor(readonly folderId: string) {
    super(`Folder ${folderId} not found`);
  }
}

/** Exactly the stored fields, whatever else a document carries. */
export const toStoredQuestion = (d: DocumentData): StoredQuestion => ({
  id: d.id,
  client_id: d.client_id,
  folder_id: d.folder_id ?? null,
  question_text: d.question_text,
  question_type: d.question_type,
  options: d.options ?? [],
  correct_answer: d.correct_answer,
  tolerance: d.tolerance ?? null,
  max_words: d.max_words ?? null,
  marks: d.marks,
  difficulty: d.difficulty,
  created_at: d.created_at,
  updated_at: d.updated_at,
  ...extrasOf(d),
});

/** The optional fields a document holds (QuestionExtras): only those set. */
function extrasOf(d: DocumentData): QuestionExtras {
  const extras: Record<string, unknown> = {};
  for (const field of EXTRA_FIELDS) if (d[field] !== undefined && d[field] !== null) extras[field] = d[field];
  return extras as QuestionExtras;
}

export async function findQuestion(clientId: string, questionId: string): Promise<StoredQuestion | undefined> {
  if (!isDocumentId(clientId) || !isDocumentId(questionId)) return undefined;
  const snap = await paths.clientQuestion(clientId, questionId).get();
  return snap.exists ? toStoredQuestion(snap.data()!) : undefined;
}

/** The question with this id in whichever organization holds it (one query read). */
export async function findQuestionAnywhere(questionId: string): Promise<StoredQuestion | undefined> {
  if (!isDocumentId(questionId)) return undefined;
  const snap = await paths.allQuestions().where('id', '==', questionId).limit(1).get();
  return snap.empty ? undefined : toStoredQuestion(snap.docs[0].data());
}

/** Up to `limit` ids of the organization's questions that name `passageId` as their passage (one query, ids only). */
export async function questionsNamingPassage(clientId: string, passageId: string, limit: number): Promise<string[]> {
  const snap = await paths.clientQuestions(clientId).where('passage_id', '==', passageId).select().limit(limit).get();
  return snap.docs.map((d) => d.id);
}

/** Creates the question; one filed in a folder is created in a transaction that reads the folder (see deleteFolder). */
export async function insertQuestion(question: StoredQuestion): Promise<void> {
  const ref = paths.clientQuestion(question.client_id, question.id);
  if (question.folder_id === null) {
    await ref.create(question);
    return;
  }
  const folderId = question.folder_id;
  await db.runTransaction(async (tx) => {
    if (!(await findFolderInTransaction(tx, question.client_id, folderId))) throw new MissingFolder(folderId);
    tx.create(ref, question);
  });
}

/** Replaces a question with what `change` makes of it, in a transaction (with its folder read, as for a create). */
export async function updateQuestion(
  clientId: string,
  questionId: string,
  change: (current: StoredQuestion) => StoredQuestion,
): Promise<StoredQuestion> {
  if (!isDocumentId(questionId)) throw questionNotFound();
  const ref = paths.clientQuestion(clientId, questionId);
  return db.runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    if (!snap.exists) throw questionNotFound();
    const next = change(toStoredQuestion(snap.data()!));
    if (next.folder_id !== null && !(await findFolderInTransaction(tx, clientId, next.folder_id)))
      throw new MissingFolder(next.folder_id);
    tx.set(ref, next);
    return next;
  });
}

/** One write with a precondition: of two deletes at once, one answers 404. */
export async function deleteQuestion(clientId: string, questionId: string): Promise<void> {
  if (!isDocumentId(questionId)) throw questionNotFound();
  try {
    await paths.clientQuestion(clientId, questionId).delete({ exists: true });
  } catch (err) {
    if (hasStatus(err, NOT_FOUND)) throw questionNotFound();
    throw err;
  }
}

export async function listQuestions(clientId: string, filters: QuestionFilters, page: PageRequest) {
  const { docs, pagination } = await fetchPage(paths.clientQuestions(clientId), questionQuerySpec(filters), page);
  return { data: docs.map(toStoredQuestion), pagination };
}
