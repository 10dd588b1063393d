import type { StoredAnswer } from './documents';

// Pure: how the answers a client sends meet the answers an attempt holds. A
// client may number its saves of one question (`client_seq`, its own counter):
// an offline queue replayed late, or out of order, then never overwrites a
// newer answer. No Firebase import.

/** One answer as a client sends it, alone or in a batch. */
export interface IncomingAnswer {
  question_id: string;
  student_answer: string;
  client_seq?: number;
}

/**
 * Whether an answer sent with `clientSeq` is not newer than the one stored, so
 * it is not applied: its seq is not above the stored one. An answer sent
 * without a seq is never stale (it is applied, as saves always were), and one
 * with a seq is never stale against an answer stored without one.
 */
export function isStale(stored: Pick<StoredAnswer, 'client_seq'> | undefined, clientSeq: number | undefined): boolean {
  return clientSeq !== undefined && stored?.client_seq !== undefined && clientSeq <= stored.client_seq;
}

/**
 * The answer as stored once applied. A save without a seq keeps the seq stored
 * for the question: the answers the client numbered before stay ordered, so a
 * late replay of an older numbered one still cannot overwrite what is there.
 */
export function appliedAnswer(
  incoming: IncomingAnswer,
  stored: StoredAnswer | undefined,
  savedAt: string,
): StoredAnswer {
  const clientSeq = incoming.client_seq ?? stored?.client_seq;
  return clientSeq === undefined
    ? { answer: incoming.student_answer, saved_at: savedAt }
    : { answer: incoming.student_answer, saved_at: savedAt, client_seq: clientSeq };
}

/** The verdict on one incoming answer: applied (as it will be stored), or stale (with the answer that stays). */
export type Judged =
  | { applied: true; questionId: string; answer: StoredAnswer }
  | { applied: false; questionId: string; stored: StoredAnswer };

/**
 * Judges every answer of a save (one, or a batch of distinct questions)
 * against the answers stored, in the order sent. Nothing here checks that the
 * questions belong to the attempt, nor the deadline: the caller does.
 */
export function judgeAnswers(
  stored: Readonly<Record<string, StoredAnswer>> | undefined,
  incoming: readonly IncomingAnswer[],
  savedAt: string,
): Judged[] {
  return incoming.map((item) => {
    const current = stored?.[item.question_id];
    if (isStale(current, item.client_seq)) return { applied: false, questionId: item.question_id, stored: current! };
    return { applied: true, questionId: item.question_id, answer: appliedAnswer(item, current, savedAt) };
  });
}
