import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { classOverridesFor, effectiveOverride, mostGenerous } from '../../functions/src/sittingRules/classOverrides';
import { expiresAtMs, startWindow } from '../../functions/src/sittingRules/deadline';

// Class overrides' precedence alone: per field, the student's own override wins;
// else the most generous of its classes' that set the field; else the test's.

const EARLY = '2030-01-01T08:00:00.000Z';
const LATE = '2030-01-01T10:00:00.000Z';

describe('mostGenerous', () => {
  it('takes the earliest opens_at and the latest closes_at', () => {
    assert.deepEqual(
      mostGenerous([
        { opens_at: LATE, closes_at: EARLY },
        { opens_at: EARLY, closes_at: LATE },
      ]),
      {
        opens_at: EARLY,
        closes_at: LATE,
      },
    );
  });

  it('takes the longest timer and the most attempts', () => {
    assert.deepEqual(
      mostGenerous([
        { timer: 30, max_attempts: 3 },
        { timer: 45, max_attempts: 2 },
      ]),
      {
        timer: 45,
        max_attempts: 3,
      },
    );
  });

  it('counts null (no limit) as the most generous, whichever class comes first', () => {
    assert.deepEqual(
      mostGenerous([
        { opens_at: null, closes_at: LATE, max_attempts: 5 },
        { opens_at: EARLY, closes_at: null, max_attempts: null },
      ]),
      {
        opens_at: null,
        closes_at: null,
        max_attempts: null,
      },
    );
    assert.deepEqual(mostGenerous([{ max_attempts: null }, { max_attempts: 5 }]), { max_attempts: null });
  });

  it('leaves absent a field no class sets, and ignores what an override keeps beside its values', () => {
    const stored = { timer: 40, set_by: 'admin', updated_at: EARLY };
    assert.deepEqual(mostGenerous([stored, { closes_at: LATE }]), { timer: 40, closes_at: LATE });
    assert.deepEqual(mostGenerous([]), {});
  });
});

describe('effectiveOverride', () => {
  it('lets the student’s own override win field by field, even when a class’s is more generous', () => {
    assert.deepEqual(effectiveOverride({ timer: 20 }, [{ timer: 90, max_attempts: 4 }]), {
      timer: 20,
      max_attempts: 4,
    });
  });

  it('keeps the student’s own null (no limit) over a class’s limit', () => {
    assert.deepEqual(effectiveOverride({ closes_at: null }, [{ closes_at: LATE }]), { closes_at: null });
  });

  it('answers the classes’ most generous when the student has none, and undefined when nothing is set', () => {
    assert.deepEqual(effectiveOverride(undefined, [{ timer: 30 }, { timer: 60 }]), { timer: 60 });
    assert.equal(effectiveOverride(undefined, []), undefined);
    assert.equal(effectiveOverride({}, [{}]), undefined);
  });

  it('hands the deadline and window rules one override they read as before', () => {
    const override = effectiveOverride(undefined, [
      { timer: 30, closes_at: EARLY },
      { timer: 60, opens_at: EARLY },
    ]);
    assert.deepEqual(startWindow({ opens_at: LATE, closes_at: null }, override), { opensAt: EARLY, closesAt: EARLY });
    const started = Date.parse('2030-01-01T07:00:00.000Z');
    // 60 minutes from 07:00, but the class's closing time (08:00) comes no later.
    assert.equal(
      expiresAtMs({
        startedAtMs: started,
        versionTimer: 10,
        testClosesAt: null,
        override,
        accommodation: undefined,
        extensionMinutes: 0,
      }),
      Date.parse(EARLY),
    );
  });
});

describe('classOverridesFor', () => {
  it('picks the overrides of the student’s classes only, in the order of its classes', () => {
    const byClass = { a: { timer: 1 }, b: { timer: 2 }, c: { timer: 3 } };
    assert.deepEqual(classOverridesFor(byClass, ['c', 'x', 'a']), [{ timer: 3 }, { timer: 1 }]);
  });

  it('answers none for a test without class overrides, an attempt without classes, or a class named like a built-in', () => {
    assert.deepEqual(classOverridesFor(undefined, ['a']), []);
    assert.deepEqual(classOverridesFor({ a: { timer: 1 } }, undefined), []);
    assert.deepEqual(classOverridesFor({ a: { timer: 1 } }, ['constructor', 'toString']), []);
  });
});

describe('classOverrides.ts', () => {
  it('imports nothing of Firebase', () => {
    const text = readFileSync(
      join(__dirname, '..', '..', 'functions', 'src', 'sittingRules', 'classOverrides.ts'),
      'utf8',
    );
    assert.doesNotMatch(text, /from\s+['"](firebase|@google-cloud|\.\.\/firestore)/);
  });
});
