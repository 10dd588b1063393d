import { organizationFromClaims, type Principal, studentAnalyticsScope } from '../auth';
import { findClient } from '../clients';
import { auth } from '../firestore';
import { badRequest, forbidden, isDocumentId, notFound, type PageRequest, percentageOf, round4 } from '../shared';
import type { StudentAnalytics } from './schemas';
import * as store from './studentStore';

// A student's analytics in one organization. The figures are index
// aggregations and the rows one page, read side by side (one round trip), so
// the cost does not grow with the student's attempts. Which organization:
// - a Student: its own (only itself, policy.ts);
// - a Client Admin: its own. A uid with neither a profile nor an attempt there
//   is looked up in Auth: another organization's user → 403, no user or an
//   account of no organization → 404 (a Guest who took the organization's
//   tests has attempts there);
// - a Super Admin: the client_id it names, else the one in the student's
//   claims; an account with none (a Guest) needs client_id (400).
// Auth failing propagates, and is answered 503 (platform/backendFaults.ts).

const authCode = (err: unknown) => (err as { code?: string }).code;

/** The account's organization: undefined when there is no such user, null when it has none (a Guest, a Super Admin, no role). */
async function accountOrganization(uid: string): Promise<string | null | undefined> {
  try {
    return organizationFromClaims((await auth.getUser(uid)).customClaims);
  } catch (err) {
    if (authCode(err) === 'auth/user-not-found') return undefined;
    throw err;
  }
}

const noSuchStudent = () => notFound('Student not found');

interface Target {
  clientId: string;
  /** The student is not yet known to exist there (no account read so far). */
  checkExists: boolean;
  /** The organization was named by a Super Admin, so it may not exist. */
  named: boolean;
}

/** The organization whose attempts are read. */
async function requireTarget(
  principal: Principal,
  studentId: string,
  requestedClientId: string | undefined,
): Promise<Target> {
  const scoped = studentAnalyticsScope(principal, studentId, requestedClientId);
  if (principal.role === 'student') return { clientId: scoped!, checkExists: false, named: false };
  if (scoped !== undefined) {
    const named = principal.role === 'super_admin';
    if (named && !isDocumentId(scoped)) throw notFound('Client not found'); // names no document: nothing to read
    return { clientId: scoped, checkExists: true, named };
  }
  // A Super Admin naming none: the student's account says which.
  const organization = await accountOrganization(studentId);
  if (organization === undefined) throw noSuchStudent();
  if (organization === null) {
    throw badRequest('This account belongs to no organization: name one with client_id', [
      { path: 'query.client_id', message: 'Required for an account without an organization' },
    ]);
  }
  return { clientId: organization, checkExists: false, named: false };
}

const toRow = (a: store.SubmittedAttempt): StudentAnalytics['data'][number] => ({
  attempt_id: a.id,
  test_id: a.test_id,
  test_name: a.test_name,
  version: a.version,
  score: a.score ?? 0,
  total_marks: a.total_marks,
  // Not final while an essay waits for its grade: no percentage to compare.
  percentage: a.grading === 'pending' ? null : (a.percentage ?? percentageOf(a.score ?? 0, a.total_marks)),
  submitted_at: a.submitted_at ?? '',
  auto_submitted: a.auto_submitted === true,
  grading: a.grading ?? null,
  pending_marks: a.pending_marks ?? 0,
});

const rounded = (value: number | null): number | null => (value === null ? null : round4(value));

export async function studentAnalytics(
  principal: Principal,
  studentId: string,
  clientId: string | undefined,
  page: PageRequest,
): Promise<StudentAnalytics> {
  const target = await requireTarget(principal, studentId, clientId);
  const [client, profile, figures, rows] = await Promise.all([
    target.named ? findClient(target.clientId) : Promise.resolve(true),
    target.checkExists ? store.hasProfile(target.clientId, studentId) : Promise.resolve(true),
    store.studentFigures(target.clientId, studentId),
    store.studentAttemptsPage(target.clientId, studentId, page),
  ]);
  if (!client) throw notFound('Client not found');
  if (!profile && figures.total === 0) {
    // Neither a member nor a taker here: tell "another organization's" (403) from "no such user" (404).
    const organization = await accountOrganization(studentId);
    if (organization === undefined) throw noSuchStudent();
    if (principal.role !== 'super_admin') {
      // An account of no organization (a Super Admin, a Guest who never took its tests) is no student of
      // this one, and whether it exists is not this organization's business: the same 404 as an unknown uid.
      if (organization === null) throw noSuchStudent();
      if (organization !== target.clientId) throw forbidden('This student belongs to another organization');
    }
  }
  return {
    student_id: studentId,
    client_id: target.clientId,
    total_attempts: figures.total,
    completed: figures.completed,
    pending_grading: figures.pending,
    average_score: rounded(figures.averageScore),
    average_percentage: rounded(figures.averagePercentage),
    best_percentage: rounded(figures.bestPercentage),
    data: rows.attempts.map(toRow),
    pagination: rows.pagination,
  };
}
