import assert from 'node:assert/strict';
import {
  emptyCounts,
  eventId,
  MAX_EVENTS_PER_ATTEMPT,
  planEvents,
  summaryView,
} from '../../../functions/src/attempts/integrity/eventRules';
import type { StoredIntegritySummary } from '../../../functions/src/attempts/integrity/documents';

const NOW = Date.parse('2025-03-01T10:00:00Z');
const ev = (client_seq: number, type: any = 'focus_lost', at = '2025-03-01T09:59:00Z') => ({ type, at, client_seq });
const summary = (total: number, fields: Partial<StoredIntegritySummary> = {}): StoredIntegritySummary => ({
  attempt_id: 'a1',
  total,
  counts: { ...emptyCounts(), focus_lost: total },
  last_event: null,
  updated_at: '2025-03-01T09:00:00Z',
  ...fields,
});

describe('eventId', () => {
  it('writes client_seq in 16 digits, so ids sort as the numbers do', () => {
    assert.equal(eventId(7), '0000000000000007');
    assert.ok(eventId(9) < eventId(10));
    assert.equal(eventId(Number.MAX_SAFE_INTEGER).length, 16);
  });
});

describe('planEvents', () => {
  it('counts new events per type, keeps the latest by at as the last event, and writes the summary once', () => {
    const plan = planEvents(
      'a1',
      undefined,
      [ev(0, 'paste', '2025-03-01T09:59:30Z'), ev(1, 'focus_lost', '2025-03-01T09:58:00Z')],
      new Set(),
      NOW,
    );
    assert.equal(plan.over, false);
    if (plan.over) return;
    assert.equal(plan.fresh.length, 2);
    assert.equal(plan.summary?.total, 2);
    assert.equal(plan.summary?.counts.paste, 1);
    assert.deepEqual(plan.summary?.last_event, { type: 'paste', at: '2025-03-01T09:59:30.000Z', client_seq: 0 });
    assert.equal(plan.fresh[0].received_at, '2025-03-01T10:00:00.000Z');
  });

  it('ignores stored client_seqs and repeats within the batch (the first wins); nothing new writes nothing', () => {
    const plan = planEvents('a1', summary(3), [ev(1), ev(1, 'paste'), ev(5, 'offline')], new Set([1]), NOW);
    assert.ok(!plan.over && plan.fresh.length === 1 && plan.duplicates === 2);
    const none = planEvents('a1', summary(3), [ev(1)], new Set([1]), NOW);
    assert.ok(!none.over && none.summary === undefined && none.duplicates === 1);
  });

  it(`refuses whole a batch that would pass ${MAX_EVENTS_PER_ATTEMPT}, and takes one that reaches it exactly`, () => {
    assert.deepEqual(planEvents('a1', summary(1999), [ev(10), ev(11)], new Set(), NOW), {
      over: true,
      stored: 1999,
      wouldBe: 2001,
    });
    const exact = planEvents('a1', summary(1999), [ev(10)], new Set(), NOW);
    assert.ok(!exact.over && exact.summary?.total === 2000);
    // A replay of stored events only is not over the bound.
    assert.equal(planEvents('a1', summary(2000), [ev(1)], new Set([1]), NOW).over, false);
  });
});

describe('summaryView', () => {
  it('shows every type (0 when none) and null as the last event before any', () => {
    assert.deepEqual(summaryView(undefined), { total: 0, counts: emptyCounts(), last_event: null });
  });
});
