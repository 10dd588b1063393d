import type { UserRecord } from 'firebase-admin/auth';
import { organizationFromClaims, roleFromClaims } from '../auth';
import { readCsvRecords, type UploadedFile } from '../transfer';
import { badRequest, conflict } from '../shared';
import type { StoredProfile } from './documents';
import { newProfile } from './profiles';
import { accountsOf, provisionAccounts, type AccountToMake } from './provisionAccounts';
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
// made through provisionAccounts (and taken back when what follows fails). The importer writes the profiles.

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
  const found = new Map<string, UserRecord>();
  for (const user of await accountsOf(emails.map((email) => ({ email }))))
    if (user.email) found.set(user.email.toLowerCase(), user);
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

/**
 * The roster's new students' accounts (with the row's password, or none), then `write` (their profiles);
 * any account refused, or the write failing → the accounts made are taken back. An account that another
 * import made meanwhile (same uid or email) refuses the roster as a whole with 409.
 */
export function provisionStudents<T>(clientId: string, created: Member[], write: () => Promise<T>): Promise<T> {
  return provisionAccounts(
    created.map((m) => ({
      uid: m.uid,
      email: m.email,
      displayName: m.display_name,
      ...(m.password !== undefined ? { password: m.password } : {}),
    })),
    { role: 'student', clientId, refused: madeMeanwhile, write },
  );
}

function madeMeanwhile(err: unknown, account: AccountToMake): unknown {
  const code = (err as { code?: string }).code;
  if (code === 'auth/uid-already-exists' || code === 'auth/email-already-exists')
    return conflict(
      `An account for ${account.email} was created while this roster was imported; nothing was imported, send the roster again`,
    );
  return err;
}
