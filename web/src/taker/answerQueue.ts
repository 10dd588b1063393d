import { openDB, type IDBPDatabase } from 'idb';

/** An answer given in this browser and not yet confirmed by the service. */
export interface PendingAnswer {
  attempt_id: string;
  question_id: string;
  student_answer: string;
  /** The client's counter for this question: the service applies an answer only above the one it holds. */
  client_seq: number;
}

interface QueueSchema {
  pending: { key: [string, string]; value: PendingAnswer; indexes: { by_attempt: string } };
  attempts: { key: string; value: { attempt_id: string; attempt: unknown } };
}

let database: Promise<IDBPDatabase<QueueSchema>> | undefined;
function db() {
  database ??= openDB<QueueSchema>('exam-answers', 1, {
    upgrade(db) {
      db.createObjectStore('pending', { keyPath: ['attempt_id', 'question_id'] }).createIndex('by_attempt', 'attempt_id');
      db.createObjectStore('attempts', { keyPath: 'attempt_id' });
    },
  });
  return database;
}

/** Keeps the newest answer per question: a newer one replaces the one still queued. */
export async function enqueue(answer: PendingAnswer): Promise<void> {
  await (await db()).put('pending', answer);
}

export async function pendingAnswers(attemptId: string): Promise<PendingAnswer[]> {
  return (await db()).getAllFromIndex('pending', 'by_attempt', attemptId);
}

/** Drops what the service has answered for, unless a newer answer was queued meanwhile. */
export async function settle(sent: PendingAnswer[]): Promise<void> {
  const tx = (await db()).transaction('pending', 'readwrite');
  await Promise.all(
    sent.map(async (answer) => {
      const key: [string, string] = [answer.attempt_id, answer.question_id];
      const current = await tx.store.get(key);
      if (current && current.client_seq <= answer.client_seq) await tx.store.delete(key);
    }),
  );
  await tx.done;
}

/** The last attempt read from the service, so a reload while offline still shows the questions. */
export async function rememberAttempt(attemptId: string, attempt: unknown): Promise<void> {
  await (await db()).put('attempts', { attempt_id: attemptId, attempt });
}

export async function rememberedAttempt(attemptId: string): Promise<unknown> {
  return (await (await db()).get('attempts', attemptId))?.attempt;
}
