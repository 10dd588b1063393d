import { randomUUID } from 'node:crypto';
import {
  assertCanAuthorTests,
  assertCanManageShareCodes,
  assertCanManageSitting,
  assertCanReadTest,
  assertSameOrganizationReferences,
  type Principal,
  tenantScope,
  testListScope,
  testViewFor,
  testVisibilityNeedsClasses,
  testVisibleTo,
} from '../auth';
import { addAudit, requestMeta } from '../audit';
import {
  badRequest,
  type CallContext,
  conflict,
  type ErrorDetail,
  isDocumentId,
  notFound,
  type PageRequest,
  sebKeysOf,
  sebRequired,
} from '../shared';
import { hasAccessCode, type PatchTestInput } from '../sittingRules';
import { requireClient } from '../clients';
import { applyMove, freezePools, isEditable, type TestStatus } from './lifecycle';
import {
  MAX_POOL_QUESTIONS,
  type CreateShareCodeInput,
  type CreateTestInput,
  type EditNewVersionInput,
  type ShareCode,
  type StudentTest,
  type Test,
  type TestFieldsInput,
} from './schemas';
import { bankChanges, openPendingEdit, openRefusal, pendingRefusal, withoutPendingEdit } from './newVersion';
import { canonicalShareCode } from './shareCodeText';
import * as store from './store';
import { testChangeEffects } from './testChangeEffects';
import { listAudience } from './audience';
import type { StoredShareCode, StoredTest } from './documents';
import { nameFields, namesOf } from '../people';

// ---------------------------------------------------------------- views

/** The delivery settings as every reader sees them: the access code only as whether there is one. */
const deliveryView = (test: StoredTest) => ({
  opens_at: test.opens_at ?? null,
  closes_at: test.closes_at ?? null,
  access_code_required: hasAccessCode(test),
  attempt_cooldown_minutes: test.attempt_cooldown_minutes ?? 0,
  review_opens_at: test.review_opens_at ?? null,
  on_site_only: test.on_site_only ?? 0,
  seb_required: sebRequired(sebKeysOf(test)),
});

/** The questions each attempt holds: the fixed ones and every pool's draw. */
const questionCount = (test: Pick<StoredTest, 'question_ids' | 'pools'>): number =>
  test.question_ids.length + (test.pools ?? []).reduce((sum, pool) => sum + pool.draw, 0);

export function authorView(test: StoredTest): Test {
  const {
    access_code: _code,
    access_code_hash: _hash,
    seb_config_keys: _sebConfig,
    seb_browser_exam_keys: _sebBrowser,
    key_revisions: _revisions,
    audience: _audience,
    class_overrides: _classOverrides,
    class_override_ids: _classOverrideIds,
    pending_edit: pending,
    ...fields
  } = test;
  return {
    ...fields,
    ...deliveryView(test),
    // The organization's admins read the code they set; a legacy hash-only code reads as null.
    access_code: test.access_code ?? null,
    assigned_class_ids: test.assigned_class_ids ?? [],
    pools: poolsView(test.pools),
    question_count: questionCount(test),
    pending_edit: pending
      ? { ...pending, pools: poolsView(pending.pools), question_count: questionCount({ ...test, ...pending }) }
      : null,
  };
}

const poolsView = (pools: StoredTest['pools']) =>
  (pools ?? []).map((pool) => ({
    folder_id: pool.folder_id,
    difficulty: (pool.difficulty ?? null) as Test['pools'][number]['difficulty'],
    draw: pool.draw,
  }));

function studentView(test: StoredTest): StudentTest {
  const {
    question_ids: _ids,
    pools: _pools,
    key_revisions: _revisions,
    // Takers never receive the code: it is what they must bring.
    access_code: _code,
    access_code_hash: _hash,
    seb_config_keys: _sebConfig,
    seb_browser_exam_keys: _sebBrowser,
    // Whom it is assigned to, and the classes' overrides, are the authors' business.
    assigned_class_ids: _assigned,
    audience: _audience,
    class_overrides: _classOverrides,
    class_override_ids: _classOverrideIds,
    // The next version being edited is the authors' until it is published.
    pending_edit: _pending,
    ...publicFields
  } = test;
  return { ...publicFields, ...deliveryView(test), question_count: questionCount(test) };
}

const viewFor = (principal: Principal) => (testViewFor(principal) === 'author' ? authorView : studentView);

// ---------------------------------------------------------------- loading

/**
 * The test with this id and its organization. A Client Admin's or Student's
 * own organization is read directly (one read); a Super Admin's test, or one
 * not found there, is looked up across organizations, so that another
 * organization's test can be told (403, by the policy) from none at all (404).
 */
export async function requireTest(principal: Principal, testId: string): Promise<StoredTest> {
  if (principal.clientId) {
    const own = await store.findTest(principal.clientId, testId);
    if (own) return own;
  }
  const anywhere = await store.findTestAnywhere(testId);
  if (!anywhere) throw notFound('Test not found');
  return anywhere;
}

/** 404 unless the test has published this version (versions are 1 to `test.version`). */
export function assertHasVersion(test: StoredTest, version: number): void {
  if (test.version === null || version > test.version) {
    throw notFound(
      `This test has no version ${version}${test.version === null ? ' (it was never published)' : `; its versions are 1 to ${test.version}`}`,
    );
  }
}

/** A client a Super Admin names must exist; a tenant user's own organization does (authentication checked it). */
async function assertClientExists(principal: Principal, clientId: string): Promise<void> {
  if (principal.role === 'super_admin') await requireClient(clientId);
}

const OWNER_LOOKUP_LIMIT = 30;

/**
 * Every question and the folder must be the test's organization's: another
 * organization's is 403 (policy), one that exists nowhere is 400 naming it.
 * Costs one round trip when all is well.
 */
async function checkReferences(
  clientId: string,
  questionIds: string[],
  folderId: string | null | undefined,
  pools: ReadonlyArray<{ folder_id: string }> = [],
  classIds: readonly string[] = [],
): Promise<void> {
  const poolFolders = [...new Set(pools.map((pool) => pool.folder_id))];
  const [found, folderFound, poolFoldersFound, classesFound] = await Promise.all([
    store.existingQuestionIds(clientId, questionIds),
    folderId ? store.folderExists(clientId, folderId) : Promise.resolve(true),
    Promise.all(poolFolders.map((id) => store.folderExists(clientId, id))),
    store.existingClassIds(clientId, classIds),
  ]);
  const missing = questionIds.filter((id) => !found.has(id));
  const missingPoolFolders = poolFolders.filter((_, i) => !poolFoldersFound[i]);
  const missingClasses = classIds.filter((id) => !classesFound.has(id));
  if (missing.length === 0 && folderFound && missingPoolFolders.length === 0 && missingClasses.length === 0) return;
  const [questionOwners, folderOwners, classOwners] = await Promise.all([
    // Whose they are is asked for one query's worth (30) at most: a body of 500
    // unknown ids must not buy 17 cross-organization queries.
    missing.length > 0
      ? store.questionOwners(missing.slice(0, OWNER_LOOKUP_LIMIT))
      : Promise.resolve(new Map<string, string>()),
    store.folderOwners([...(folderFound ? [] : [folderId!]), ...missingPoolFolders]),
    missingClasses.length > 0
      ? store.classOwners(missingClasses.slice(0, OWNER_LOOKUP_LIMIT))
      : Promise.resolve(new Map<string, string>()),
  ]);
  assertSameOrganizationReferences(clientId, [
    ...[...questionOwners].map(([id, owner]) => ({ field: 'question', id, clientId: owner })),
    ...[...folderOwners].map(([id, owner]) => ({ field: 'folder', id, clientId: owner })),
    ...[...classOwners].map(([id, owner]) => ({ field: 'class', id, clientId: owner })),
  ]);
  const details: ErrorDetail[] = [];
  if (missing.length > 0) {
    details.push({
      path: 'body.question_ids',
      message: `No such questions in this organization: ${missing.join(', ')}`,
      question_ids: missing,
    });
  }
  if (!folderFound)
    details.push({ path: 'body.folder_id', message: `No such folder in this organization: ${folderId}` });
  pools.forEach((pool, i) => {
    if (missingPoolFolders.includes(pool.folder_id))
      details.push({
        path: `body.pools.${i}.folder_id`,
        message: `No such folder in this organization: ${pool.folder_id}`,
      });
  });
  if (missingClasses.length > 0) details.push(...store.unknownClasses(missingClasses).details!);
  throw badRequest(`The test names what does not exist: ${details.map((d) => d.message).join('; ')}`, details);
}

const editableFields = (input: TestFieldsInput) => ({
  test_name: input.test_name,
  timer: input.timer ?? null,
  shuffle: input.shuffle,
  allow_review: input.allow_review,
  negative_marking: input.negative_marking,
  folder_id: input.folder_id ?? null,
  question_ids: input.question_ids,
  description: input.description ?? null,
  max_attempts: input.max_attempts ?? null,
  negative_mark_ratio: input.negative_mark_ratio,
  pools: input.pools.map((pool) => ({
    folder_id: pool.folder_id,
    difficulty: pool.difficulty ?? null,
    draw: pool.draw,
  })),
});

// ---------------------------------------------------------------- delivery settings

const iso = (text: string | null | undefined): string | null | undefined =>
  text ? new Date(text).toISOString() : text;

/** What a create or a replace stores for one delivery setting: the value sent, else the stored one (a replace), else the default. */
const sentOrKept = <T>(sent: T | undefined, stored: T | undefined, fallback: T): T =>
  sent !== undefined ? sent : stored !== undefined ? stored : fallback;

/**
 * Delivery settings as a create or a replace stores them. A create sets the absent ones to their
 * defaults; a replace keeps every one it is not sent (null clears one that can be cleared), so a
 * client that edits a draft's content cannot reopen a window, drop an access code or open the test to
 * the whole organization by omission. PATCH changes them on any status.
 */
const deliveryDefaults = (input: PatchTestInput, current: StoredTest | undefined) => ({
  opens_at: sentOrKept(iso(input.opens_at), current?.opens_at, null),
  closes_at: sentOrKept(iso(input.closes_at), current?.closes_at, null),
  ...accessCodeFields(input, current),
  attempt_cooldown_minutes: sentOrKept(input.attempt_cooldown_minutes, current?.attempt_cooldown_minutes, 0),
  review_opens_at: sentOrKept(iso(input.review_opens_at), current?.review_opens_at, null),
  on_site_only: sentOrKept(input.on_site_only, current?.on_site_only, 0),
  assigned_class_ids: sentOrKept(input.assigned_class_ids, current?.assigned_class_ids, []),
  seb_config_keys: sentOrKept(input.seb_config_keys, current?.seb_config_keys, []),
  seb_browser_exam_keys: sentOrKept(input.seb_browser_exam_keys, current?.seb_browser_exam_keys, []),
});

/** The access code fields a write stores: a code sent (or null) replaces the stored one and any legacy hash. */
function accessCodeFields(
  input: { access_code?: string | null },
  current: StoredTest | undefined,
): Pick<StoredTest, 'access_code' | 'access_code_hash'> {
  if (input.access_code !== undefined) return { access_code: input.access_code, access_code_hash: null };
  return { access_code: current?.access_code ?? null, access_code_hash: current?.access_code_hash ?? null };
}

/** 400 when the window, as it will stand, closes before it opens (naming the field sent). */
function assertWindow(test: StoredTest, sent: PatchTestInput): void {
  if (test.opens_at && test.closes_at && Date.parse(test.closes_at) <= Date.parse(test.opens_at)) {
    const field = sent.closes_at !== undefined ? 'closes_at' : 'opens_at';
    const message = `closes_at (${test.closes_at}) must be after opens_at (${test.opens_at})`;
    throw badRequest(message, [{ path: `body.${field}`, message }]);
  }
}

const DELIVERY_KEYS = [
  'opens_at',
  'closes_at',
  'access_code',
  'access_code_hash',
  'attempt_cooldown_minutes',
  'review_opens_at',
  'on_site_only',
  'seb_config_keys',
  'seb_browser_exam_keys',
] as const;

/**
 * The recorder of a delivery change: an audit record naming what changed (the
 * access code only as set or cleared) and, when closes_at moved, a sweep of
 * the test's attempts in progress, which end by it.
 */
function deliveryRecorder(principal: Principal, call: CallContext): store.DeliveryChangeRecorder {
  return (tx, before, after) => {
    recordAssignment(tx, principal, call, before, after);
    // An absent key list is an empty one: a test stored before SEB keys is not changed by gaining [].
    const valueOf = (test: StoredTest, key: (typeof DELIVERY_KEYS)[number]) =>
      JSON.stringify(
        key === 'seb_config_keys' || key === 'seb_browser_exam_keys' ? (test[key] ?? []) : (test[key] ?? null),
      );
    const changed = DELIVERY_KEYS.filter((key) => valueOf(before, key) !== valueOf(after, key));
    if (changed.length === 0) return undefined;
    const meta = requestMeta(call);
    const details: Record<string, unknown> = { test_id: after.id };
    for (const key of changed) {
      // The code itself stays out of the log: only that it was set or cleared.
      if (key === 'access_code' || key === 'access_code_hash')
        details.access_code = hasAccessCode(after) ? 'set' : 'cleared';
      // The keys are write-only: the audit says how many there are, never which.
      else if (key === 'seb_config_keys' || key === 'seb_browser_exam_keys')
        details[key] = { from: (before[key] ?? []).length, to: (after[key] ?? []).length };
      else details[key] = { from: before[key] ?? null, to: after[key] ?? null };
    }
    addAudit(tx, meta, {
      type: 'test_settings_changed',
      userId: principal.uid,
      clientId: after.client_id,
      actorId: principal.uid,
      details,
    });
    if (!changed.includes('closes_at')) return undefined;
    return testChangeEffects().recordSweep(
      tx,
      { clientId: after.client_id, testId: after.id, reason: 'closes_at_changed', by: principal.uid, meta },
      after.updated_at,
    );
  };
}

/**
 * test_assignment_changed when the classes a test is assigned to changed (as sets):
 * from, to, and which were added and removed. Running attempts are left as they are.
 */
function recordAssignment(
  tx: Parameters<store.DeliveryChangeRecorder>[0],
  principal: Principal,
  call: CallContext,
  before: StoredTest,
  after: StoredTest,
): void {
  const from = before.assigned_class_ids ?? [];
  const to = after.assigned_class_ids ?? [];
  const added = to.filter((id) => !from.includes(id));
  const removed = from.filter((id) => !to.includes(id));
  if (added.length === 0 && removed.length === 0) return;
  addAudit(tx, requestMeta(call), {
    type: 'test_assignment_changed',
    userId: principal.uid,
    clientId: after.client_id,
    actorId: principal.uid,
    details: { test_id: after.id, from, to, added, removed },
  });
}

// ---------------------------------------------------------------- tests

export async function listTests(
  principal: Principal,
  query: { client_id?: string; status?: TestStatus; folder_id?: string },
  page: PageRequest,
) {
  const scope = testListScope(principal, query);
  // A Super Admin's client_id that names no document is no organization: 404 here, before the
  // reads beside the organization's check build paths from it (a folder read would fail first).
  if (!isDocumentId(scope.clientId)) throw notFound('Client not found');
  // A student's classes are read beside the other checks: its list is then one query.
  const [classIds] = await Promise.all([
    scope.byClasses ? store.studentClassIds(scope.clientId, principal.uid) : Promise.resolve([]),
    assertClientExists(principal, scope.clientId),
    query.folder_id !== undefined ? assertFolderOfOrganization(scope.clientId, query.folder_id) : undefined,
  ]);
  const { data, pagination } = scope.byClasses
    ? await store.listTestsOpenTo(scope.clientId, { folder_id: query.folder_id }, listAudience(classIds), page)
    : await store.listTests(
        scope.clientId,
        { status: scope.status as TestStatus | undefined, folder_id: query.folder_id },
        page,
      );
  return { data: data.map(viewFor(principal)), pagination };
}

/** A folder filter of another organization's folder is 403; one that exists nowhere lists nothing. */
async function assertFolderOfOrganization(clientId: string, folderId: string): Promise<void> {
  if (await store.folderExists(clientId, folderId)) return;
  const owners = await store.folderOwners([folderId]);
  assertSameOrganizationReferences(
    clientId,
    [...owners].map(([id, owner]) => ({ field: 'folder', id, clientId: owner })),
  );
}

export async function readTest(principal: Principal, testId: string): Promise<Test | StudentTest> {
  const test = await requireTest(principal, testId);
  assertCanReadTest(principal, { clientId: test.client_id });
  // A student's classes matter only for a test assigned to classes: an open test costs no read more.
  const classIds = testVisibilityNeedsClasses(principal, test)
    ? await store.studentClassIds(test.client_id, principal.uid)
    : [];
  if (!testVisibleTo(principal, test, classIds)) throw notFound('Test not found');
  return viewFor(principal)(test);
}

export async function createTest(principal: Principal, input: CreateTestInput): Promise<Test> {
  const clientId = tenantScope(principal, input.client_id, { field: 'body.client_id' });
  assertCanAuthorTests(principal, clientId);
  await assertClientExists(principal, clientId);
  await checkReferences(clientId, input.question_ids, input.folder_id, input.pools, input.assigned_class_ids);
  const now = new Date().toISOString();
  const test: StoredTest = {
    id: randomUUID(),
    client_id: clientId,
    ...editableFields(input),
    ...deliveryDefaults(input, undefined),
    status: 'draft',
    created_at: now,
    updated_at: now,
    published_at: null,
    version: null,
  };
  await store.insertTest(test);
  return authorView(test);
}

/**
 * PUT replaces every content field of a draft (absent optional ones return to
 * their defaults) and keeps every delivery setting it is not sent. A published or archived test is not edited in place (409):
 * archive it, restore it to a draft, edit, and publish the next version.
 */
export async function replaceTest(
  principal: Principal,
  testId: string,
  input: TestFieldsInput,
  call: CallContext,
): Promise<Test> {
  const test = await requireTest(principal, testId);
  assertCanAuthorTests(principal, test.client_id);
  if (!isEditable(test.status)) {
    throw conflict(
      test.status === 'published'
        ? 'Only a draft is edited in place; this test is published. Edit it as a new version (POST /api/tests/{testId}/new-version): the live version stays live until the new one is published'
        : `Only a draft can be edited; this test is ${test.status}. Restore it to a draft, then publish again as a new version`,
    );
  }
  await checkReferences(test.client_id, input.question_ids, input.folder_id, input.pools, input.assigned_class_ids);
  const now = new Date().toISOString();
  const { test: next, sweepId } = await store.replaceDraft(
    test.client_id,
    testId,
    (current) => {
      const next = { ...current, ...editableFields(input), ...deliveryDefaults(input, current), updated_at: now };
      // A window sent half may close before the kept other half opens.
      assertWindow(next, input);
      return next;
    },
    deliveryRecorder(principal, call),
  );
  if (sweepId) await testChangeEffects().runSweep(sweepId);
  return authorView(next);
}

/**
 * PATCH: the delivery settings alone, on a draft or a published test alike;
 * a field absent is left as it is. Moving closes_at brings the deadlines of
 * the test's attempts in progress in line before answering (a sweep recorded
 * with the change: should it be cut short, the scheduled closer finishes it).
 */
export async function patchTest(
  principal: Principal,
  testId: string,
  input: PatchTestInput,
  call: CallContext,
): Promise<Test> {
  const test = await requireTest(principal, testId);
  assertCanManageSitting(principal, test.client_id);
  if (input.assigned_class_ids) await checkReferences(test.client_id, [], null, [], input.assigned_class_ids);
  const now = new Date().toISOString();
  const { test: next, sweepId } = await store.patchDelivery(
    test.client_id,
    testId,
    (current) => {
      const patched: StoredTest = { ...current, updated_at: now };
      if (input.opens_at !== undefined) patched.opens_at = iso(input.opens_at);
      if (input.closes_at !== undefined) patched.closes_at = iso(input.closes_at);
      if (input.access_code !== undefined) Object.assign(patched, accessCodeFields(input, current));
      if (input.attempt_cooldown_minutes !== undefined)
        patched.attempt_cooldown_minutes = input.attempt_cooldown_minutes;
      if (input.review_opens_at !== undefined) patched.review_opens_at = iso(input.review_opens_at);
      if (input.on_site_only !== undefined) patched.on_site_only = input.on_site_only;
      if (input.assigned_class_ids !== undefined) patched.assigned_class_ids = input.assigned_class_ids;
      if (input.seb_config_keys !== undefined) patched.seb_config_keys = input.seb_config_keys;
      if (input.seb_browser_exam_keys !== undefined) patched.seb_browser_exam_keys = input.seb_browser_exam_keys;
      assertWindow(patched, input);
      return patched;
    },
    deliveryRecorder(principal, call),
    input.assigned_class_ids,
  );
  if (sweepId) await testChangeEffects().runSweep(sweepId);
  return authorView(next);
}

export async function publishTest(principal: Principal, testId: string): Promise<Test> {
  const test = await requireTest(principal, testId);
  assertCanAuthorTests(principal, test.client_id);
  if (!isEditable(test.status)) throw conflict(applyMoveReason(test.status));
  const frozenPools = (test.pools ?? []).length > 0 ? await freezeTestPools(test) : undefined;
  try {
    return authorView(
      await store.publishTest(test.client_id, testId, new Date().toISOString(), principal.uid, frozenPools),
    );
  } catch (err) {
    if (frozenPools) await store.deletePoolFreeze(test.client_id, testId, frozenPools.freezeId);
    throw err;
  }
}

const applyMoveReason = (status: TestStatus): string => {
  const outcome = applyMove('publish', status);
  return outcome.ok ? '' : outcome.reason;
};

/**
 * The pools' questions as the bank holds them now, frozen (copied) before the
 * publish's transaction, which checks that the test did not change meanwhile.
 * A draw larger than its pool is 400 naming the pool, with nothing written.
 */
async function freezeTestPools(
  test: StoredTest,
  content: Pick<StoredTest, 'pools' | 'question_ids' | 'updated_at'> = test,
): Promise<store.FrozenPools> {
  const pools = content.pools ?? [];
  // One more than the most a version freezes: a larger folder is refused without being read whole.
  const candidates = await Promise.all(
    pools.map((pool) => store.poolCandidates(test.client_id, pool, MAX_POOL_QUESTIONS + 1)),
  );
  const planned = freezePools(pools, candidates, content.question_ids, MAX_POOL_QUESTIONS);
  const refuse = (problems: typeof planned.problems) =>
    badRequest(`This test cannot be published yet: ${problems.map((p) => p.message).join('; ')}`, problems);
  if (planned.problems.length > 0) throw refuse(planned.problems);
  const { freezeId, frozen, passageIds } = await store.writePoolFreeze(
    test.client_id,
    test.id,
    planned.pools.flatMap((pool) => pool.question_ids),
  );
  // A question deleted between the query and its copy is not frozen: the draws are checked against what was.
  const { pools: kept, problems } = freezePools(
    pools,
    planned.pools.map((pool) => pool.question_ids.filter((id) => frozen.has(id))),
    content.question_ids,
    MAX_POOL_QUESTIONS,
  );
  if (problems.length > 0) {
    await store.deletePoolFreeze(test.client_id, test.id, freezeId);
    throw refuse(problems);
  }
  return {
    freezeId,
    pools: kept.map((pool) => ({ ...pool, question_marks: pool.question_ids.map((id) => frozen.get(id) ?? 0) })),
    passageIds,
    testUpdatedAt: content.updated_at,
  };
}

/**
 * Archiving also stops the test's attempts in progress (no more answers; a
 * submit still scores them), once the archive has committed. Archiving an
 * archived test again (409) finishes a stop that an outage cut short.
 */
export async function moveTest(principal: Principal, testId: string, move: 'archive' | 'restore'): Promise<Test> {
  const test = await requireTest(principal, testId);
  assertCanAuthorTests(principal, test.client_id);
  const now = new Date().toISOString();
  if (move === 'restore') return authorView(await store.moveTest(test.client_id, testId, move, now));
  // Looked up before the archive is written: a missing hook fails the archive with nothing written.
  const effects = testChangeEffects();
  const stop = () => effects.stopOpenAttempts(test.client_id, { test_id: testId }, 'test_archived', now);
  let archived: StoredTest;
  try {
    archived = await store.moveTest(test.client_id, testId, move, now);
  } catch (err) {
    if (test.status === 'archived') await stop();
    throw err;
  }
  await stop();
  return authorView(archived);
}

export async function deleteTest(principal: Principal, testId: string): Promise<void> {
  const test = await requireTest(principal, testId);
  assertCanAuthorTests(principal, test.client_id);
  await store.deleteTestWithoutAttempts(test.client_id, testId);
}

// ---------------------------------------------------------------- a new version, edited beside the live one

/** The audit record of a pending edit published or discarded, in its transaction. */
const pendingRecorder =
  (principal: Principal, call: CallContext, type: 'test_version_published' | 'test_new_version_discarded') =>
  (tx: Parameters<store.PendingEditRecorder>[0], before: StoredTest, after: StoredTest) =>
    addAudit(tx, requestMeta(call), {
      type,
      userId: principal.uid,
      clientId: after.client_id,
      actorId: principal.uid,
      details:
        type === 'test_version_published'
          ? { test_id: after.id, from_version: before.version, version: after.version }
          : { test_id: after.id, version: before.version, opened_at: before.pending_edit?.opened_at ?? null },
    });

/**
 * Opens the next version of a published test, as a copy of the live content kept beside it: the
 * live version stays what students start and read until the edit is published. 409 on a draft
 * (edited in place), an archived test, or one with an edit already open.
 */
export async function openNewVersion(principal: Principal, testId: string): Promise<Test> {
  const test = await requireTest(principal, testId);
  assertCanAuthorTests(principal, test.client_id);
  const now = new Date().toISOString();
  const next = await store.changePendingEdit(test.client_id, testId, (current) => {
    const refusal = openRefusal(current);
    if (refusal) throw conflict(refusal);
    return { ...current, pending_edit: openPendingEdit(current, principal.uid, now) };
  });
  return authorView(next);
}

/** Replaces the pending edit's content (absent optional fields return to their defaults, as PUT of a draft). */
export async function editNewVersion(principal: Principal, testId: string, input: EditNewVersionInput): Promise<Test> {
  const test = await requireTest(principal, testId);
  assertCanAuthorTests(principal, test.client_id);
  const early = pendingRefusal(test, 'edit');
  if (early) throw conflict(early);
  await checkReferences(test.client_id, input.question_ids, input.folder_id, input.pools);
  const now = new Date().toISOString();
  const next = await store.changePendingEdit(test.client_id, testId, (current) => {
    const refusal = pendingRefusal(current, 'edit');
    if (refusal) throw conflict(refusal);
    return { ...current, pending_edit: { ...current.pending_edit!, ...editableFields(input), updated_at: now } };
  });
  return authorView(next);
}

/** Drops the pending edit; the live version is untouched. */
export async function discardNewVersion(principal: Principal, testId: string, call: CallContext): Promise<void> {
  const test = await requireTest(principal, testId);
  assertCanAuthorTests(principal, test.client_id);
  await store.changePendingEdit(
    test.client_id,
    testId,
    (current) => {
      const refusal = pendingRefusal(current, 'discard');
      if (refusal) throw conflict(refusal);
      return withoutPendingEdit(current);
    },
    pendingRecorder(principal, call, 'test_new_version_discarded'),
  );
}

/**
 * Freezes the pending edit as version n+1 and makes it live at once (one transaction): new starts
 * take it; attempts in progress keep the version they started on.
 */
export async function publishNewVersion(principal: Principal, testId: string, call: CallContext): Promise<Test> {
  const test = await requireTest(principal, testId);
  assertCanAuthorTests(principal, test.client_id);
  const refusal = pendingRefusal(test, 'publish');
  if (refusal) throw conflict(refusal);
  const pending = test.pending_edit!;
  const frozenPools = pending.pools.length > 0 ? await freezeTestPools(test, pending) : undefined;
  try {
    return authorView(
      await store.publishPendingEdit(
        test.client_id,
        testId,
        new Date().toISOString(),
        principal.uid,
        frozenPools,
        pendingRecorder(principal, call, 'test_version_published'),
      ),
    );
  } catch (err) {
    if (frozenPools) await store.deletePoolFreeze(test.client_id, testId, frozenPools.freezeId);
    throw err;
  }
}

/**
 * The version's fixed questions that the bank changed or deleted since it froze them: one read of the
 * version and one round trip for its questions (at most the test's question count).
 */
export async function versionBankChanges(principal: Principal, testId: string, versionNumber: number) {
  const test = await requireTest(principal, testId);
  assertCanAuthorTests(principal, test.client_id);
  assertHasVersion(test, versionNumber);
  const read = await store.readVersionAndBank(test.client_id, testId, versionNumber);
  if (!read) throw notFound(`Version ${versionNumber} of this test is not stored`);
  return {
    test_id: testId,
    version: versionNumber,
    frozen_at: read.version.published_at,
    checked: read.version.questions.length,
    changed: bankChanges(read.version.questions, read.bank),
  };
}

// ---------------------------------------------------------------- share codes

const shareCodeView = (code: StoredShareCode, uses: number): ShareCode => ({
  code: code.code,
  test_id: code.test_id,
  expires_at: code.expires_at,
  max_uses: code.max_uses,
  uses,
  revoked: code.revoked,
  created_at: code.created_at,
  created_by: code.created_by,
});

export async function createShareCode(
  principal: Principal,
  testId: string,
  input: CreateShareCodeInput,
): Promise<ShareCode> {
  const test = await requireTest(principal, testId);
  assertCanManageShareCodes(principal, test.client_id);
  if (test.status !== 'published')
    throw conflict(`Share codes are issued for published tests only; this test is ${test.status}`);
  const code = await store.insertShareCode(test.client_id, testId, {
    expires_at: input.expires_at === undefined ? null : new Date(input.expires_at).toISOString(),
    max_uses: input.max_uses ?? null,
    created_by: principal.uid,
    created_at: new Date().toISOString(),
  });
  return shareCodeView(code, 0);
}

export async function listShareCodes(principal: Principal, testId: string, page: PageRequest) {
  const test = await requireTest(principal, testId);
  assertCanManageShareCodes(principal, test.client_id);
  const { data, pagination } = await store.listShareCodes(test.client_id, testId, page);
  // Who issued each code (an administrator of the organization, or a Super Admin): one batched read beside the uses.
  const [uses, names] = await Promise.all([
    Promise.all(data.map((code) => store.usesOf(code.code))),
    namesOf(
      test.client_id,
      data.map((code) => code.created_by),
      { superAdmins: true },
    ),
  ]);
  return {
    data: data.map((code, i) => ({
      ...shareCodeView(code, uses[i]),
      ...nameFields('created_by', names, code.created_by),
    })),
    pagination,
  };
}

/**
 * 404 for a code that is not this test's. Revoking also stops the attempts in
 * progress started with the code (no more answers; a submit still scores them),
 * once the revocation is written; revoking again (204) finishes a stop that an
 * outage cut short, and changes nothing else.
 */
export async function revokeShareCode(principal: Principal, testId: string, codeText: string): Promise<void> {
  const test = await requireTest(principal, testId);
  assertCanManageShareCodes(principal, test.client_id);
  const canonical = canonicalShareCode(codeText);
  const code = canonical === undefined ? undefined : await store.findShareCode(canonical);
  if (!code || code.test_id !== testId || code.client_id !== test.client_id) throw notFound('Share code not found');
  const now = new Date().toISOString();
  // Looked up before the revocation is written: a missing hook fails it with nothing written.
  const effects = testChangeEffects();
  if (!code.revoked) await store.revokeShareCode(code.code, now);
  await effects.stopOpenAttempts(
    code.client_id,
    { share_code: code.code },
    'share_code_revoked',
    code.revoked_at ?? now,
  );
}
