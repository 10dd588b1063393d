import { randomUUID } from 'node:crypto';
import type { StoredAttempt } from '../../functions/src/attempts/documents';
import type { StoredClass } from '../../functions/src/classes/documents';
import type { StoredLtiContext, StoredLtiOutcome, StoredLtiPlatform } from '../../functions/src/lti/documents';
import { toolJwks } from '../../functions/src/lti/toolKeys';
import type { StoredDelivery, StoredEvent } from '../../functions/src/outbox/documents';
import { adminDb } from '../support/admin';
import { validTest, writeQuestion } from '../exams/fixtures';
import { api, freshIp } from '../support/http';
import { startPlatformServices, type PlatformServices } from './platformServices';

// Registrations, launches' traces (outcomes, courses) and outbox records as the
// LTI launch and the outbox write them, for the grades and roster tests.

/** The platform's services, getting the tool's keys as a platform does (here read in this process: toolJwks). */
export function startPlatform(): Promise<PlatformServices & { clientIds: string[] }> {
  const clientIds: string[] = [];
  return startPlatformServices({ toolJwks: toolJwks as () => Promise<any>, clientIds }).then((s) =>
    Object.assign(s, { clientIds }),
  );
}

/** A registration of `services` in the organization (a fresh OAuth client id each time). */
export async function registerPlatform(
  clientId: string,
  services: PlatformServices & { clientIds: string[] },
): Promise<StoredLtiPlatform> {
  const id = randomUUID();
  const now = new Date().toISOString();
  const platform: StoredLtiPlatform = {
    id,
    client_id: clientId,
    issuer: `${services.url}/${id.slice(0, 8)}`,
    platform_client_id: `tool-${randomUUID().slice(0, 12)}`,
    deployment_ids: ['1'],
    auth_login_url: `${services.url}/auth`,
    auth_token_url: services.tokenUrl,
    jwks_url: `${services.url}/jwks`,
    name: 'Test LMS',
    instructors_as_admins: false,
    created_at: now,
    updated_at: now,
  };
  services.clientIds.push(platform.platform_client_id);
  await adminDb.doc(`clients/${clientId}/lti_platforms/${id}`).set(platform);
  return platform;
}

/** What a launch with a line item leaves: where this student's scores at this test go. */
export async function linkOutcome(
  clientId: string,
  testId: string,
  uid: string,
  platform: StoredLtiPlatform,
  lineitem: string,
  userSub = `sub-${randomUUID().slice(0, 8)}`,
): Promise<StoredLtiOutcome> {
  const outcome: StoredLtiOutcome = {
    platform_id: platform.id,
    lineitem,
    user_sub: userSub,
    updated_at: new Date().toISOString(),
  };
  await adminDb.doc(`clients/${clientId}/lti_outcomes/${testId}~${uid}`).set(outcome);
  return outcome;
}

/** The outbox events of a test, oldest first. */
export async function eventsOf(clientId: string, testId: string, type?: StoredEvent['type']): Promise<StoredEvent[]> {
  const snap = await adminDb.collection(`clients/${clientId}/events`).where('test_id', '==', testId).get();
  return snap.docs
    .map((d) => d.data() as StoredEvent)
    .filter((e) => !type || e.type === type)
    .sort((a, b) => a.timestamp.localeCompare(b.timestamp));
}

/** A delivery as the outbox would store it for a planned target. */
export function deliveryFor(
  clientId: string,
  planned: { target: StoredDelivery['target']; payload: string },
  eventType: StoredEvent['type'] = 'attempt.submitted',
): StoredDelivery {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    client_id: clientId,
    event_id: randomUUID(),
    event_type: eventType,
    message_id: `msg_${randomUUID()}`,
    target: planned.target,
    payload: planned.payload,
    status: 'pending',
    tries: 0,
    next_try_at: now,
    last_code: null,
    last_error: null,
    history: [],
    created_at: now,
    updated_at: now,
    expires_at: null as never,
  };
}

/** A submitted attempt written straight to Firestore (no event: the outbox never sees it). */
export async function writeAttempt(
  clientId: string,
  over: Partial<StoredAttempt> & { test_id: string; student_id: string },
): Promise<StoredAttempt> {
  const id = randomUUID();
  const now = new Date().toISOString();
  const attempt = {
    id,
    client_id: clientId,
    version: 1,
    guest: false,
    guest_name: null,
    share_code: null,
    started_by: over.student_id,
    status: 'submitted',
    started_at: now,
    expires_at: now,
    submitted_at: now,
    auto_submitted: false,
    answers: {},
    question_order: [],
    token_hash: 'x',
    score: 3,
    final_score: 3,
    total_marks: 4,
    results: [],
    grading: null,
    revision: 1,
    ...over,
  } as StoredAttempt;
  await adminDb.doc(`clients/${clientId}/attempts/${id}`).set(attempt);
  return attempt;
}

/** An event about attempts, as recordEvent writes it (not written: plan reads only what it names). */
export const eventAbout = (
  clientId: string,
  testId: string,
  attempts: StoredAttempt[],
  type: StoredEvent['type'] = 'attempt.submitted',
): StoredEvent => ({
  id: randomUUID(),
  client_id: clientId,
  type,
  test_id: testId,
  attempts: attempts.map((a) => ({ id: a.id, revision: a.revision ?? 0 })),
  timestamp: new Date().toISOString(),
  expires_at: null as never,
  fanned_out: false,
});

/** A class of the organization, as the classes feature stores it. */
export async function writeClass(clientId: string, memberCount = 0): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  const cls: StoredClass = {
    id,
    client_id: clientId,
    name: `Course ${id.slice(0, 8)}`,
    code: null,
    member_count: memberCount,
    created_at: now,
    updated_at: now,
  };
  await adminDb.doc(`clients/${clientId}/classes/${id}`).set({ ...cls, name_sort: cls.name.toLowerCase() });
  return id;
}

/** A course as its first launch leaves it (the class made then), with extra fields of the sync's own state. */
export async function writeContext(
  clientId: string,
  platform: StoredLtiPlatform,
  classId: string,
  membershipsUrl: string | null,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const key = randomUUID().replace(/-/g, '').slice(0, 40);
  const context: StoredLtiContext = {
    platform_id: platform.id,
    issuer: platform.issuer,
    context_id: `course-${key.slice(0, 6)}`,
    title: 'Biology 101',
    class_id: classId,
    memberships_url: membershipsUrl,
    roster_synced_at: null,
    created_at: new Date().toISOString(),
  };
  await adminDb.doc(`clients/${clientId}/lti_contexts/${key}`).set({ ...context, ...extra });
  return key;
}

/** A published test of the organization, made through the API served at `base`. */
export async function publishedTestOn(
  base: string,
  token: string,
  clientId: string,
): Promise<{ id: string; test_name: string }> {
  const questions = await Promise.all([writeQuestion(clientId), writeQuestion(clientId)]);
  const created = await api('POST', '/api/tests', {
    token,
    ip: freshIp(),
    baseUrl: base,
    body: validTest(
      questions.map((q) => q.id),
      { test_name: `LTI test ${Math.random().toString(36).slice(2, 6)}` },
    ),
  });
  if (created.status !== 201) throw new Error(`creating a test: ${created.text}`);
  const published = await api('POST', `/api/tests/${created.body.id}/publish`, { token, ip: freshIp(), baseUrl: base });
  if (published.status !== 200) throw new Error(`publishing: ${published.text}`);
  return published.body;
}
