import { randomUUID } from 'node:crypto';
import { assertCanManageQuestionBank, type Principal, questionBankScope } from '../auth';
import { requireClient } from '../clients';
import { findFolder, findFolderOwner } from '../folders';
import { badRequest, conflict, forbidden, notFound, type PageRequest, validate } from '../shared';
import { errorText, log } from '../platform';
import {
  adminQuestion,
  applyChanges,
  normalizeQuestion,
  type AdminQuestion,
  QuestionInput,
  type Difficulty,
  type QuestionChanges,
  type QuestionType,
  withoutExtras,
} from './schemas';
import type { StoredQuestion } from './documents';
import { recoverStaleImports } from './importStore';
import { isPassageType, namedPassageRefusal, passageRefusal } from './passages';
import * as store from './store';

/**
 * Why a folder_id does not name a folder of `clientId`: 403 for a Client Admin
 * naming another organization's folder, 400 for a Super Admin filing a
 * question into a folder of a different organization than the question's, 404
 * when no organization has it.
 */
export async function refuseFolder(
  principal: Principal,
  clientId: string,
  folderId: string,
  field: string,
): Promise<never> {
  const owner = await findFolderOwner(folderId);
  if (!owner) throw notFound(`Folder ${folderId} not found`);
  if (principal.role !== 'super_admin') throw forbidden('That folder belongs to another organization');
  throw badRequest('folder_id names a folder of another organization', [
    { path: field, message: 'Must be a folder of the question’s organization' },
  ]);
}

async function assertFolderOf(principal: Principal, clientId: string, folderId: string, field: string): Promise<void> {
  if (!(await findFolder(clientId, folderId))) await refuseFolder(principal, clientId, folderId, field);
}

async function withFolderCheck<T>(principal: Principal, clientId: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (err instanceof store.MissingFolder) return refuseFolder(principal, clientId, err.folderId, 'body.folder_id');
    throw err;
  }
}

/** 400 at body.passage_id when `passageId` names no description of the organization that `questionId` may show beside it. */
async function assertPassage(
  clientId: string,
  passageId: string | null | undefined,
  questionId?: string,
): Promise<void> {
  if (!passageId) return;
  const refusal = passageRefusal(await store.findQuestion(clientId, passageId), questionId);
  if (refusal) throw badRequest(`passage_id: ${refusal}`, [{ path: 'body.passage_id', message: refusal }]);
}

/** The most question ids a refusal to drop a passage names. */
const NAMED_SHOWN = 4;

/** 409 when `question`, a passage still named by other questions, would be deleted or made a question that asks something. */
async function assertNotNamedPassage(
  question: { client_id: string; id: string; question_type: string },
  action: 'delete' | 'retype',
  nextType?: string,
): Promise<void> {
  if (!isPassageType(question.question_type)) return;
  if (action === 'retype' && (nextType === undefined || isPassageType(nextType))) return;
  const refusal = namedPassageRefusal(
    await store.questionsNamingPassage(question.client_id, question.id, NAMED_SHOWN),
    action,
  );
  if (refusal) throw conflict(refusal);
}

/** The question, from the caller's own organization (one read) or found across organizations: 403 when another's, 404 when none. */
export async function readQuestion(principal: Principal, questionId: string): Promise<AdminQuestion> {
  if (principal.role !== 'super_admin' && principal.clientId) {
    const own = await store.findQuestion(principal.clientId, questionId);
    if (own) return adminQuestion(own);
  }
  const found = await store.findQuestionAnywhere(questionId);
  if (!found) throw notFound('Question not found');
  assertCanManageQuestionBank(principal, found.client_id);
  return adminQuestion(found);
}

export async function listQuestions(
  principal: Principal,
  filters: { client_id?: string; folder_id?: string; difficulty?: Difficulty; question_type?: QuestionType },
  page: PageRequest,
) {
  const clientId = questionBankScope(principal, filters.client_id, 'query.client_id');
  await requireClient(clientId);
  if (filters.folder_id !== undefined) await assertFolderOf(principal, clientId, filters.folder_id, 'query.folder_id');
  const list = () =>
    store.listQuestions(
      clientId,
      { folder_id: filters.folder_id, difficulty: filters.difficulty, question_type: filters.question_type },
      page,
    );
  // An import whose worker died after its commit point is finished here, beside the listing
  // (one small query when there is none); the page is read again only if one was.
  const recovery = recoverStaleImports(clientId, Date.now()).catch((err) => {
    log.warn('Could not finish a stale import while listing questions', { clientId, error: errorText(err) });
    return 0;
  });
  const [finished, result] = await Promise.all([recovery, list()]);
  const { data, pagination } = finished > 0 ? await list() : result;
  return { data: data.map(adminQuestion), pagination };
}

export async function createQuestion(principal: Principal, input: QuestionInput): Promise<AdminQuestion> {
  const clientId = questionBankScope(principal, input.client_id, 'body.client_id');
  await requireClient(clientId);
  const now = new Date().toISOString();
  const question: StoredQuestion = {
    id: randomUUID(),
    client_id: clientId,
    folder_id: input.folder_id ?? null,
    ...normalizeQuestion(input),
    created_at: now,
    updated_at: now,
  };
  await assertPassage(clientId, question.passage_id, question.id);
  await withFolderCheck(principal, clientId, () => store.insertQuestion(question));
  return adminQuestion(question);
}

function assertSameOrganization(question: { client_id: string }, requested: string | undefined): void {
  if (requested !== undefined && requested !== question.client_id) {
    throw badRequest('A question cannot move to another organization', [
      { path: 'body.client_id', message: 'Must be the question’s organization or absent' },
    ]);
  }
}

/** PUT: the question is replaced whole; folder_id and tolerance left out are cleared. */
export async function replaceQuestion(
  principal: Principal,
  questionId: string,
  input: QuestionInput,
): Promise<AdminQuestion> {
  const question = await readQuestion(principal, questionId);
  assertSameOrganization(question, input.client_id);
  await Promise.all([
    assertPassage(question.client_id, input.passage_id, questionId),
    assertNotNamedPassage(question, 'retype', input.question_type),
  ]);
  const now = new Date().toISOString();
  const replaced = await withFolderCheck(principal, question.client_id, () =>
    store.updateQuestion(question.client_id, questionId, (current) => ({
      ...withoutExtras(current),
      ...normalizeQuestion(input),
      folder_id: input.folder_id ?? null,
      updated_at: now,
    })),
  );
  return adminQuestion(replaced);
}

export async function updateQuestion(
  principal: Principal,
  questionId: string,
  changes: QuestionChanges,
): Promise<AdminQuestion> {
  const question = await readQuestion(principal, questionId);
  await Promise.all([
    assertPassage(question.client_id, changes.passage_id, questionId),
    assertNotNamedPassage(question, 'retype', changes.question_type),
  ]);
  const now = new Date().toISOString();
  const updated = await withFolderCheck(principal, question.client_id, () =>
    store.updateQuestion(question.client_id, questionId, (current) => {
      const input = validate(QuestionInput, applyChanges(current, changes), 'body');
      return {
        ...withoutExtras(current),
        ...normalizeQuestion(input),
        folder_id: input.folder_id ?? null,
        updated_at: now,
      };
    }),
  );
  return adminQuestion(updated);
}

export async function deleteQuestion(principal: Principal, questionId: string): Promise<void> {
  const question = await readQuestion(principal, questionId);
  await assertNotNamedPassage(question, 'delete');
  await store.deleteQuestion(question.client_id, questionId);
}
