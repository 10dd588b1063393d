import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  legacyScoreExtremeSpec,
  openAttemptsSpec,
  resultsExportSpec,
  scoreExtremeSpec,
  studentAttemptsSpec,
  studentAverageSpec,
  studentBestSpec,
  studentPendingSpec,
  studentRowsSpec,
} from '../../functions/src/analytics/analyticsQuery';
import {
  attemptQuerySpec,
  openAttemptsOfSpec,
  OVERDUE_QUERY,
  PENDING_SWEEPS_QUERY,
} from '../../functions/src/attempts/attemptQuery';
import { auditQuerySpec } from '../../functions/src/audit/auditQuery';
import { EVENT_TIMELINE_QUERY } from '../../functions/src/attempts/integrity/eventQuery';
import { AUDIT_EVENT_TYPES } from '../../functions/src/audit/schemas';
import { classMemberQuerySpec, classQuerySpec } from '../../functions/src/classes/classQuery';
import { clientQuerySpec } from '../../functions/src/clients/clientQuery';
import { isIndexed, type IndexFile, type QuerySpec } from '../../functions/src/shared/querySpec';
import { folderQuerySpec } from '../../functions/src/folders/folderQuery';
import { gradingQueueSpec } from '../../functions/src/grading/gradingQuery';
import { NETWORKS_CHANGED_QUERY } from '../../functions/src/networks/networkQuery';
import { questionQuerySpec } from '../../functions/src/questions/questionQuery';
import type { QuestionFilters } from '../../functions/src/questions/schemas';
import { shareCodeQuerySpec } from '../../functions/src/exams/shareCodeQuery';
import { overrideQuerySpec } from '../../functions/src/sittings/overrideQuery';
import { audienceQuerySpecs } from '../../functions/src/sittings/audienceQuery';
import { studentTestQuerySpec, testQuerySpec } from '../../functions/src/exams/testQuery';
import {
  SEARCH_FIELDS,
  superAdminQuerySpec,
  tenantUserQuerySpec,
  userSearchSpec,
} from '../../functions/src/users/userQuery';
import {
  DUE_DELIVERIES_QUERY,
  PENDING_ORGANIZATIONS_QUERY,
  UNFANNED_EVENTS_QUERY,
} from '../../functions/src/delivery/deliveryQuery';
import { deliveriesOfWebhookSpec } from '../../functions/src/webhooks/webhookQuery';

// The emulator serves any query; production refuses one without its index.
// Every list endpoint builds its query from one of these spec functions, so
// trying every combination of their filters covers every query shape sent.
const indexFile: IndexFile = JSON.parse(readFileSync(join(__dirname, '..', '..', 'firestore.indexes.json'), 'utf8'));

/** Every combination of present/absent filters. */
function combinations<T extends Record<string, unknown>>(values: T): Array<Partial<T>> {
  const keys = Object.keys(values) as Array<keyof T>;
  return Array.from(
    { length: 2 ** keys.length },
    (_, mask) => Object.fromEntries(keys.filter((_, i) => mask & (1 << i)).map((k) => [k, values[k]])) as Partial<T>,
  );
}

const shapes: Array<[string, QuerySpec]> = [
  ...combinations({ client_id: 'c', event_type: AUDIT_EVENT_TYPES[0], user_id: 'u', success: true }).map(
    (f) => [`audit_logs ${JSON.stringify(f)}`, auditQuerySpec(f)] as [string, QuerySpec],
  ),
  ...combinations({ active_status: 1 }).map(
    (f) => [`clients ${JSON.stringify(f)}`, clientQuerySpec(f)] as [string, QuerySpec],
  ),
  ...combinations({ role: 'student', disabled: false }).map(
    (f) => [`users ${JSON.stringify(f)}`, tenantUserQuerySpec(f)] as [string, QuerySpec],
  ),
  ...combinations({ disabled: false }).map(
    (f) => [`super_admins ${JSON.stringify(f)}`, superAdminQuerySpec(f)] as [string, QuerySpec],
  ),
  ...SEARCH_FIELDS.flatMap((field) => [
    ...combinations({ role: 'student', disabled: false }).map(
      (f) =>
        [`users, search on ${field} ${JSON.stringify(f)}`, userSearchSpec('users', f, field, 'ad')] as [
          string,
          QuerySpec,
        ],
    ),
    ...combinations({ disabled: false }).map(
      (f) =>
        [`super_admins, search on ${field} ${JSON.stringify(f)}`, userSearchSpec('super_admins', f, field, 'ad')] as [
          string,
          QuerySpec,
        ],
    ),
  ]),
  // ---- folders and questions
  ...combinations({ folder_id: 'f', difficulty: 'easy', question_type: 'numeric' }).map(
    (f) => [`questions ${JSON.stringify(f)}`, questionQuerySpec(f as QuestionFilters)] as [string, QuerySpec],
  ),
  ['folders', folderQuerySpec()],
  // ---- classes
  ['classes, by name', classQuerySpec()],
  ["a class's members, by email", classMemberQuerySpec()],
  // ---- tests and share codes
  ...combinations({ status: 'published', folder_id: 'f' }).map(
    (f) => [`tests ${JSON.stringify(f)}`, testQuerySpec(f)] as [string, QuerySpec],
  ),
  ...combinations({ folder_id: 'f' }).map(
    (f) =>
      [
        `tests: a student's list, open to it or assigned to its classes ${JSON.stringify(f)}`,
        studentTestQuerySpec(f, ['*', 'class-a']),
      ] as [string, QuerySpec],
  ),
  ['share_codes of one test', shareCodeQuerySpec({ client_id: 'c', test_id: 't' })],
  // ---- attempts
  ...combinations({ test_id: 't', student_id: 'u', status: 'submitted' }).map(
    (f) => [`attempts ${JSON.stringify(f)}`, attemptQuerySpec(f)] as [string, QuerySpec],
  ),
  ["attempts: a test's attempts in progress (stopped by an archive)", openAttemptsOfSpec({ test_id: 't' })],
  ["attempts: a share code's attempts in progress (stopped by a revocation)", openAttemptsOfSpec({ share_code: 'c' })],
  // ---- sittings: the deadline sweeps page through these by document id, the order of every index within equal values
  [
    "attempts: a student's attempts in progress (swept when its accommodation changes)",
    openAttemptsOfSpec({ student_id: 'u' }),
  ],
  [
    "attempts: a student's attempt in progress on one test (swept when its override changes)",
    openAttemptsOfSpec({ test_id: 't', student_id: 'u' }),
  ],
  ['overrides of one test, by student id', overrideQuerySpec()],
  ['deadline_sweeps left pending (resumed by the scheduled closer)', PENDING_SWEEPS_QUERY],
  // ---- who has not started: the audience's profiles, by uid
  ...audienceQuerySpecs([], undefined).map(
    (spec) => ["users: an organization's students, by uid (not started)", spec] as [string, QuerySpec],
  ),
  ...audienceQuerySpecs(['a', 'b'], undefined).map(
    (spec) => ["users: the members of a test's classes, by uid (not started)", spec] as [string, QuerySpec],
  ),
  // ---- analytics
  ["attempts: a version's highest score", scoreExtremeSpec({ testId: 't', version: 1 }, 'desc')],
  ["attempts: a version's lowest score", scoreExtremeSpec({ testId: 't', version: 1 }, 'asc')],
  [
    "attempts: a version's highest score before final_score was kept",
    legacyScoreExtremeSpec({ testId: 't', version: 1 }, 'desc'),
  ],
  [
    "attempts: a version's lowest score before final_score was kept",
    legacyScoreExtremeSpec({ testId: 't', version: 1 }, 'asc'),
  ],
  ["attempts: a version's results export", resultsExportSpec({ testId: 't', version: 1 })],
  ["attempts: a version's attempts in progress (count)", openAttemptsSpec({ testId: 't', version: 1 })],
  // ---- analytics, the export and the live view of one class (class_ids holds it)
  ["attempts: a class's highest score", scoreExtremeSpec({ testId: 't', version: 1, classId: 'k' }, 'desc')],
  ["attempts: a class's lowest score", scoreExtremeSpec({ testId: 't', version: 1, classId: 'k' }, 'asc')],
  ["attempts: a class's results export", resultsExportSpec({ testId: 't', version: 1, classId: 'k' })],
  ["attempts: a class's attempts in progress (count)", openAttemptsSpec({ testId: 't', version: 1, classId: 'k' })],
  ...combinations({ student_id: 'u', status: 'submitted' }).map(
    (f) =>
      [
        `attempts: the live view of a class ${JSON.stringify(f)}`,
        attemptQuerySpec({ test_id: 't', class_id: 'k', ...f }),
      ] as [string, QuerySpec],
  ),
  ["attempts: a student's submitted attempts, newest first", studentRowsSpec('u')],
  ["attempts: a student's best percentage", studentBestSpec('u')],
  ["attempts: a student's attempts (count)", studentAttemptsSpec('u')],
  ["attempts: a student's submitted attempts (count)", studentAttemptsSpec('u', 'submitted')],
  ["attempts: a student's average score", studentAverageSpec('u', 'score')],
  ["attempts: a student's average percentage", studentAverageSpec('u', 'percentage')],
  ["attempts: a student's attempts pending grading, their scores", studentPendingSpec('u', 'score')],
  ["attempts: a student's attempts pending grading, their percentages", studentPendingSpec('u', 'percentage')],
  // ---- integrity events
  ["integrity_events: an attempt's timeline, by at", EVENT_TIMELINE_QUERY],
  // ---- grading
  ...combinations({ question_id: 'q' }).map(
    (f) => [`grading_queue ${JSON.stringify(f)}`, gradingQueueSpec(f)] as [string, QuerySpec],
  ),
];

describe('firestore.indexes.json', () => {
  for (const [name, spec] of [
    ...shapes,
    ["a webhook endpoint's deliveries, newest first", deliveriesOfWebhookSpec('w')] as [string, QuerySpec],
  ]) {
    it(`has an index for ${name}`, () => assert.ok(isIndexed(spec, indexFile), JSON.stringify(spec)));
  }

  // Finding a test, question or folder by id across organizations is a collection-group query on `id`.
  for (const group of ['tests', 'questions', 'folders', 'classes']) {
    it(`indexes ${group}.id for collection-group queries`, () => {
      const overrides = (
        indexFile as unknown as {
          fieldOverrides: Array<{ collectionGroup: string; fieldPath: string; indexes: Array<{ queryScope: string }> }>;
        }
      ).fieldOverrides;
      assert.ok(
        overrides.some(
          (o) =>
            o.collectionGroup === group &&
            o.fieldPath === 'id' &&
            o.indexes.some((i) => i.queryScope === 'COLLECTION_GROUP'),
        ),
      );
    });
  }

  // A class delete asks for the tests assigned to the class: an array-contains on one field, which the automatic
  // single-field index serves unless an override takes it away.
  it('keeps the automatic single-field index on tests.assigned_class_ids and tests.class_override_ids (array-contains, a class delete)', () => {
    const overrides = (
      indexFile as unknown as {
        fieldOverrides: Array<{ collectionGroup: string; fieldPath: string; indexes: Array<{ arrayConfig?: string }> }>;
      }
    ).fieldOverrides;
    for (const field of ['assigned_class_ids', 'class_override_ids']) {
      const override = overrides.find((o) => o.collectionGroup === 'tests' && o.fieldPath === field);
      assert.ok(!override || override.indexes.some((i) => i.arrayConfig === 'CONTAINS'), field);
    }
  });

  // Who has not started reads students' profiles by role, or by class_ids (array-contains-any), ordered by uid alone:
  // the automatic single-field indexes serve both, unless an override takes one away.
  it('keeps the automatic single-field indexes on users.role and users.class_ids (who has not started)', () => {
    const overrides = (
      indexFile as unknown as {
        fieldOverrides: Array<{ collectionGroup: string; fieldPath: string; indexes: Array<{ arrayConfig?: string }> }>;
      }
    ).fieldOverrides;
    const roleOverride = overrides.find((o) => o.collectionGroup === 'users' && o.fieldPath === 'role');
    assert.ok(!roleOverride || roleOverride.indexes.length > 0, 'users.role');
    const classOverride = overrides.find((o) => o.collectionGroup === 'users' && o.fieldPath === 'class_ids');
    assert.ok(!classOverride || classOverride.indexes.some((i) => i.arrayConfig === 'CONTAINS'), 'users.class_ids');
  });

  it("does not index the analytics shards' per-question sums (never queried; keeps each submit's write small)", () => {
    const overrides = (
      indexFile as unknown as {
        fieldOverrides: Array<{ collectionGroup: string; fieldPath: string; indexes: unknown[] }>;
      }
    ).fieldOverrides;
    for (const field of ['q', 'bands']) {
      assert.ok(
        overrides.some((o) => o.collectionGroup === 'stats_shards' && o.fieldPath === field && o.indexes.length === 0),
        field,
      );
    }
  });

  it("does not index a class's shards' per-question sums either (every submit writes one per class of its student)", () => {
    const overrides = (
      indexFile as unknown as {
        fieldOverrides: Array<{ collectionGroup: string; fieldPath: string; indexes: unknown[] }>;
      }
    ).fieldOverrides;
    for (const group of ['class_stats', 'class_stats_blocks'])
      for (const field of ['q', 'bands'])
        assert.ok(
          overrides.some((o) => o.collectionGroup === group && o.fieldPath === field && o.indexes.length === 0),
          `${group}.${field}`,
        );
  });

  // Each instance's registry of networks asks, every 30 s, for every organization's networks changed since its last read.
  it('has a collection-group single-field index for the networks registry (updated_at > its last read, by updated_at)', () => {
    const { collectionId, scope, range, orderBy } = NETWORKS_CHANGED_QUERY;
    assert.equal(scope, 'COLLECTION_GROUP');
    assert.deepEqual(
      orderBy.map((o) => o.field),
      [range.field],
      'one field, range and order alike: a single-field index serves it',
    );
    const overrides = (
      indexFile as unknown as {
        fieldOverrides: Array<{
          collectionGroup: string;
          fieldPath: string;
          indexes: Array<{ queryScope: string; order?: string }>;
        }>;
      }
    ).fieldOverrides;
    const wanted = orderBy[0].direction === 'asc' ? 'ASCENDING' : 'DESCENDING';
    assert.ok(
      overrides.some(
        (o) =>
          o.collectionGroup === collectionId &&
          o.fieldPath === range.field &&
          o.indexes.some((i) => i.queryScope === 'COLLECTION_GROUP' && i.order === wanted),
      ),
      `${collectionId}.${range.field} ${wanted} COLLECTION_GROUP`,
    );
  });

  // The outbox's runner: equality then range-and-order on one field, some across every organization (collection group).
  for (const query of [PENDING_ORGANIZATIONS_QUERY, DUE_DELIVERIES_QUERY, UNFANNED_EVENTS_QUERY]) {
    it(`has a ${query.scope} index for the outbox's ${query.collectionId} (${query.equals.join(', ')} ==, by ${query.orderBy[0].field})`, () => {
      const wanted = [
        ...query.equals.map((fieldPath) => ({ fieldPath, order: 'ASCENDING' })),
        ...query.orderBy.map((o) => ({
          fieldPath: o.field,
          order: o.direction === 'asc' ? 'ASCENDING' : 'DESCENDING',
        })),
      ];
      assert.ok(
        indexFile.indexes.some(
          (index) =>
            index.collectionGroup === query.collectionId &&
            index.queryScope === query.scope &&
            JSON.stringify(index.fields) === JSON.stringify(wanted),
        ),
        JSON.stringify(query),
      );
    });
  }

  it('expires the outbox’s events and deliveries with a TTL policy', () => {
    const overrides = (
      indexFile as unknown as { fieldOverrides: Array<{ collectionGroup: string; fieldPath: string; ttl?: boolean }> }
    ).fieldOverrides;
    for (const group of ['events', 'deliveries'])
      assert.ok(
        overrides.some((o) => o.collectionGroup === group && o.fieldPath === 'expires_at' && o.ttl),
        group,
      );
  });

  it('expires rate-limit counters with a TTL policy', () => {
    const overrides = (
      indexFile as unknown as { fieldOverrides: Array<{ collectionGroup: string; fieldPath: string; ttl?: boolean }> }
    ).fieldOverrides;
    assert.ok(overrides.some((o) => o.collectionGroup === 'rate_limits' && o.fieldPath === 'expires_at' && o.ttl));
  });

  it('expires finished deadline sweeps with a TTL policy', () => {
    const overrides = (
      indexFile as unknown as { fieldOverrides: Array<{ collectionGroup: string; fieldPath: string; ttl?: boolean }> }
    ).fieldOverrides;
    assert.ok(overrides.some((o) => o.collectionGroup === 'deadline_sweeps' && o.fieldPath === 'expires_at' && o.ttl));
  });

  // Never queried: indexing them would only add index entries to every write (an attempt's extensions are a map keyed by extension id).
  for (const [group, field] of [
    ['attempts', 'answers'],
    ['attempts', 'extensions'],
    ['deadline_sweeps', 'meta'],
    ['tests', 'class_overrides'],
  ]) {
    it(`does not index ${group}.${field} (never queried)`, () => {
      const overrides = (
        indexFile as unknown as {
          fieldOverrides: Array<{ collectionGroup: string; fieldPath: string; indexes: unknown[] }>;
        }
      ).fieldOverrides;
      assert.ok(overrides.some((o) => o.collectionGroup === group && o.fieldPath === field && o.indexes.length === 0));
    });
  }

  it('keeps the automatic single-field index on deadline_sweeps.pending, which the scheduled closer queries', () => {
    const overrides = (
      indexFile as unknown as { fieldOverrides: Array<{ collectionGroup: string; fieldPath: string }> }
    ).fieldOverrides;
    assert.deepEqual(Object.keys(PENDING_SWEEPS_QUERY.equals), ['pending']);
    assert.ok(!overrides.some((o) => o.collectionGroup === 'deadline_sweeps' && o.fieldPath === 'pending'));
  });
});

describe('isIndexed', () => {
  const spec: QuerySpec = {
    collectionId: 'things',
    equals: { a: 1, b: 'x' },
    orderBy: [{ field: 't', direction: 'desc' }],
  };
  const file = (fields: Array<[string, 'ASCENDING' | 'DESCENDING']>): IndexFile => ({
    indexes: [
      {
        collectionGroup: 'things',
        queryScope: 'COLLECTION',
        fields: fields.map(([fieldPath, order]) => ({ fieldPath, order })),
      },
    ],
  });

  it('finds a composite index with the equality fields in any order, then the sort', () => {
    assert.ok(
      isIndexed(
        spec,
        file([
          ['b', 'ASCENDING'],
          ['a', 'ASCENDING'],
          ['t', 'DESCENDING'],
        ]),
      ),
    );
  });
  it('refuses an index whose sort direction differs', () => {
    assert.ok(
      !isIndexed(
        spec,
        file([
          ['a', 'ASCENDING'],
          ['b', 'ASCENDING'],
          ['t', 'ASCENDING'],
        ]),
      ),
    );
  });
  it('refuses an index missing an equality field', () => {
    assert.ok(
      !isIndexed(
        spec,
        file([
          ['a', 'ASCENDING'],
          ['t', 'DESCENDING'],
        ]),
      ),
    );
  });
  it('needs no composite index for one sort alone or equality filters alone', () => {
    assert.ok(isIndexed({ ...spec, equals: {} }, { indexes: [] }));
    assert.ok(isIndexed({ ...spec, orderBy: [] }, { indexes: [] }));
  });

  it('serves a prefix range only on the first sort field', () => {
    const prefix: QuerySpec = { ...spec, startsWith: { field: 't', value: 'ad' } };
    const index = file([
      ['a', 'ASCENDING'],
      ['b', 'ASCENDING'],
      ['t', 'DESCENDING'],
    ]);
    assert.ok(isIndexed(prefix, index));
    assert.ok(!isIndexed({ ...prefix, startsWith: { field: 'other', value: 'ad' } }, index));
  });

  describe('with array-contains-any', () => {
    const arraySpec: QuerySpec = { ...spec, arrayContainsAny: { field: 'tags', values: ['x', 'y'] } };
    const withArray = (fields: Array<[string, 'ASCENDING' | 'DESCENDING' | 'CONTAINS']>): IndexFile => ({
      indexes: [
        {
          collectionGroup: 'things',
          queryScope: 'COLLECTION',
          fields: fields.map(([fieldPath, order]) =>
            order === 'CONTAINS' ? { fieldPath, arrayConfig: 'CONTAINS' as const } : { fieldPath, order },
          ),
        },
      ],
    });

    it('finds an index with the equality fields and the array field (CONTAINS) first, then the sort', () => {
      const fields: Array<[string, 'ASCENDING' | 'DESCENDING' | 'CONTAINS']> = [
        ['a', 'ASCENDING'],
        ['tags', 'CONTAINS'],
        ['b', 'ASCENDING'],
        ['t', 'DESCENDING'],
      ];
      assert.ok(isIndexed(arraySpec, withArray(fields)));
    });
    it('refuses an index without the array field, or with it ordered instead of CONTAINS', () => {
      assert.ok(
        !isIndexed(
          arraySpec,
          file([
            ['a', 'ASCENDING'],
            ['b', 'ASCENDING'],
            ['t', 'DESCENDING'],
          ]),
        ),
      );
      assert.ok(
        !isIndexed(
          arraySpec,
          file([
            ['a', 'ASCENDING'],
            ['b', 'ASCENDING'],
            ['tags', 'ASCENDING'],
            ['t', 'DESCENDING'],
          ]),
        ),
      );
    });
    it('refuses an index with a CONTAINS field the query does not filter on', () => {
      assert.ok(
        !isIndexed(
          spec,
          withArray([
            ['a', 'ASCENDING'],
            ['b', 'ASCENDING'],
            ['tags', 'CONTAINS'],
            ['t', 'DESCENDING'],
          ]),
        ),
      );
    });
    it('needs a composite index for array-contains-any with a sort, even without equality filters', () => {
      assert.ok(!isIndexed({ ...arraySpec, equals: {} }, { indexes: [] }));
    });
  });
});

// ---- attempts: the collection-group queries (a Guest's own attempts across organizations; the overdue closer).
describe('firestore.indexes.json: attempts collection-group queries', () => {
  const groupIndexes: IndexFile = {
    indexes: indexFile.indexes
      .filter((i) => i.queryScope === 'COLLECTION_GROUP')
      .map((i) => ({ ...i, queryScope: 'COLLECTION' })),
  };
  for (const f of combinations({ test_id: 't', status: 'submitted' })) {
    it(`has a collection-group index for a Guest's attempts ${JSON.stringify(f)}`, () => {
      const spec = attemptQuerySpec({ ...f, student_id: 'guest-uid' });
      // Without filters a single-field index would do; a Guest's list always filters on student_id.
      assert.ok(
        groupIndexes.indexes.some(
          (i) =>
            i.collectionGroup === 'attempts' &&
            i.fields.length === Object.keys(f).length + 2 &&
            isIndexed(spec, { indexes: [i] }),
        ),
        JSON.stringify(spec),
      );
    });
  }
  it('has a collection-group index for the overdue closer (status ==, expires_at <, by expires_at)', () => {
    assert.ok(
      groupIndexes.indexes.some(
        (i) =>
          i.collectionGroup === OVERDUE_QUERY.collectionId &&
          i.fields.map((f) => `${f.fieldPath} ${f.order}`).join(',') === 'status ASCENDING,expires_at ASCENDING',
      ),
    );
  });
  it('has a collection-group index for OVERDUE_QUERY as the closer builds its query from it (equality fields, then the range field it sorts on)', () => {
    const { equals, range, orderBy } = OVERDUE_QUERY;
    assert.deepEqual(
      orderBy.map((o) => o.field),
      [range.field],
      'a range query sorts on its range field alone',
    );
    const wanted = [
      ...Object.keys(equals).map((f) => `${f} ASCENDING`),
      ...orderBy.map((o) => `${o.field} ${o.direction === 'asc' ? 'ASCENDING' : 'DESCENDING'}`),
    ];
    assert.ok(
      groupIndexes.indexes.some(
        (i) =>
          i.collectionGroup === OVERDUE_QUERY.collectionId &&
          i.fields.map((f) => `${f.fieldPath} ${f.order}`).join(',') === wanted.join(','),
      ),
      wanted.join(','),
    );
  });
});
