import { SingleFlight } from './singleFlight';
import { ApiError, OfflineError, type Schemas } from '../api';
import type { AnswerStore } from '../localData';
import { answerQueue, answerQueueOwners, deleteAnswerQueue, type AnswerQueue, type PendingAnswer } from './answerQueue';

export type SyncState =
  | { kind: 'saved' }
  | { kind: 'saving'; pending: number }
  | { kind: 'offline'; pending: number }
  | { kind: 'refused'; pending: number; error: Error };

type SendBatch = (answers: Array<Schemas['SaveAnswer']>) => Promise<unknown>;

const BATCH = 100; // the most one request takes
const RETRY_MS = 5_000;

/**
 * Sends `queued` in batches, settling each batch the service took (saved or stale alike: the
 * service holds that answer or a newer one). Throws what refused a batch; what follows it stays queued.
 */
export async function sendBatches(queue: AnswerQueue, queued: PendingAnswer[], send: SendBatch): Promise<void> {
  for (let i = 0; i < queued.length; i += BATCH) {
    const batch = queued.slice(i, i + BATCH);
    await send(
      batch.map(({ question_id, student_answer, client_seq }) => ({ question_id, student_answer, client_seq })),
    );
    await queue.settle(batch);
  }
}

/** The taker's queues as the session signs users in and out with them (composed in main.tsx). */
export const answerStore: AnswerStore = {
  queue(uid, live) {
    const queue = answerQueue(uid, live);
    return {
      attemptsWithPending: () => queue.attemptsWithPending(),
      pendingCount: async (attemptId) => (await queue.pending(attemptId)).length,
      send: async (attemptId, post) => sendBatches(queue, await queue.pending(attemptId), post),
      async drop(attemptId) {
        for (const answer of await queue.pending(attemptId)) await queue.settle([answer]);
      },
      forgetAttempts: () => queue.forgetAttempts(),
    };
  },
  owners: answerQueueOwners,
  remove: deleteAnswerQueue,
};

/**
 * Every answer goes to the IndexedDB queue first, then to the service in
 * batches with client_seq: a reload, a closed tab or a dropped network loses
 * nothing, and a late replay never overwrites a newer answer (the service
 * reports it stale, and the queue drops it).
 */
export class AnswerSync {
  private readonly sending = new SingleFlight(
    () => this.sendQueued(),
    () => this.reportLeft(),
  );
  private lastSeq = 0;
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly onOnline = () => void this.flush();
  private shown: SyncState['kind'] = 'saved';

  constructor(
    private readonly queue: AnswerQueue,
    private readonly attemptId: string,
    private readonly send: SendBatch,
    private readonly report: (state: SyncState) => void,
  ) {
    window.addEventListener('online', this.onOnline);
    this.timer = setInterval(() => void this.flush(), RETRY_MS);
  }

  stop(): void {
    window.removeEventListener('online', this.onOnline);
    clearInterval(this.timer);
  }

  /** Raises the counter above every client_seq the service or the queue already holds. */
  knowSeq(seq: number | undefined): void {
    if (seq !== undefined && seq > this.lastSeq) this.lastSeq = seq;
  }

  private onState(state: SyncState): void {
    this.shown = state.kind;
    this.report(state);
  }

  async save(questionId: string, answer: string): Promise<void> {
    // At once, before the queue's write: "All answers saved" must never show beside an unsent answer.
    if (this.shown === 'saved') this.onState({ kind: 'saving', pending: 1 });
    // Time-based, so a counter lost with its tab still starts above what the service stored.
    this.lastSeq = Math.max(this.lastSeq + 1, Date.now());
    await this.queue.enqueue({
      attempt_id: this.attemptId,
      question_id: questionId,
      student_answer: answer,
      client_seq: this.lastSeq,
    });
    await this.flush();
  }

  pending(): Promise<PendingAnswer[]> {
    return this.queue.pending(this.attemptId);
  }

  /** Sends everything queued; resolves when the queue is empty or the network or service refused. */
  flush(): Promise<void> {
    return this.sending.run();
  }

  /** One pass over the queued answers; false when it is done for now (nothing queued, offline or refused). */
  private async sendQueued(): Promise<boolean> {
    const queued = await this.pending();
    if (queued.length === 0) {
      this.onState({ kind: 'saved' });
      return false;
    }
    this.onState({ kind: 'saving', pending: queued.length });
    try {
      await sendBatches(this.queue, queued, this.send);
    } catch (err) {
      const left = (await this.pending()).length;
      if (err instanceof OfflineError || (err instanceof ApiError && err.status === 503))
        this.onState({ kind: 'offline', pending: left });
      else this.onState({ kind: 'refused', pending: left, error: err as Error });
      return false;
    }
    return true;
  }

  private async reportLeft(): Promise<void> {
    const left = (await this.pending()).length;
    this.onState(left === 0 ? { kind: 'saved' } : { kind: 'saving', pending: left });
  }
}
