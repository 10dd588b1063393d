import type { UserRecord } from 'firebase-admin/auth';
import { requestMeta } from '../audit/service';
import { claimsFor, organizationFromClaims, roleFromClaims } from '../auth/claims';
import { assertCanManageClass } from '../auth/policy';
import type { Principal } from '../auth/principal';
import { auth, db } from '../firestore/db';
import { paths } from '../firestore/paths';
import { ALREADY_EXISTS, hasStatus, NOT_FOUND } from '../firestore/statusCodes';
import { readCsvRecords } from '../http/csvUpload';
import { readUpload, type UploadedFile } from '../http/upload';
import { errorText, log } from '../platform/log';
import type { RequestOrigin, UploadBody } from '../shared/callContext';
import { badRequest, conflict, notFound } from '../shared/errors';
import type { StoredProfile } from '../users/documents';
import { newProfile } from '../users/profiles';
import {
  markDuplicates,
  parseRosterHeader,
  rosterCounts,
  rosterReport,
  rosterRow,
  rosterUid,
  type RosterHeader,
  type RosterReportRow,
  type RosterRow,
  type RowOutcome,
} from './rosterRows';
import { MAX_ROSTER_BYTES, MAX_ROSTER_ROWS, type RosterOptions, type RosterResult } from './rosterSchemas';
import { addMembers, findClass, findClassOwner } from './store';

// A roster file: every email looked up in Auth, the missing students created
// (Auth accounts in one bulk call, their profiles in the class's membership
// transaction), everyone added to the class. Either it all lands or nothing
// does: the accounts are taken back when the transaction fails.

/** Auth's getUsers takes at most this many identifiers per call. */
const LOOKUP_BATCH = 100;

/** Neutral on purpose: which organization the account belongs to, or whether it is an admin, is not the caller's to learn. */
export const NOT_A_STUDENT_HERE = 'cannot be added: the account is not a student of this organization';
export const NAME_REQUIRED = 'name is required to create a new student account';

/** The class's organization, once the caller may manage the class: 404 when there is none, 403 when it is another organization's. */
async function requireClass(principal: Principal, classId: string): Promise<string> {
  if (principal.role !== 'super_admin' && principal.clientId && (await findClass(principal.clientId, classId))) {
    assertCanManageClass(principal, { clientId: principal.clientId, classId });
    return principal.clientId;
  }
  const owner = await findClassOwner(classId);
  if (!owner) throw notFound('Class not found');
  assertCanManageClass(principal, { clientId: owner, classId });
  return owner;
}

/** The rows as the file has them: the header checked, each row checked on its own, repeated emails marked. */
async function readRosterFile(file: UploadedFile): Promise<RosterRow[]> {
  let columns: RosterHeader | undefined;
  const rows: RosterRow[] = [];
  await readCsvRecords(
    file,
    MAX_ROSTER_ROWS,
    (record) => {
      if (!columns) {
        const header = parseRosterHeader(record.cells);
        if ('error' in header) throw badRequest(header.error, [{ path: 'row 1', message: header.error }]);
        columns = header.columns;
        return;
      }
      rows.push(rosterRow(record.line, columns, record.cells));
    },
    { one: 'student', many: 'students' },
  );
  return markDuplicates(rows);
}

/** The existing accounts of these emails, by email (lower case). */
async function findAccounts(emails: string[]): Promise<Map<string, UserRecord>> {
  const batches: string[][] = [];
  for (let i = 0; i < emails.length; i += LOOKUP_BATCH) batches.push(emails.slice(i, i + LOOKUP_BATCH));
  const results = await Promise.all(batches.map((batch) => auth.getUsers(batch.map((email) => ({ email })))));
  const found = new Map<string, UserRecord>();
  for (const result of results)
    for (const user of result.users) if (user.email) found.set(user.email.toLowerCase(), user);
  return found;
}

interface Member {
  uid: string;
  email: string;
  display_name: string;
  /** The profile written when the student has none: a new account's, or one an import cut short left without it. */
  newProfile?: StoredProfile;
  /** Whether its Auth account is made by this import (and taken back if the membership fails). */
  createAccount: boolean;
}

type Plan = { member: Member } | { error: string };

/** What a valid row becomes: an existing student of this organization, a new one, or an error. */
function planRow(row: RosterRow & { ok: true }, account: UserRecord | undefined, clientId: string, now: string): Plan {
  if (account) {
    const claims = account.customClaims;
    // An account with this organization's roster uid and no role yet is one a concurrent roster of this
    // organization has just made and is about to give its claims: the same student.
    const beingMade = account.uid === rosterUid(clientId, row.email) && roleFromClaims(claims) === null;
    if (!beingMade && (roleFromClaims(claims) !== 'student' || organizationFromClaims(claims) !== clientId))
      return { error: NOT_A_STUDENT_HERE };
    const displayName = account.displayName ?? row.name ?? row.email;
    // Used only if the student has no profile: an import that stopped between making the account and
    // its membership transaction left the account without one; this roster, sent again, completes it.
    const profile = newProfile(
      {
        uid: account.uid,
        email: account.email ?? row.email,
        display_name: displayName,
        role: 'student',
        client_id: clientId,
      },
      now,
    );
    return {
      member: {
        uid: account.uid,
        email: row.email,
        display_name: displayName,
        newProfile: profile,
        createAccount: false,
      },
    };
  }
  if (row.name === null) return { error: NAME_REQUIRED };
  const uid = rosterUid(clientId, row.email);
  const profile = newProfile(
    { uid, email: row.email, display_name: row.name, role: 'student', client_id: clientId },
    now,
  );
  return { member: { uid, email: row.email, display_name: row.name, newProfile: profile, createAccount: true } };
}

/** 400 for the roster as a whole, carrying the rows that cannot be imported (a roster is at most MAX_ROSTER_ROWS rows). */
function refusedRoster(message: string, report: RosterReportRow[]) {
  const problems = report.filter((r) => r.status === 'error');
  return badRequest(
    message,
    problems.map((r) => ({ path: `row ${r.line}.email`, message: r.message ?? '' })),
    { rows: problems },
  );
}

/** Accounts made at once: a roster of 500 new students is 1,000 Auth calls. */
const ACCOUNT_CREATION_CONCURRENCY = 10;

/**
 * Creates the accounts, without a password, a few at a time; any refused → the others are taken back.
 * createUser (not the bulk importUsers, which replaces an account with the same uid and accepts an email
 * that is already taken) refuses an existing uid or email: of two imports racing to make one student, one
 * makes it and the other answers 409.
 */
async function createAccounts(clientId: string, members: Member[]): Promise<void> {
  const made: Member[] = [];
  let refusal: unknown;
  let next = 0;
  const worker = async () => {
    while (next < members.length && refusal === undefined) {
      const member = members[next++];
      try {
        await auth.createUser({ uid: member.uid, email: member.email, displayName: member.display_name });
        made.push(member);
        await auth.setCustomUserClaims(member.uid, claimsFor('student', clientId));
      } catch (err) {
        refusal ??= { err, member };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(ACCOUNT_CREATION_CONCURRENCY, members.length) }, worker));
  if (refusal === undefined) return;
  await removeAccounts(clientId, made);
  const { err, member } = refusal as { err: { code?: string }; member: Member };
  if (err.code === 'auth/uid-already-exists' || err.code === 'auth/email-already-exists')
    throw conflict(
      `An account for ${member.email} was created while this roster was imported; nothing was imported, send the roster again`,
    );
  throw err;
}

/**
 * Takes back accounts this import created whose profile is not there: a concurrent import of
 * the same email (same uid) that committed keeps its account. Failures are logged, never thrown.
 */
async function removeAccounts(clientId: string, members: Member[]): Promise<void> {
  if (members.length === 0) return;
  try {
    let uids = members.map((m) => m.uid);
    try {
      const profiles = await db.getAll(...uids.map((uid) => paths.clientUser(clientId, uid)));
      uids = uids.filter((_, i) => !profiles[i].exists);
    } catch {
      // Firestore unreadable: the transaction did not commit either; take them all back.
    }
    if (uids.length > 0) {
      const result = await auth.deleteUsers(uids);
      if (result.failureCount > 0)
        log.error('Roster import undone only in part: accounts without a profile left behind', {
          clientId,
          uids: result.errors.map((e) => uids[e.index]),
        });
    }
  } catch (err) {
    log.error('Roster import undone only in part: accounts without a profile left behind', {
      clientId,
      uids: members.map((m) => m.uid),
      error: errorText(err),
    });
  }
}

export async function importRoster(
  principal: Principal,
  classId: string,
  options: RosterOptions,
  upload: UploadBody,
  origin: RequestOrigin,
): Promise<RosterResult> {
  const clientId = await requireClass(principal, classId);
  const rows = (await readUpload(upload, MAX_ROSTER_BYTES, readRosterFile)).result;

  const valid = rows.filter((r): r is RosterRow & { ok: true } => r.ok);
  const accounts = await findAccounts(valid.map((r) => r.email));
  const now = new Date().toISOString();
  const plans = new Map<number, Plan>(valid.map((r) => [r.line, planRow(r, accounts.get(r.email), clientId, now)]));
  const members = [...plans.values()].flatMap((p) => ('member' in p ? [p.member] : []));

  const planned = rosterReport(rows, (row): RowOutcome => {
    const plan = plans.get(row.line)!;
    return 'error' in plan ? { status: 'error', message: plan.error } : { status: 'added', uid: plan.member.uid };
  });
  const failed = planned.filter((r) => r.status === 'error').length;
  if (failed > 0 && options.mode === 'all_or_nothing')
    throw refusedRoster(
      `${failed} of ${rows.length} rows cannot be imported; nothing was imported (send ?mode=partial to import the others)`,
      planned,
    );
  if (members.length === 0)
    throw refusedRoster(`None of the ${rows.length} rows can be imported; nothing was imported`, planned);

  const created = members.filter((m) => m.createAccount);
  const meta = requestMeta(origin);
  let outcome: { added: string[]; alreadyMembers: string[] };
  if (options.dry_run) {
    outcome = await addMembers(clientId, classId, members, meta, { dryRun: true, actorId: principal.uid });
  } else {
    if (created.length > 0) await createAccounts(clientId, created);
    try {
      outcome = await addMembers(clientId, classId, members, meta, { actorId: principal.uid });
    } catch (err) {
      await removeAccounts(clientId, created);
      // A concurrent import created one of these students first, or has not finished creating one.
      if (hasStatus(err, ALREADY_EXISTS, NOT_FOUND))
        throw conflict(
          'The class or one of its students changed during the import; nothing was imported, send the roster again',
        );
      throw err;
    }
  }

  const createdUids = new Set(created.map((m) => m.uid));
  const already = new Set(outcome.alreadyMembers);
  const report = rosterReport(rows, (row): RowOutcome => {
    const plan = plans.get(row.line)!;
    if ('error' in plan) return { status: 'error', message: plan.error };
    const { uid } = plan.member;
    return { status: already.has(uid) ? 'already_member' : createdUids.has(uid) ? 'created' : 'added', uid };
  });
  return { class_id: classId, dry_run: options.dry_run, mode: options.mode, ...rosterCounts(report), rows: report };
}
