import { performance } from 'node:perf_hooks';
import { outsideRequestScope } from './requestScope';

// The deadline of a request is on its backend calls, not on the request: a
// save that loses to contention runs again for up to 20 s (attempts/answering.ts),
// each of its calls answering fast. What must never happen is waiting on a call
// that does not answer until the platform's timeout, when Hosting answers an
// empty 504. So each request's outstanding Firestore and Auth calls are tracked
// (firestore/callWatch.ts wraps the SDK), and one timer per instance answers a
// request 503 once one of its calls has been outstanding for STALL_MS, unless a
// commit of it is in flight: that outcome is waited for, so the answer reports
// it truthfully. Once answered, the request is abandoned: a commit it tries later
// (when its stalled reads finally return) is refused before it is sent, so a
// request answered 503 has written nothing after that answer.

/** A call outstanding this long gets its request answered 503 (+ the sweep's period: within 10 s of the stall). */
export const STALL_MS = 8_000;
/** How often the instance's one timer looks at the requests waiting on a backend. */
export const SWEEP_EVERY_MS = 500;

export interface Call {
  readonly startedMs: number;
  /** A write whose outcome the reply reports (a commit, an Auth change): while it is in flight, the request waits. */
  readonly decisive: boolean;
}

/** What happened when the deadline passed: answered 503, a reply under way cut, or the request was over already. */
export type DeadlineAnswer = 'answered' | 'cut' | 'over';

export interface BackendWatch {
  readonly calls: Set<Call>;
  /** Decisive writes in flight. */
  decisive: number;
  /** Answered at the deadline: later decisive writes are refused. */
  abandoned: boolean;
  /** The request had ended when a call of its scope stalled: nothing more is tracked. */
  over: boolean;
  readonly answer: (stalledMs: number) => DeadlineAnswer;
}

export const watchRequest = (answer: (stalledMs: number) => DeadlineAnswer): BackendWatch => ({
  calls: new Set(),
  decisive: 0,
  abandoned: false,
  over: false,
  answer,
});

/** The error a decisive write of an abandoned request is refused with (never sent to a caller: it was answered). */
export class AnsweredAtDeadline extends Error {
  readonly code = 'request/answered-at-deadline';
  constructor() {
    super('This request was answered 503 at its backend deadline; its writes are refused');
  }
}

// The requests with a call outstanding: what the sweep looks at.
const waiting = new Set<BackendWatch>();
let sweeper: NodeJS.Timeout | undefined;

/** Starts tracking one call of a request that is neither over nor abandoned. */
export function beginCall(watch: BackendWatch, decisive: boolean): Call {
  const call: Call = { startedMs: performance.now(), decisive };
  watch.calls.add(call);
  if (decisive) watch.decisive += 1;
  if (watch.calls.size === 1) {
    waiting.add(watch);
    // Created outside the request, or the timer would carry this request's scope for the instance's life.
    sweeper ??= outsideRequestScope(() => setInterval(sweep, SWEEP_EVERY_MS).unref());
  }
  return call;
}

export function endCall(watch: BackendWatch, call: Call): void {
  if (!watch.calls.delete(call)) return;
  if (call.decisive) watch.decisive -= 1;
  if (watch.calls.size === 0) waiting.delete(watch);
}

/** One look at every request waiting on a backend; exported for tests. */
export function sweep(now = performance.now()): void {
  for (const watch of waiting) {
    if (watch.decisive > 0) continue;
    let oldest = now;
    for (const call of watch.calls) if (call.startedMs < oldest) oldest = call.startedMs;
    if (now - oldest < STALL_MS) continue;
    // Nothing of this request is watched any more: whatever its calls do next, its answer is given.
    waiting.delete(watch);
    watch.calls.clear();
    const outcome = watch.answer(now - oldest);
    if (outcome === 'over') watch.over = true;
    else watch.abandoned = true;
  }
}
