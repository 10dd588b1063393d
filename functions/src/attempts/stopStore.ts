import type { QueryDocumentSnapshot } from 'firebase-admin/firestore';
import { db, paths } from '../firestore';
import { activeEquals } from '../shared';
import { openAttemptsOfSpec } from './attemptQuery';
import type { StopReason } from './documents';

// Stopping the attempts in progress of an archived test or a revoked share
// code: each is marked `stopped` on its own document, which every save reads
// anyway, so the check costs the hot path nothing. The mark is written after
// the archive (or revocation) commits: a start reads the test and the code in
// its transaction, so every attempt started before that commit is found here,
// and none can start after it.

const PAGE = 300;

/** Marks every attempt in progress of the test (or started with the code) as stopped; answers how many it marked. Idempotent. */
export async function stopOpenAttempts(
  clientId: string,
  of: { test_id: string } | { share_code: string },
  reason: StopReason,
  at: string,
): Promise<number> {
  let query = paths.clientAttempts(clientId).select('stopped').limit(PAGE);
  for (const [field, value] of activeEquals(openAttemptsOfSpec(of))) query = query.where(field, '==', value);
  let stopped = 0;
  let last: QueryDocumentSnapshot | undefined;
  for (;;) {
    const snap = await (last ? query.startAfter(last) : query).get();
    const open = snap.docs.filter((doc) => !doc.get('stopped'));
    if (open.length > 0) {
      const batch = db.batch();
      // A field of its own: answers saved and a submit racing this mark are kept whole.
      for (const doc of open) batch.update(doc.ref, { stopped: { reason, at } });
      await batch.commit();
      stopped += open.length;
    }
    if (snap.size < PAGE) return stopped;
    last = snap.docs[snap.docs.length - 1];
  }
}
