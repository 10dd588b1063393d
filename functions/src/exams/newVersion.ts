import type { FrozenQuestion, StoredPendingEdit, StoredTest, TestContent } from './documents';
import type { TestStatus } from './lifecycle';

// Pure: editing a published test as its next version. The pending edit is kept on the
// test beside its live fields, which stay those of the live version until it is published.

/** What a version freezes of a test (and folder_id, which files it): what a pending edit holds. */
export const contentOf = (test: TestContent): TestContent & { pools: NonNullable<TestContent['pools']> } => ({
  test_name: test.test_name,
  timer: test.timer,
  shuffle: test.shuffle,
  allow_review: test.allow_review,
  negative_marking: test.negative_marking,
  folder_id: test.folder_id,
  question_ids: test.question_ids,
  description: test.description,
  max_attempts: test.max_attempts,
  negative_mark_ratio: test.negative_mark_ratio,
  pools: test.pools ?? [],
});

/** Why a new version cannot be opened on a test in this state, or undefined when it can. */
export function openRefusal(test: Pick<StoredTest, 'status' | 'pending_edit'>): string | undefined {
  if (test.status === 'draft')
    return 'A draft is edited in place (PUT /api/tests/{testId}); only a published test is edited as a new version';
  if (test.status === 'archived')
    return 'An archived test takes no new version: restore it to a draft, edit it and publish it';
  if (test.pending_edit)
    return `A new version is already being edited (opened ${test.pending_edit.opened_at}): edit, publish or discard it`;
  return undefined;
}

/** Why the pending edit cannot be edited, published or discarded now, or undefined when it can. */
export function pendingRefusal(
  test: Pick<StoredTest, 'status' | 'pending_edit'>,
  action: 'edit' | 'publish' | 'discard',
): string | undefined {
  if (!test.pending_edit)
    return 'This test has no new version being edited (it was published or discarded meanwhile, or never opened): open one with POST /api/tests/{testId}/new-version';
  // An archived test keeps its pending edit (restore folds it into the draft), but publishes nothing.
  if (action !== 'discard' && test.status !== 'published')
    return `The test is ${test.status as TestStatus}: its pending edit can only be discarded, or becomes the draft when the test is restored`;
  return undefined;
}

export const openPendingEdit = (test: StoredTest, by: string, now: string): StoredPendingEdit => ({
  ...contentOf(test),
  base_version: test.version ?? 0,
  opened_by: by,
  opened_at: now,
  updated_at: now,
});

/** The test once its pending edit is live (publish) or is the draft's content (restore): the edit is gone. */
export function withPendingApplied(test: StoredTest): StoredTest {
  const { pending_edit: pending, ...rest } = test;
  return pending ? { ...rest, ...contentOf(pending) } : rest;
}

/** The test without its pending edit (discard). */
export function withoutPendingEdit(test: StoredTest): StoredTest {
  const { pending_edit: _pending, ...rest } = test;
  return rest;
}

// ---------------------------------------------------------------- bank changes since a freeze

/** The fields compared: everything a taker sees or a score depends on (not the folder or times). */
export const COMPARED_FIELDS = [
  'question_text',
  'question_type',
  'options',
  'correct_answer',
  'tolerance',
  'marks',
  'difficulty',
  'max_words',
  'title',
  'text_format',
  'feedback',
  'passage_id',
  'option_feedback',
  'option_credits',
  'alternatives',
  'case_sensitive',
  'stems',
  'matches',
  'ordering_score',
  'gaps',
  'drag_options',
  'drag_reusable',
  'max_choices',
  'variables',
  'choices',
  'tolerance_type',
  'image',
  'areas',
  'select',
  'max_points',
  'attachments',
  'attachments_required',
] as const;
export type ComparedField = (typeof COMPARED_FIELDS)[number];

/** Absent, null and each field's "not set" value are one: a version frozen before a field existed lacks it. */
function normalized(field: ComparedField, value: unknown): string {
  if (value === undefined || value === null || value === '') return 'null';
  if (field === 'text_format' && value === 'plain') return 'null';
  if ((field === 'case_sensitive' || field === 'drag_reusable') && value === false) return 'null';
  if (field === 'ordering_score' && value === 'all_or_nothing') return 'null';
  if (field === 'tolerance_type' && value === 'absolute') return 'null';
  if (Array.isArray(value) && value.length === 0 && field !== 'options') return 'null';
  return JSON.stringify(value);
}

/** The fields in which the bank's question now differs from its frozen copy, in COMPARED_FIELDS order. */
export function changedFields(frozen: FrozenQuestion, current: FrozenQuestion): ComparedField[] {
  const f = frozen as unknown as Record<string, unknown>;
  const c = current as unknown as Record<string, unknown>;
  return COMPARED_FIELDS.filter((field) => normalized(field, f[field]) !== normalized(field, c[field]));
}

export interface BankChange {
  question_id: string;
  /** The frozen copy's title, else its text: what the admin page names it by. */
  title: string | null;
  question_text: string;
  text_format: 'plain' | 'html';
  change: 'edited' | 'deleted';
  fields: ComparedField[];
  /** When the bank's question was last written (null: deleted). */
  updated_at: string | null;
}

/** The version's fixed questions that the bank changed or deleted since the freeze, in the version's order. */
export function bankChanges(
  frozen: readonly FrozenQuestion[],
  current: ReadonlyMap<string, { question: FrozenQuestion; updated_at: string }>,
): BankChange[] {
  return frozen.flatMap((q): BankChange[] => {
    const base = {
      question_id: q.id,
      title: q.title ?? null,
      question_text: q.question_text,
      text_format: q.text_format === 'html' ? 'html' : 'plain',
    } as const;
    const now = current.get(q.id);
    if (!now) return [{ ...base, change: 'deleted', fields: [], updated_at: null }];
    const fields = changedFields(q, now.question);
    return fields.length === 0 ? [] : [{ ...base, change: 'edited', fields, updated_at: now.updated_at }];
  });
}

/**
 * Whether the pools a publish froze before its transaction are not those of the content it publishes: a
 * freeze must be of this very content (its updated_at), content with pools needs one, and content that lost
 * its pools meanwhile must not publish the old freeze either.
 */
export const poolFreezeStale = (
  pools: readonly unknown[],
  updatedAt: string,
  frozen: { testUpdatedAt: string } | undefined,
): boolean => (frozen ? frozen.testUpdatedAt !== updatedAt : pools.length > 0);
