import { FieldPath, type DocumentData, type Query } from 'firebase-admin/firestore';
import { buildQuery, db, paths } from '../firestore';
import { CATEGORY_SEPARATOR, type ExportQuestion } from '../interchange';
import { EXTRA_FIELDS, type QuestionFilters, questionQuerySpec } from '../questions';

// The export's reads: questions a page at a time (a cursor, never an offset),
// their folders' names a page at a time, and a test's questions by id.

export const EXPORT_PAGE_SIZE = 500;

/** The stored fields an export writes, whatever else a document carries (older documents lack the newer ones). */
export function exportedFields(d: DocumentData): Omit<ExportQuestion, 'category'> & { folder_id: string | null } {
  return {
    id: d.id,
    folder_id: d.folder_id ?? null,
    question_type: d.question_type,
    question_text: d.question_text,
    options: d.options ?? [],
    correct_answer: d.correct_answer ?? '',
    tolerance: d.tolerance ?? null,
    max_words: d.max_words ?? null,
    attachments: d.attachments ?? null,
    attachments_required: d.attachments_required ?? null,
    marks: d.marks,
    difficulty: d.difficulty,
    // Every optional field a type keeps (a feedback, a matching's stems, a hotspot's image…), null when not set.
    ...Object.fromEntries(EXTRA_FIELDS.map((field) => [field, d[field] ?? null])),
  };
}

export type Exported = ReturnType<typeof exportedFields>;

const listing = (clientId: string, filters: QuestionFilters): Query =>
  buildQuery(paths.clientQuestions(clientId), questionQuerySpec(filters));

/** How many questions the filters select: one aggregation read. */
export async function countQuestions(clientId: string, filters: QuestionFilters): Promise<number> {
  return (await listing(clientId, filters).count().get()).data().count;
}

export interface QuestionPage {
  questions: Exported[];
  /** The sort values of the page's last question when another page may follow. */
  after: [string, string] | null;
}

/** One page of the listing's order (newest first), after `after`. */
export async function questionPage(
  clientId: string,
  filters: QuestionFilters,
  after: [string, string] | null,
  size = EXPORT_PAGE_SIZE,
): Promise<QuestionPage> {
  let query = listing(clientId, filters).orderBy(FieldPath.documentId(), 'desc');
  if (after) query = query.startAfter(...after);
  const snap = await query.limit(size).get();
  const last = snap.docs[snap.docs.length - 1];
  return {
    questions: snap.docs.map((d) => exportedFields({ ...d.data(), id: d.id })),
    after: last && snap.size === size ? [last.get('created_at') as string, last.id] : null,
  };
}

/** These questions, in this order, those that still exist: one batched read. */
export async function questionsByIds(clientId: string, ids: readonly string[]): Promise<Exported[]> {
  if (ids.length === 0) return [];
  const snaps = await db.getAll(...ids.map((id) => paths.clientQuestion(clientId, id)));
  return snaps.filter((s) => s.exists).map((s) => exportedFields({ ...s.data(), id: s.id }));
}

/** Folder id → its name as category segments, for the ids not yet in `known`: one batched read (only the name). */
export async function addFolderCategories(
  clientId: string,
  folderIds: Iterable<string | null>,
  known: Map<string, string[]>,
): Promise<void> {
  const missing = [...new Set(folderIds)].filter((id): id is string => id !== null && !known.has(id));
  if (missing.length === 0) return;
  const snaps = await db.getAll(...missing.map((id) => paths.clientFolder(clientId, id)), { fieldMask: ['name'] });
  for (const snap of snaps) {
    const name = snap.exists ? (snap.get('name') as string | undefined) : undefined;
    known.set(snap.id, name ? name.split(CATEGORY_SEPARATOR) : []);
  }
}
