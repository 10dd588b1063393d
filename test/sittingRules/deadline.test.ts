import assert from 'node:assert/strict';
import {
  cooldownEnds,
  expiresAtMs,
  effective,
  effectiveTimerSeconds,
  extensionMinutes,
  reviewReleased,
  startWindow,
  windowRefusal,
  type DeadlineBasis,
} from '../../functions/src/sittingRules/deadline';

// The deadline arithmetic of a sitting, pure: no emulator, no clock but the one passed in.

const T0 = Date.parse('2030-03-01T09:00:00.000Z');
const at = (ms: number) => new Date(ms).toISOString();
const MIN = 60_000;

const basis = (changes: Partial<DeadlineBasis> = {}): DeadlineBasis => ({
  startedAtMs: T0,
  versionTimer: 30,
  testClosesAt: null,
  override: undefined,
  accommodation: undefined,
  extensionMinutes: 0,
  ...changes,
});

describe('deadline: effectiveTimerSeconds', () => {
  it('is the timer in seconds without an accommodation', () =>
    assert.equal(effectiveTimerSeconds(30, undefined), 1800));
  it('adds the percentage: +50% of 30 minutes is 45 minutes', () =>
    assert.equal(effectiveTimerSeconds(30, { extra_time_percent: 50, extra_minutes: 0 }), 2700));
  it('computes 45 minutes +10% exactly (2,970 s, no floating-point excess rounded up to 2,971)', () =>
    assert.equal(effectiveTimerSeconds(45, { extra_time_percent: 10, extra_minutes: 0 }), 2970));
  it('rounds a fractional second up to the next whole second', () =>
    // 1 minute +1% = 60.6 s → 61 s; 7 minutes +33% = 558.6 s → 559 s.
    assert.deepEqual(
      [
        effectiveTimerSeconds(1, { extra_time_percent: 1, extra_minutes: 0 }),
        effectiveTimerSeconds(7, { extra_time_percent: 33, extra_minutes: 0 }),
      ],
      [61, 559],
    ));
  it('adds extra minutes after the percentage: 30 min +50% +10 min = 55 minutes', () =>
    assert.equal(effectiveTimerSeconds(30, { extra_time_percent: 50, extra_minutes: 10 }), 55 * 60));
  it('adds extra minutes alone: 30 min +15 min = 45 minutes', () =>
    assert.equal(effectiveTimerSeconds(30, { extra_time_percent: 0, extra_minutes: 15 }), 2700));
  it('handles the largest values (1,440 minutes +400% +1,440 minutes) as whole seconds', () =>
    assert.equal(
      effectiveTimerSeconds(1440, { extra_time_percent: 400, extra_minutes: 1440 }),
      1440 * 60 * 5 + 1440 * 60,
    ));
});

describe('deadline: effective (the override’s value or the test’s)', () => {
  it('is the test’s value without an override', () => assert.equal(effective(undefined, 'timer', 30), 30));
  it('is the test’s value when the override does not name the key', () =>
    assert.equal(effective({ max_attempts: 3 }, 'timer', 30), 30));
  it('is the override’s value when it names the key', () => assert.equal(effective({ timer: 10 }, 'timer', 30), 10));
  it('is null when the override lifts the limit with null', () =>
    assert.equal(effective({ max_attempts: null }, 'max_attempts', 2), null));
  it('ignores a key present as undefined', () => assert.equal(effective({ timer: undefined }, 'timer', 30), 30));
});

describe('deadline: expiresAtMs', () => {
  it('is started_at + the version’s timer with nothing else in force', () =>
    assert.equal(expiresAtMs(basis()), T0 + 30 * MIN));
  it('adds the accommodation to the timer', () =>
    assert.equal(expiresAtMs(basis({ accommodation: { extra_time_percent: 50, extra_minutes: 5 } })), T0 + 50 * MIN));
  it('rounds the accommodated timer up to a whole second', () =>
    assert.equal(
      expiresAtMs(basis({ versionTimer: 1, accommodation: { extra_time_percent: 1, extra_minutes: 0 } })),
      T0 + 61_000,
    ));
  it('takes the override’s timer in place of the version’s', () =>
    assert.equal(expiresAtMs(basis({ override: { timer: 10 } })), T0 + 10 * MIN));
  it('still adds the accommodation to an overridden timer', () =>
    assert.equal(
      expiresAtMs(basis({ override: { timer: 10 }, accommodation: { extra_time_percent: 50, extra_minutes: 1 } })),
      T0 + 16 * MIN,
    ));
  it('is cut short by the test’s closes_at when it comes first', () =>
    assert.equal(expiresAtMs(basis({ testClosesAt: at(T0 + 20 * MIN) })), T0 + 20 * MIN));
  it('ignores a closes_at later than the timer', () =>
    assert.equal(expiresAtMs(basis({ testClosesAt: at(T0 + 90 * MIN) })), T0 + 30 * MIN));
  it('cuts an accommodated timer short by closes_at too', () =>
    assert.equal(
      expiresAtMs(
        basis({ testClosesAt: at(T0 + 40 * MIN), accommodation: { extra_time_percent: 100, extra_minutes: 0 } }),
      ),
      T0 + 40 * MIN,
    ));
  it('takes the override’s closes_at in place of the test’s', () =>
    assert.equal(
      expiresAtMs(basis({ testClosesAt: at(T0 + 10 * MIN), override: { closes_at: at(T0 + 25 * MIN) } })),
      T0 + 25 * MIN,
    ));
  it('has no closing time when the override sets closes_at to null', () =>
    assert.equal(
      expiresAtMs(basis({ testClosesAt: at(T0 + 10 * MIN), override: { closes_at: null } })),
      T0 + 30 * MIN,
    ));
  it('adds extensions after the earlier of timer and closes_at', () =>
    assert.equal(expiresAtMs(basis({ testClosesAt: at(T0 + 20 * MIN), extensionMinutes: 15 })), T0 + 35 * MIN));
  it('adds extensions to the timer when the timer comes first', () =>
    assert.equal(expiresAtMs(basis({ extensionMinutes: 5 })), T0 + 35 * MIN));
});

describe('deadline: extensionMinutes', () => {
  it('is 0 without extensions', () => assert.equal(extensionMinutes(undefined), 0));
  it('sums the minutes of every extension by id', () => assert.equal(extensionMinutes({ a: 5, b: 10, c: 1 }), 16));
});

describe('deadline: startWindow and windowRefusal ([opens_at, closes_at))', () => {
  const opens = at(T0);
  const closes = at(T0 + 60 * MIN);
  const window = startWindow({ opens_at: opens, closes_at: closes }, undefined);

  it('is the test’s window without an override', () => assert.deepEqual(window, { opensAt: opens, closesAt: closes }));
  it('is open at all times without opens_at and closes_at', () => {
    assert.deepEqual(startWindow({}, undefined), { opensAt: null, closesAt: null });
    assert.equal(windowRefusal({ opensAt: null, closesAt: null }, T0), null);
  });
  it('refuses before opens_at, saying when it opens', () =>
    assert.equal(windowRefusal(window, T0 - 1), `This test opens at ${opens}`));
  it('admits at opens_at exactly', () => assert.equal(windowRefusal(window, T0), null));
  it('admits one millisecond before closes_at', () => assert.equal(windowRefusal(window, T0 + 60 * MIN - 1), null));
  it('refuses at closes_at exactly, saying it closed', () =>
    assert.equal(windowRefusal(window, T0 + 60 * MIN), `This test closed at ${closes}`));
  it('takes the override’s opens_at (null: open any time) in place of the test’s', () => {
    assert.equal(
      windowRefusal(startWindow({ opens_at: opens, closes_at: closes }, { opens_at: null }), T0 - 10 * MIN),
      null,
    );
    const early = at(T0 - 30 * MIN);
    assert.deepEqual(startWindow({ opens_at: opens, closes_at: closes }, { opens_at: early }), {
      opensAt: early,
      closesAt: closes,
    });
  });
  it('takes the override’s closes_at in place of the test’s', () => {
    const later = at(T0 + 120 * MIN);
    assert.equal(
      windowRefusal(startWindow({ opens_at: opens, closes_at: closes }, { closes_at: later }), T0 + 90 * MIN),
      null,
    );
  });
});

describe('deadline: cooldownEnds', () => {
  const submitted = at(T0);
  it('is null without a previous submission', () => assert.equal(cooldownEnds(null, 10, T0), null));
  it('is null with no cooldown', () => assert.equal(cooldownEnds(submitted, 0, T0 + 1), null));
  it('is the end of the cooldown while it runs', () =>
    assert.equal(cooldownEnds(submitted, 10, T0 + 5 * MIN), at(T0 + 10 * MIN)));
  it('is null once the cooldown is over, from its end on', () => {
    assert.equal(cooldownEnds(submitted, 10, T0 + 10 * MIN), null);
    assert.equal(cooldownEnds(submitted, 10, T0 + 10 * MIN - 1), at(T0 + 10 * MIN));
  });
});

describe('deadline: reviewReleased', () => {
  it('is released on submission when review_opens_at is null or absent', () => {
    assert.equal(reviewReleased(null, T0), true);
    assert.equal(reviewReleased(undefined, T0), true);
  });
  it('is held back before review_opens_at', () => assert.equal(reviewReleased(at(T0), T0 - 1), false));
  it('is released from review_opens_at on', () => {
    assert.equal(reviewReleased(at(T0), T0), true);
    assert.equal(reviewReleased(at(T0), T0 + 1), true);
  });
});
