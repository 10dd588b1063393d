import type { UserRecord } from 'firebase-admin/auth';
import { claimsFor, organizationFromClaims, roleFromClaims } from '../auth/claims';
import { auth, db } from '../firestore/db';
import { paths } from '../firestore/paths';
import { readCsvRecords } from '../http/csvUpload';
import type { UploadedFile } from '../http/upload';
import { errorText, log } from '../platform/log';
import { badRequest, conflict } from '../shared/errors';
import type { StoredProfile } from './documents';
import { newProfile } from './profiles';
import {
  markDuplicates,
  parseRosterHeader,
  rosterRow,
  rosterUid,
  type OptionalColumn,
  type RosterHeader,
  type RosterReportRow,
  type RosterRow,
} from './rosterRows';

// A roster's students as Auth knows them, for the two imports that read rosters (a class's and the
// organization's): the file read into rows, every email looked up, the missing students' accounts
// made (and taken back when what follows fails). The importer writes the profiles.

/** Auth's getUsers takes at most this many identifiers per call. */
const LOOKUP_BATCH = 100;

/** Neutral on purpose: which organization the account belongs to, or whether it is an admin, is not the caller's to learn. */
export const NOT_A_STUDENT_HERE = 'cannot be added: the account is not a student of this organization';
export const NAME_REQUIRED = 'name is required to create a new student account';

/** The rows as the file has them: the header checked, each row checked on its own, repeated emails marked. */
export async function readRosterFile(
  file: UploadedFile,
  maxRows: number,
  optional: readonly OptionalColumn[] = [],
): Promise<RosterRow[]> {
  let columns: RosterHeader | undefined;
  const rows: RosterRow[] = [];
  await readCsvRecords(
    file,
    maxRows,
    (record) => {
      if (!columns) {
        const header = parseRosterHeader(record.cells, optional);
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
export async function findAccounts(emails: string[]): Promise<Map<string, UserRecord>> {
  const batches: string[][] = [];
  for (let i = 0; i < emails.length; i += LOOKUP_BATCH) batches.push(emails.slice(i, i + LOOKUP_BATCH));
  const results = await Promise.all(batches.map((batch) => auth.getUsers(batch.map((email) => ({ email })))));
  const found = new Map<string, UserRecord>();
  for (const result of results)
    for (const user of result.users) if (user.email) found.set(user.email.toLowerCase(), user);
  return found;
}

export interface Member {
  uid: string;
  email: string;
  display_name: string;
  /** The profile written when the student has none: a new account's, or one an import cut short left without it. */
  newProfile: StoredProfile;
  /** Whether its Auth account is made by this import (and taken back if what follows fails). */
  createAccount: boolean;
  /** The new account's password, when the row set one; without one the student signs in after a password reset. */
  password?: string;
}

export type Plan = { member: Member } | { error: string };

/** What a valid row becomes: an existing student of this organization, a new one, or an error. */
export function planRow(
  row: RosterRow & { ok: true },
  account: UserRecord | undefined,
  clientId: string,
  now: string,
): Plan {
  if (account) {
    const claims = account.customClaims;
    // An account with this organization's roster uid and no role yet is one a concurrent roster of this
    // organization has just made and is about to give its claims: the same student.
    const beingMade = account.uid === rosterUid(clientId, row.email) && roleFromClaims(claims) === null;
    if (!beingMade && (roleFromClaims(claims) !== 'student' || organizationFromClaims(claims) !== clientId))
      return { error: NOT_A_STUDENT_HERE };
    const displayName = account.displayName ?? row.name ?? row.email;
    // Used only if the student has no profile: an import that stopped between making the account and
    // writing its profile left the account without one; this roster, sent again, completes it.
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
  return {
    member: {
      uid,
      email: row.email,
      display_name: row.name,
      newProfile: profile,
      createAccount: true,
      ...(row.password !== undefined ? { password: row.password } : {}),
    },
  };
}

/** 400 for the roster as a whole, carrying the rows that cannot be imported (a roster is at most a few hundred rows). */
export function refusedRoster(message: string, report: RosterReportRow[]) {
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
 * Creates the accounts (with the row's password, or none), a few at a time; any refused → the others are
 * taken back. createUser (not the bulk importUsers, which replaces an account with the same uid and accepts
 * an email that is already taken) refuses an existing uid or email: of two imports racing to make one
 * student, one makes it and the other answers 409.
 */
export async function createAccounts(clientId: string, members: Member[]): Promise<void> {
  const made: Member[] = [];
  let refusal: unknown;
  let next = 0;
  const worker = async () => {
    while (next < members.length && refusal === undefined) {
      const member = members[next++];
      try {
        await auth.createUser({
          uid: member.uid,
          email: member.email,
          displayName: member.display_name,
          ...(member.password !== undefined ? { password: member.password } : {}),
        });
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
export async function removeAccounts(clientId: string, members: Member[]): Promise<void> {
  if (members.length === 0) return;
  try {
    let uids = members.map((m) => m.uid);
    try {
      const profiles = await db.getAll(...uids.map((uid) => paths.clientUser(clientId, uid)));
      uids = uids.filter((_, i) => !profiles[i].exists);
    } catch {
      // Firestore unreadable: the write did not commit either; take them all back.
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
