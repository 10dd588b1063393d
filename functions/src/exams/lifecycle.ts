// Pure: the test life cycle. A test is authored as a draft, published (which
// freezes a version), archived, and restored to a draft to be edited and
// published again as the next version.

export const TEST_STATUSES = ['draft', 'published', 'archived'] as const;
export type TestStatus = (typeof TEST_STATUSES)[number];

export type TestMove = 'publish' | 'archive' | 'restore';

const MOVES: Record<TestMove, { from: readonly TestStatus[]; to: TestStatus; hint: string }> = {
  publish: {
    from: ['draft'],
    to: 'published',
    hint: 'only a draft can be published; restore an archived test to a draft first',
  },
  archive: { from: ['draft', 'published'], to: 'archived', hint: 'the test is already archived' },
  restore: { from: ['archived'], to: 'draft', hint: 'only an archived test can be restored to a draft' },
};

/** The status a move leads to, or an explanation of why it cannot start from `current`. */
export function applyMove(
  move: TestMove,
  current: TestStatus,
): { ok: true; next: TestStatus } | { ok: false; reason: string } {
  const rule = MOVES[move];
  if (rule.from.includes(current)) return { ok: true, next: rule.to };
  return { ok: false, reason: `Cannot ${move} a ${current} test: ${rule.hint}` };
}

/** The revision a regrade brought a version to, as its test records it (0: never corrected). Every cached copy must be at least this recent. */
export const keyRevisionOf = (test: { key_revisions?: Record<string, number> } | undefined, version: number): number =>
  test?.key_revisions?.[String(version)] ?? 0;

/** Only drafts are edited: what a published test shows is what its frozen version holds. */
export const isEditable = (status: TestStatus): boolean => status === 'draft';

/** Archived or draft tests take no new attempts, so whether they have any can no longer change under a delete. */
export const takesAttempts = (status: TestStatus): boolean => status === 'published';

export type PublishProblem = {
  path: string;
  message: string;
  question_ids?: string[];
};

/**
 * What stops a draft from being published: no questions, no timer, or
 * questions that no longer exist in the organization. Empty when it can be.
 */
export function publishProblems(
  test: { timer: number | null; question_ids: string[]; pools?: readonly unknown[] },
  foundQuestionIds: ReadonlySet<string>,
): PublishProblem[] {
  const problems: PublishProblem[] = [];
  if (test.question_ids.length === 0 && (test.pools ?? []).length === 0) {
    problems.push({ path: 'question_ids', message: 'A test needs at least one question to be published' });
  }
  const missing = test.question_ids.filter((id) => !foundQuestionIds.has(id));
  if (missing.length > 0) {
    problems.push({
      path: 'question_ids',
      message: `These questions no longer exist in this organization: ${missing.join(', ')}`,
      question_ids: missing,
    });
  }
  if (test.timer === null) problems.push({ path: 'timer', message: 'A test needs a timer (minutes) to be published' });
  return problems;
}

/**
 * Each pool's questions as a version freezes them, from the questions its
 * folder (and difficulty) held: a question also fixed, or in an earlier pool,
 * stays there only, so pools never overlap and a draw never repeats a question.
 * Problems name the pool whose draw is larger than what it holds, or the
 * pools together holding more than `maxTotal`.
 */
export function freezePools<P extends { draw: number }>(
  pools: readonly P[],
  candidates: ReadonlyArray<readonly string[]>,
  fixedIds: readonly string[],
  maxTotal: number,
): { pools: Array<P & { question_ids: string[] }>; problems: PublishProblem[] } {
  const taken = new Set(fixedIds);
  const frozen = pools.map((pool, i) => {
    const question_ids = [...new Set(candidates[i])].filter((id) => !taken.has(id)).sort();
    for (const id of question_ids) taken.add(id);
    return { ...pool, question_ids };
  });
  const problems: PublishProblem[] = frozen.flatMap((pool, i) =>
    pool.draw > pool.question_ids.length
      ? [
          {
            path: `pools.${i}`,
            message: `Pool ${i + 1} draws ${pool.draw} questions but holds ${pool.question_ids.length} (its folder’s, less any also fixed or in an earlier pool)`,
          },
        ]
      : [],
  );
  const total = frozen.reduce((sum, pool) => sum + pool.question_ids.length, 0);
  if (total > maxTotal)
    problems.push({
      path: 'pools',
      message: `The pools hold ${total} questions together; at most ${maxTotal} can be frozen into a version`,
    });
  return { pools: frozen, problems };
}
