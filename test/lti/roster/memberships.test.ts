import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { userKey } from '../../../functions/src/lti/claims';
import {
  mayRun,
  MAX_ROSTER_TRIES,
  nextPageUrl,
  readMembershipPage,
  rosterStudents,
  sameOrigin,
  syncWanted,
} from '../../../functions/src/lti/roster/memberships';

const LEARNER = 'http://purl.imsglobal.org/vocab/lis/v2/membership#Learner';
const INSTRUCTOR = 'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor';

describe('readMembershipPage', () => {
  it('reads each member’s sub, email (lower case), name and whether it is an active Learner', () => {
    const page = readMembershipPage(
      JSON.stringify({
        members: [
          { user_id: 'u1', roles: [LEARNER], email: 'Ann@School.example', name: 'Ann A' },
          { user_id: 'u2', roles: ['Learner'], given_name: 'Bob', family_name: 'B', status: 'Inactive' },
          { user_id: 'u3', roles: [INSTRUCTOR, LEARNER], email: 'ta@school.example' },
          { user_id: 'u4', roles: [LEARNER], email: 'not an email' },
          { roles: [LEARNER], email: 'nosub@school.example' },
          'junk',
        ],
      }),
    );
    assert.deepEqual(page, {
      members: [
        { sub: 'u1', email: 'ann@school.example', name: 'Ann A', learner: true, active: true },
        { sub: 'u2', email: null, name: 'Bob B', learner: true, active: false },
        { sub: 'u3', email: 'ta@school.example', name: null, learner: false, active: true },
        { sub: 'u4', email: null, name: null, learner: true, active: true },
      ],
    });
  });

  it('says so when the answer is not a membership container', () => {
    assert.deepEqual(readMembershipPage('<html>'), { error: 'The memberships answer is not JSON' });
    assert.deepEqual(readMembershipPage('{"members":3}'), { error: 'The memberships answer has no members list' });
    assert.deepEqual(readMembershipPage('null'), { error: 'The memberships answer has no members list' });
  });
});

describe('nextPageUrl', () => {
  const page = 'https://lms.example/nrps/ctx/memberships';

  it('finds rel="next" among several links, resolved against the page', () => {
    assert.equal(
      nextPageUrl(
        '<https://lms.example/nrps/ctx/memberships?p=1>; rel="prev", </nrps/ctx/memberships?p=3>; rel="next"',
        page,
      ),
      'https://lms.example/nrps/ctx/memberships?p=3',
    );
    assert.equal(nextPageUrl('<https://lms.example/n?p=2>; rel=next', page), 'https://lms.example/n?p=2');
    assert.equal(nextPageUrl('<https://lms.example/n?p=2>; rel="last next"', page), 'https://lms.example/n?p=2');
  });

  it('answers null without a next link', () => {
    assert.equal(nextPageUrl(null, page), null);
    assert.equal(nextPageUrl('<https://lms.example/n?p=1>; rel="first"', page), null);
    assert.equal(nextPageUrl('garbage', page), null);
  });

  it('follows a next page only on the roster’s own origin (the bearer token goes nowhere else)', () => {
    assert.equal(sameOrigin('https://lms.example/a?p=2', page), true);
    assert.equal(sameOrigin('https://evil.example/a', page), false);
    assert.equal(sameOrigin('http://lms.example/a', page), false);
  });
});

describe('rosterStudents', () => {
  const m = (sub: string, over: object = {}) => ({
    sub,
    email: `${sub}@s.example`,
    name: sub,
    learner: true,
    active: true,
    ...over,
  });

  it('keeps active Learners, with or without an email, once each, at most max', () => {
    const members = [
      m('a'),
      m('b', { learner: false }),
      m('c', { active: false }),
      m('d', { email: null }),
      m('a'),
      m('e'),
      m('f'),
    ];
    assert.deepEqual(
      rosterStudents(members, 10).map((s) => s.sub),
      ['a', 'd', 'e', 'f'],
    );
    assert.deepEqual(
      rosterStudents(members, 2).map((s) => s.sub),
      ['a', 'd'],
    );
    assert.deepEqual(rosterStudents(members, 0), []);
  });
});

describe('userKey', () => {
  it('is the first 40 hex of sha256(issuer + "\\n" + sub), the key the launch reads', () => {
    const expected = createHash('sha256').update('https://lms.example\nu1').digest('hex').slice(0, 40);
    assert.equal(userKey('https://lms.example', 'u1'), expected);
  });
});

describe('syncWanted', () => {
  const doc = (memberships_url: string | null, roster_synced_at: string | null = null) => ({
    memberships_url,
    roster_synced_at,
  });

  it('starts a sync when the course is made with a memberships URL, or the URL changes, or a resync is asked', () => {
    assert.equal(syncWanted(undefined, doc('https://l/m')), true);
    assert.equal(syncWanted(doc(null), doc('https://l/m')), true);
    assert.equal(syncWanted(doc('https://l/m', '2026-01-01'), doc('https://l/m')), true);
  });

  it('starts none for the sync’s own writes, a course without NRPS, a synced or deleted course', () => {
    assert.equal(syncWanted(doc('https://l/m'), doc('https://l/m')), false);
    assert.equal(syncWanted(doc('https://l/m'), doc('https://l/m', '2026-01-01')), false);
    assert.equal(syncWanted(undefined, doc(null)), false);
    assert.equal(syncWanted(doc('https://l/m'), undefined), false);
  });
});

describe('mayRun', () => {
  const now = 1_000_000;
  it('runs an unsynced course that no run holds and that has tries left', () => {
    assert.equal(mayRun({ memberships_url: 'u', roster_synced_at: null }, now), 'run');
    assert.equal(
      mayRun(
        {
          memberships_url: 'u',
          roster_synced_at: null,
          roster_sync: { tries: 1, lease_until_ms: now - 1, last_error: 'x' },
        },
        now,
      ),
      'run',
    );
  });
  it('refuses a held, synced or given-up course', () => {
    assert.equal(
      mayRun(
        {
          memberships_url: 'u',
          roster_synced_at: null,
          roster_sync: { tries: 1, lease_until_ms: now + 1, last_error: null },
        },
        now,
      ),
      'busy',
    );
    assert.equal(mayRun({ memberships_url: 'u', roster_synced_at: '2026' }, now), 'done');
    assert.equal(
      mayRun(
        {
          memberships_url: 'u',
          roster_synced_at: null,
          roster_sync: { tries: MAX_ROSTER_TRIES, lease_until_ms: null, last_error: 'x' },
        },
        now,
      ),
      'given_up',
    );
  });
});
