import assert from 'node:assert/strict';
import type { FrozenQuestion, StoredTest } from '../../functions/src/exams/documents';
import {
  bankChanges,
  changedFields,
  openPendingEdit,
  openRefusal,
  pendingRefusal,
  poolFreezeStale,
  withoutPendingEdit,
  withPendingApplied,
} from '../../functions/src/exams/newVersion';

// Pure: the rules of a published test's next version, and what a bank change is.

const question = (extra: Partial<FrozenQuestion> = {}): FrozenQuestion => ({
  id: 'q1',
  question_text: 'What is 2 + 2?',
  question_type: 'multiple_choice',
  options: ['3', '4'],
  correct_answer: '4',
  tolerance: null,
  marks: 1,
  difficulty: 'easy',
  ...extra,
});

const published = (extra: Partial<StoredTest> = {}): StoredTest => ({
  id: 't1',
  client_id: 'c1',
  test_name: 'Live',
  timer: 30,
  shuffle: 0,
  allow_review: 0,
  negative_marking: 0,
  status: 'published',
  folder_id: null,
  question_ids: ['q1'],
  description: null,
  max_attempts: null,
  negative_mark_ratio: 0.25,
  created_at: '2030-01-01T00:00:00.000Z',
  updated_at: '2030-01-01T00:00:00.000Z',
  published_at: '2030-01-01T00:00:00.000Z',
  version: 1,
  ...extra,
});

describe('openRefusal', () => {
  it('opens a new version of a published test only, once', () => {
    assert.equal(openRefusal(published()), undefined);
    assert.match(openRefusal(published({ status: 'draft' }))!, /edited in place/);
    assert.match(openRefusal(published({ status: 'archived' }))!, /restore it to a draft/);
    const open = published({ pending_edit: openPendingEdit(published(), 'u1', '2030-01-02T00:00:00.000Z') });
    assert.match(openRefusal(open)!, /already being edited/);
  });
});

describe('pendingRefusal', () => {
  const open = published({ pending_edit: openPendingEdit(published(), 'u1', '2030-01-02T00:00:00.000Z') });
  it('refuses every action when no edit is open', () => {
    for (const action of ['edit', 'publish', 'discard'] as const)
      assert.match(pendingRefusal(published(), action)!, /no new version/);
  });
  it('lets an archived test’s edit be discarded only', () => {
    const archived = { ...open, status: 'archived' as const };
    assert.equal(pendingRefusal(archived, 'discard'), undefined);
    assert.match(pendingRefusal(archived, 'publish')!, /archived/);
    assert.match(pendingRefusal(archived, 'edit')!, /archived/);
    assert.equal(pendingRefusal(open, 'publish'), undefined);
  });
});

describe('withPendingApplied and withoutPendingEdit', () => {
  it('makes the edit’s content the test’s and drops it, or drops it alone', () => {
    const edit = { ...openPendingEdit(published(), 'u1', 'now'), test_name: 'Next', question_ids: ['q2'] };
    const test = published({ pending_edit: edit });
    const applied = withPendingApplied(test);
    assert.equal(applied.test_name, 'Next');
    assert.deepEqual(applied.question_ids, ['q2']);
    assert.equal('pending_edit' in applied, false);
    assert.equal('base_version' in applied, false, 'the edit’s own fields stay out of the test');
    const dropped = withoutPendingEdit(test);
    assert.equal(dropped.test_name, 'Live');
    assert.equal('pending_edit' in dropped, false);
  });
});

describe('changedFields', () => {
  it('names the fields a taker sees or a score depends on that differ', () => {
    assert.deepEqual(changedFields(question(), question({ question_text: 'New', marks: 2 })), [
      'question_text',
      'marks',
    ]);
  });
  it('counts absent, null and a field’s unset value as the same (versions frozen before a field existed)', () => {
    assert.deepEqual(
      changedFields(question(), question({ text_format: 'plain', case_sensitive: false, option_feedback: [] })),
      [],
    );
    assert.deepEqual(changedFields(question(), question({ max_words: null, title: '' })), []);
    assert.deepEqual(changedFields(question(), question({ text_format: 'html' })), ['text_format']);
  });
  it('names an essay’s files taken or required as a change (a taker is shown them)', () => {
    assert.deepEqual(changedFields(question(), question({ attachments: 2, attachments_required: 1 })), [
      'attachments',
      'attachments_required',
    ]);
    assert.deepEqual(changedFields(question({ attachments: 2 }), question({ attachments: 2 })), []);
  });
});

describe('bankChanges', () => {
  it('lists edited and deleted questions in the version’s order, not unchanged ones', () => {
    const frozen = [question({ id: 'a' }), question({ id: 'b', title: 'B' }), question({ id: 'c' })];
    const bank = new Map([
      ['a', { question: question({ id: 'a' }), updated_at: 't1' }],
      ['b', { question: question({ id: 'b', title: 'B', options: ['3', '4', '5'] }), updated_at: 't2' }],
    ]);
    assert.deepEqual(
      bankChanges(frozen, bank).map((c) => [c.question_id, c.change, c.fields, c.title, c.updated_at]),
      [
        ['b', 'edited', ['options'], 'B', 't2'],
        ['c', 'deleted', [], null, null],
      ],
    );
  });
});

describe('poolFreezeStale (a publish’s pools frozen before its transaction)', () => {
  const at = '2026-11-26T08:00:00.000Z';
  const later = '2026-11-26T08:00:01.000Z';
  it('accepts a freeze of this very content, and no freeze for content without pools', () => {
    assert.equal(poolFreezeStale([{}], at, { testUpdatedAt: at }), false);
    assert.equal(poolFreezeStale([], at, undefined), false);
  });
  it('refuses content with pools and no freeze, and a freeze of content changed since', () => {
    assert.equal(poolFreezeStale([{}], at, undefined), true);
    assert.equal(poolFreezeStale([{}], later, { testUpdatedAt: at }), true);
  });
  it('refuses a freeze when the content lost its pools meanwhile, so the old pools are not published', () => {
    assert.equal(poolFreezeStale([], later, { testUpdatedAt: at }), true);
  });
});
