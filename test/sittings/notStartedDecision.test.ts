import assert from 'node:assert/strict';
import { audienceQuerySpecs, MAX_ARRAY_ANY_VALUES } from '../../functions/src/sittings/audienceQuery';
import { audiencePage, inAudience, notStarted, type AudienceProfile } from '../../functions/src/sittings/notStarted';

// Who of a test's audience has not started it, decided from the profiles a page
// read and the slots found for them (functions/src/sittings/notStarted.ts), and
// the queries that read the audience (audienceQuery.ts).

const student = (uid: string, classIds?: string[], extra: Partial<AudienceProfile> = {}): AudienceProfile => ({
  uid,
  role: 'student',
  display_name: `Student ${uid}`,
  email: `${uid}@school.example`,
  ...(classIds ? { class_ids: classIds } : {}),
  ...extra,
});

describe('notStarted: audienceQuerySpecs (the queries whose union is the audience)', () => {
  const classes = (n: number) => Array.from({ length: n }, (_, i) => `c${i}`);
  const cases: Array<[string, string[], string | undefined, Array<{ role?: string; values?: string[] }>]> = [
    ['a test assigned to no class: every student of the organization', [], undefined, [{ role: 'student' }]],
    ['a test assigned to no class, filtered by a class: its members', [], 'k', [{ values: ['k'] }]],
    ['a test assigned to two classes: their members, in one query', ['a', 'b'], undefined, [{ values: ['a', 'b'] }]],
    ['a class named twice is asked once', ['a', 'a'], undefined, [{ values: ['a'] }]],
    ['filtered by one of its classes: that class only', ['a', 'b'], 'b', [{ values: ['b'] }]],
    [
      'filtered by a class it is not assigned to: that class (the decision keeps the audience)',
      ['a'],
      'z',
      [{ values: ['z'] }],
    ],
    [
      `assigned to ${MAX_ARRAY_ANY_VALUES + 20} classes: two queries of at most ${MAX_ARRAY_ANY_VALUES}`,
      classes(MAX_ARRAY_ANY_VALUES + 20),
      undefined,
      [
        { values: classes(MAX_ARRAY_ANY_VALUES) },
        { values: classes(MAX_ARRAY_ANY_VALUES + 20).slice(MAX_ARRAY_ANY_VALUES) },
      ],
    ],
  ];
  for (const [name, assigned, classId, expected] of cases) {
    it(name, () => {
      const specs = audienceQuerySpecs(assigned, classId);
      assert.deepEqual(
        specs.map((s) => ({
          ...(s.equals.role !== undefined ? { role: s.equals.role as string } : {}),
          ...(s.arrayContainsAny ? { values: [...s.arrayContainsAny.values] as string[] } : {}),
        })),
        expected,
      );
      for (const spec of specs) {
        assert.equal(spec.collectionId, 'users');
        assert.deepEqual(spec.orderBy, [], 'by document id (uid) alone');
        if (spec.arrayContainsAny) assert.equal(spec.arrayContainsAny.field, 'class_ids');
      }
    });
  }
});

describe('notStarted: audiencePage (merging the queries by uid, cut to limit)', () => {
  const uids = (page: { profiles: AudienceProfile[] }) => page.profiles.map((p) => p.uid);
  const cases: Array<[string, string[][], number, string[], boolean]> = [
    ['one query, fewer than limit: the last page', [['a', 'b']], 3, ['a', 'b'], false],
    ['one query of exactly limit: the last page', [['a', 'b', 'c']], 3, ['a', 'b', 'c'], false],
    ['one query of limit + 1: a page of limit, and more', [['a', 'b', 'c', 'd']], 3, ['a', 'b', 'c'], true],
    [
      'two queries sharing a student: once',
      [
        ['a', 'c'],
        ['b', 'c'],
      ],
      5,
      ['a', 'b', 'c'],
      false,
    ],
    [
      'two queries, cut by uid across both',
      [
        ['a', 'd', 'e'],
        ['b', 'c', 'f'],
      ],
      3,
      ['a', 'b', 'c'],
      true,
    ],
    [
      'shared students do not count twice toward more',
      [
        ['a', 'b', 'c'],
        ['a', 'b', 'c'],
      ],
      3,
      ['a', 'b', 'c'],
      false,
    ],
    ['nothing read', [[], []], 3, [], false],
  ];
  for (const [name, answers, limit, expected, more] of cases) {
    it(name, () => {
      const page = audiencePage(
        answers.map((answer) => answer.map((uid) => student(uid))),
        limit,
      );
      assert.deepEqual(uids(page), expected);
      assert.equal(page.more, more);
    });
  }
});

describe('notStarted: inAudience', () => {
  const cases: Array<[string, AudienceProfile, string[], string | undefined, boolean]> = [
    ['a student, test open to the organization', student('s'), [], undefined, true],
    ['an administrator is not of the audience', { ...student('s'), role: 'client_admin' }, [], undefined, false],
    ['a profile without a role is not', { uid: 's' }, [], undefined, false],
    ['a member of an assigned class', student('s', ['a']), ['a', 'b'], undefined, true],
    ['a student of no assigned class', student('s', ['z']), ['a', 'b'], undefined, false],
    ['a student of no class, test assigned', student('s'), ['a'], undefined, false],
    ['class filter: a member of the class', student('s', ['a', 'b']), ['a', 'b'], 'b', true],
    ['class filter: not a member of the class', student('s', ['a']), ['a', 'b'], 'b', false],
    ['class filter on an open test: a member', student('s', ['k']), [], 'k', true],
    [
      'class filter outside the assignment: a member also in an assigned class',
      student('s', ['z', 'a']),
      ['a'],
      'z',
      true,
    ],
    ['class filter outside the assignment: a member of that class only', student('s', ['z']), ['a'], 'z', false],
    ['class_ids that are not a list count as none', { ...student('s'), class_ids: 'a' }, ['a'], undefined, false],
  ];
  for (const [name, profile, assigned, classId, expected] of cases)
    it(`${name}: ${expected ? 'in' : 'out'}`, () => assert.equal(inAudience(profile, assigned, classId), expected));
});

describe('notStarted: notStarted (the page less those who started)', () => {
  it('leaves out whoever has a slot, keeping the page’s order', () => {
    const profiles = ['a', 'b', 'c'].map((uid) => student(uid));
    assert.deepEqual(
      notStarted({ profiles, started: new Set(['b']), assignedClassIds: [], classId: undefined }).map((s) => s.uid),
      ['a', 'c'],
    );
  });

  it('lists nobody once everyone has started', () => {
    const profiles = ['a', 'b'].map((uid) => student(uid));
    assert.deepEqual(
      notStarted({ profiles, started: new Set(['a', 'b']), assignedClassIds: [], classId: undefined }),
      [],
    );
  });

  it('leaves out whoever is not of the audience even without a slot', () => {
    const profiles = [student('a', ['x']), student('b', ['y']), { ...student('c', ['x']), role: 'client_admin' }];
    assert.deepEqual(
      notStarted({ profiles, started: new Set(), assignedClassIds: ['x'], classId: undefined }).map((s) => s.uid),
      ['a'],
    );
  });

  it('answers uid, display_name, email, the candidate number when set, and the classes of the audience', () => {
    const profiles = [
      student('a', ['x', 'other', 'y'], { candidate_number: 'C-17' }),
      { uid: 'b', role: 'student', class_ids: ['y'] },
    ];
    assert.deepEqual(notStarted({ profiles, started: new Set(), assignedClassIds: ['x', 'y'], classId: undefined }), [
      {
        uid: 'a',
        display_name: 'Student a',
        email: 'a@school.example',
        candidate_number: 'C-17',
        class_ids: ['x', 'y'],
      },
      { uid: 'b', display_name: null, email: null, class_ids: ['y'] },
    ]);
  });

  it('names every class of a student of a test open to the organization', () => {
    const [only] = notStarted({
      profiles: [student('a', ['x', 'y'])],
      started: new Set(),
      assignedClassIds: [],
      classId: undefined,
    });
    assert.deepEqual(only.class_ids, ['x', 'y']);
  });
});
