import { deleteDB, openDB, type IDBPDatabase } from 'idb';
import { isSignedIn } from '../localData';

/** An answer given in this browser and not yet confirmed by the service. */
export interface PendingAnswer {
  attempt_id: string;
  question_id: string;
  student_answer: string;
  /** The client's counter for this question: the service applies an answer only above the one it holds. */
  client_seq: number;
}

/** What happened to the exam page (it left the tab, a paste…), for the proctor; kept until the service has it. */
export interface PendingEvent {
  attempt_id: string;
  type: IntegrityEventType;
  /** When it happened, by this browser's clock corrected to the service's. */
  at: string;
  /** Unique per attempt: the service ignores an event it already holds, so a replay counts once. */
  client_seq: number;
}

export type IntegrityEventType =
  'focus_lost' | 'focus_back' | 'paste' | 'fullscreen_exit' | 'offline' | 'online' | 'reload';

interface QueueSchema {
  pending: { key: [string, string]; value: PendingAnswer; indexes: { by_attempt: string } };
  attempts: { key: string; value: { attempt_id: string; attempt: unknown } };
  events: { key: [string, number]; value: PendingEvent; indexes: { by_attempt: string } };
}

/** One database per signed-in user, so no other session on this browser opens it; '' is the unscoped one of earlier builds. */
const PREFIX = 'exam-answers';
const databaseName = (uid: string) => (uid ? `${PREFIX}:${uid}` : PREFIX);

const databases = new Map<string, Promise<IDBPDatabase<QueueSchema>>>();
function db(uid: string) {
  let database = databases.get(uid);
  if (!database) {
    database = openDB<QueueSchema>(databaseName(uid), 2, {
      upgrade(db, oldVersion) {
        if (oldVersion < 1) {
          db.createObjectStore('pending', { keyPath: ['attempt_id', 'question_id'] }).createIndex(
            'by_attempt',
            'attempt_id',
          );
          db.createObjectStore('attempts', { keyPath: 'attempt_id' });
        }
        if (oldVersion < 2)
          db.createObjectStore('events', { keyPath: ['attempt_id', 'client_seq'] }).createIndex(
            'by_attempt',
            'attempt_id',
          );
      },
      // Another tab removing this user's data: let it.
      blocking() {
        void database?.then((open) => open.close());
        databases.delete(uid);
      },
    });
    databases.set(uid, database);
  }
  return database;
}

/** A user's queue and cached attempts. Once `live()` is false (its user signed out) it neither reads nor writes. */
export interface AnswerQueue {
  /** Keeps the newest answer per question: a newer one replaces the one still queued. */
  enqueue(answer: PendingAnswer): Promise<void>;
  pending(attemptId: string): Promise<PendingAnswer[]>;
  /** Every attempt with answers still queued. */
  attemptsWithPending(): Promise<string[]>;
  /** Drops what the service has answered for, unless a newer answer was queued meanwhile. */
  settle(sent: PendingAnswer[]): Promise<void>;
  /** The last attempt read from the service, so a reload while offline still shows the questions. */
  rememberAttempt(attemptId: string, attempt: unknown): Promise<void>;
  rememberedAttempt(attemptId: string): Promise<unknown>;
  forgetAttempts(): Promise<void>;
  /** Integrity events go through the same queue: a student offline loses none of them. */
  enqueueEvent(event: PendingEvent): Promise<void>;
  pendingEvents(attemptId: string): Promise<PendingEvent[]>;
  settleEvents(sent: PendingEvent[]): Promise<void>;
}

export function answerQueue(uid: string, live: () => boolean = () => true): AnswerQueue {
  return {
    async enqueue(answer) {
      if (live()) await (await db(uid)).put('pending', answer);
    },
    async pending(attemptId) {
      return live() ? (await db(uid)).getAllFromIndex('pending', 'by_attempt', attemptId) : [];
    },
    async attemptsWithPending() {
      if (!live()) return [];
      return [...new Set((await (await db(uid)).getAll('pending')).map((a) => a.attempt_id))];
    },
    async settle(sent) {
      if (!live()) return;
      const tx = (await db(uid)).transaction('pending', 'readwrite');
      await Promise.all(
        sent.map(async (answer) => {
          const key: [string, string] = [answer.attempt_id, answer.question_id];
          const current = await tx.store.get(key);
          if (current && current.client_seq <= answer.client_seq) await tx.store.delete(key);
        }),
      );
      await tx.done;
    },
    async rememberAttempt(attemptId, attempt) {
      if (live()) await (await db(uid)).put('attempts', { attempt_id: attemptId, attempt });
    },
    async rememberedAttempt(attemptId) {
      return live() ? (await (await db(uid)).get('attempts', attemptId))?.attempt : undefined;
    },
    async forgetAttempts() {
      if (live()) await (await db(uid)).clear('attempts');
    },
    async enqueueEvent(event) {
      if (live()) await (await db(uid)).put('events', event);
    },
    async pendingEvents(attemptId) {
      return live() ? (await db(uid)).getAllFromIndex('events', 'by_attempt', attemptId) : [];
    },
    async settleEvents(sent) {
      if (!live()) return;
      const tx = (await db(uid)).transaction('events', 'readwrite');
      await Promise.all(sent.map((event) => tx.store.delete([event.attempt_id, event.client_seq])));
      await tx.done;
    },
  };
}

const signedInQueues = new Map<string, AnswerQueue>();
/** The queue of the user signed in now: one per user, which stops reading and writing once that user has signed out. */
export function signedInQueue(uid: string): AnswerQueue {
  let queue = signedInQueues.get(uid);
  if (!queue) {
    queue = answerQueue(uid, () => isSignedIn(uid));
    signedInQueues.set(uid, queue);
  }
  return queue;
}

/** Removes a user's queue and cached attempts from this browser. */
export async function deleteAnswerQueue(uid: string): Promise<void> {
  const open = databases.get(uid);
  databases.delete(uid);
  if (open) (await open.catch(() => undefined))?.close();
  await deleteDB(databaseName(uid));
}

/** The users (by uid; '' for the unscoped database) with a queue in this browser. */
export async function answerQueueOwners(): Promise<string[]> {
  // Every browser the app supports lists its databases; one that cannot is treated as having none.
  const listed = (await indexedDB.databases?.().catch(() => [])) ?? [];
  return listed.flatMap(({ name }) =>
    name === PREFIX ? [''] : name?.startsWith(`${PREFIX}:`) ? [name.slice(PREFIX.length + 1)] : [],
  );
}
