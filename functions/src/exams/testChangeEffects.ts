import type { Transaction } from 'firebase-admin/firestore';
import type { AuditMeta } from '../audit';

/**
 * What a change of a test does to the attempts taken on it (a moved closes_at
 * reaches the attempts in progress through a sweep; an archive or a revoked
 * share code stops them), handed to exams by the composition root (app.ts) so
 * that exams reaches for neither attempts nor sittings, which both read tests.
 */
export interface TestChangeEffects {
  /** In the change's own transaction: records that the test's attempts in progress must be brought to its new closes_at. Answers the sweep's id. */
  recordSweep(
    tx: Transaction,
    target: { clientId: string; testId: string; reason: 'closes_at_changed'; by: string; meta: AuditMeta },
    now: string,
  ): string;
  /** After the commit: carries the recorded sweep to those attempts. */
  runSweep(sweepId: string): Promise<unknown>;
  /** Marks every attempt in progress of the test (or started with the code) as stopped; answers how many. Idempotent. */
  stopOpenAttempts(
    clientId: string,
    of: { test_id: string } | { share_code: string },
    reason: 'test_archived' | 'share_code_revoked',
    at: string,
  ): Promise<number>;
}

let provided: TestChangeEffects | undefined;

/** Called by the composition root (provideEffects in app.ts) before a test is changed; `undefined` forgets them (a test of the missing hook). */
export function provideTestChangeEffects(effects: TestChangeEffects | undefined): void {
  provided = effects;
}

/** The effects provided; none is a wiring mistake, thrown before the change is written. */
export function testChangeEffects(): TestChangeEffects {
  if (!provided)
    throw new Error(
      'No TestChangeEffects provided: the composition root (provideEffects in app.ts) must run before a test is changed',
    );
  return provided;
}
