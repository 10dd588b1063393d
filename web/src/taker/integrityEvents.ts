import { SingleFlight } from './singleFlight';
import { useEffect } from 'react';
import { ApiError, OfflineError, serverNow } from '../api';
import type { AnswerQueue, IntegrityEventType, PendingEvent } from './answerQueue';

type SendEvents = (events: Array<Pick<PendingEvent, 'type' | 'at' | 'client_seq'>>) => Promise<unknown>;

const BATCH = 100; // the most one request takes
const RETRY_MS = 10_000;

/**
 * Records what happens to the exam page for the proctor (leaving the tab, a
 * paste, leaving fullscreen, the network, a reload) and sends it through the
 * answers' offline queue: a student who lost Wi-Fi loses none of it. Events
 * inform a person; nothing here changes what is saved or scored.
 */
export class IntegrityRecorder {
  private lastSeq = 0;
  private lastAt = 0;
  private readonly sending = new SingleFlight(() => this.sendQueued());

  constructor(
    private readonly queue: AnswerQueue,
    private readonly attemptId: string,
    private readonly send: SendEvents,
  ) {}

  async record(type: IntegrityEventType): Promise<void> {
    // Time-based, so a reloaded page still numbers above what it sent before.
    this.lastSeq = Math.max(this.lastSeq + 1, Date.now());
    // On the service's clock (a page's own may be far off), never before the event recorded before it: the
    // estimate of that clock moves with each reply, and the timeline is ordered by `at`.
    this.lastAt = Math.max(this.lastAt + 1, serverNow());
    await this.queue.enqueueEvent({
      attempt_id: this.attemptId,
      type,
      at: new Date(this.lastAt).toISOString(),
      client_seq: this.lastSeq,
    });
    await this.flush();
  }

  flush(): Promise<void> {
    return this.sending.run();
  }

  /** One pass over the queued events; false when the network or the service is away (they stay queued). */
  private async sendQueued(): Promise<boolean> {
    const queued = (await this.queue.pendingEvents(this.attemptId)).sort((a, b) => a.client_seq - b.client_seq);
    for (let i = 0; i < queued.length; i += BATCH) {
      const batch = queued.slice(i, i + BATCH);
      try {
        await this.send(batch.map(({ type, at, client_seq }) => ({ type, at, client_seq })));
      } catch (err) {
        // Offline or briefly unavailable: kept, and sent again later. Refused (a closed attempt, the
        // attempt's bound reached): nothing sent again would be taken, so they are dropped.
        if (err instanceof OfflineError || (err instanceof ApiError && (err.status === 503 || err.status === 429)))
          return false;
      }
      await this.queue.settleEvents(batch);
    }
    return true;
  }
}

let reloadCounted = false;
/** Whether this document was a reload of the page now shown (once per document: later visits are the app's own). */
function reloadedHere(): boolean {
  if (reloadCounted) return false;
  reloadCounted = true;
  const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  return navigation?.type === 'reload' && new URL(navigation.name).pathname === location.pathname;
}

/** Watches the page while an attempt is open and records what the proctor is shown. */
export function useIntegrityEvents(recorder: IntegrityRecorder | null): void {
  useEffect(() => {
    if (!recorder) return;
    const record = (type: IntegrityEventType) => void recorder.record(type).catch(() => undefined);
    // Leaving the tab fires blur and visibilitychange together: one focus_lost, one focus_back.
    let away = document.hidden || !document.hasFocus();
    const checkFocus = () => {
      const nowAway = document.hidden || !document.hasFocus();
      if (nowAway === away) return;
      away = nowAway;
      record(nowAway ? 'focus_lost' : 'focus_back');
    };
    let fullscreen = document.fullscreenElement !== null;
    const onFullscreen = () => {
      const now = document.fullscreenElement !== null;
      if (fullscreen && !now) record('fullscreen_exit');
      fullscreen = now;
    };
    const onPaste = () => record('paste');
    const onOffline = () => record('offline');
    const onOnline = () => {
      record('online');
      void recorder.flush();
    };
    if (reloadedHere()) record('reload');
    const timer = setInterval(() => void recorder.flush(), RETRY_MS);
    void recorder.flush();
    document.addEventListener('visibilitychange', checkFocus);
    window.addEventListener('blur', checkFocus);
    window.addEventListener('focus', checkFocus);
    document.addEventListener('fullscreenchange', onFullscreen);
    document.addEventListener('paste', onPaste);
    window.addEventListener('offline', onOffline);
    window.addEventListener('online', onOnline);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', checkFocus);
      window.removeEventListener('blur', checkFocus);
      window.removeEventListener('focus', checkFocus);
      document.removeEventListener('fullscreenchange', onFullscreen);
      document.removeEventListener('paste', onPaste);
      window.removeEventListener('offline', onOffline);
      window.removeEventListener('online', onOnline);
    };
  }, [recorder]);
}
