import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import {
  beginCall,
  endCall,
  STALL_MS,
  SWEEP_EVERY_MS,
  sweep,
  watchRequest,
  type DeadlineAnswer,
} from '../../functions/src/platform/backendDeadline';

// The instance's sweep over requests waiting on a backend, driven with its clock.
describe('the backend deadline sweep', () => {
  const watched = (outcome: DeadlineAnswer = 'answered') => {
    const answers: number[] = [];
    const watch = watchRequest((stalledMs) => {
      answers.push(stalledMs);
      return outcome;
    });
    return { watch, answers };
  };

  it('answers a stalled call within 10 s of its start, sweep period included', () => {
    assert.ok(STALL_MS + SWEEP_EVERY_MS <= 9_000, 'leaves a second for the answer to travel');
  });

  it('answers a request whose call has been outstanding for the stall time, once, and abandons it', () => {
    const { watch, answers } = watched();
    const call = beginCall(watch, false);
    const now = performance.now();
    sweep(now + STALL_MS - 100);
    assert.deepEqual(answers, []);
    sweep(now + STALL_MS + 10);
    assert.equal(answers.length, 1);
    assert.ok(answers[0] >= STALL_MS);
    assert.equal(watch.abandoned, true);
    sweep(now + 2 * STALL_MS);
    assert.equal(answers.length, 1, 'answered once');
    endCall(watch, call);
  });

  it('does not answer a request whose calls each answer fast, however long it runs', () => {
    const fresh = watched();
    // 40 calls one after another, each seen by a sweep half the stall time after it began: 20 stall times in all.
    for (let i = 0; i < 40; i++) {
      const call = beginCall(fresh.watch, false);
      sweep(performance.now() + STALL_MS / 2);
      endCall(fresh.watch, call);
    }
    assert.deepEqual(fresh.answers, []);
    assert.equal(fresh.watch.abandoned, false);
  });

  it('waits for a commit in flight, and answers once it has ended if a read is still stalled', () => {
    const { watch, answers } = watched();
    const readCall = beginCall(watch, false);
    const commit = beginCall(watch, true);
    const late = performance.now() + STALL_MS * 2;
    sweep(late);
    assert.deepEqual(answers, [], 'the commit’s outcome is reported, not guessed');
    endCall(watch, commit);
    sweep(late);
    assert.equal(answers.length, 1);
    endCall(watch, readCall);
  });

  it('marks a request that had already ended as over, not abandoned', () => {
    const { watch, answers } = watched('over');
    const call = beginCall(watch, false);
    sweep(performance.now() + STALL_MS + 1);
    assert.equal(answers.length, 1);
    assert.equal(watch.over, true);
    assert.equal(watch.abandoned, false);
    endCall(watch, call);
  });

  it('forgets a request once its calls have ended', () => {
    const { watch, answers } = watched();
    endCall(watch, beginCall(watch, false));
    sweep(performance.now() + STALL_MS * 10);
    assert.deepEqual(answers, []);
  });
});
