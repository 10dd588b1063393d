import type { UserIdentifier, UserRecord } from 'firebase-admin/auth';
import { claimsFor, type Role } from '../auth';
import { auth, db } from '../firestore';
import { errorText, log } from '../platform';
import { profileRef } from './store';

// Every new account of the backend is made here: the Auth account, its role's claims, and then the
// caller's write (the profiles, with whatever goes with them: a class's membership, the audit records,
// an LTI mapping). When that write fails, the accounts made here that have no profile are taken back.
// A user created one at a time, a roster of hundreds, an LTI launch and a course's NRPS roster differ
// only in the options below.

/** Auth's getUsers takes at most this many identifiers per call. */
const LOOKUP_BATCH = 100;

/** Accounts made at once: a roster of 500 new students is 1,000 Auth calls. */
const CREATION_CONCURRENCY = 10;

export interface AccountToMake {
  /** Derived by the caller (a roster's or a platform user's uid), or left to Auth. */
  uid?: string;
  email?: string;
  displayName: string;
  /** Without one, the user signs in after choosing a password (an invitation, a reset) or through LTI. */
  password?: string;
}

export interface Provisioned {
  uid: string;
  /** False: an account with this uid stood already (made by a concurrent launch or roster of the same user). */
  made: boolean;
  /** The email the account was made with: none when it was left off, or when the account was not made here. */
  email: string | undefined;
}

export interface Provisioning<T> {
  role: Role;
  clientId: string | null;
  /** An LTI platform's address: when another account holds it, or Auth refuses it, the account goes without it. */
  emailIfFree?: boolean;
  /** A uid that exists already is the same user's account (LTI, where the uid derives from the user); else a refusal. */
  uidTakenIsSameAccount?: boolean;
  /**
   * The claims granted only after `write`, so the profile and its record exist before any privilege;
   * a refused grant undoes the write and takes the account back. Without it, each account gets its claims at once.
   */
  claimsAfterWrite?: { undo: (written: T) => Promise<void> };
  /** What Auth refusing an account becomes for the caller (a 409 naming the row, say); as it is without. */
  refused?: (err: unknown, account: AccountToMake) => unknown;
  /** The profiles and what goes with them; when it throws, the accounts made here without a profile are taken back. */
  write: (accounts: Provisioned[]) => Promise<T>;
}

/**
 * Makes the accounts (a few at a time), grants their role, then runs the caller's write. Any account
 * refused → the others made here are taken back and nothing is written; the write failing → taken back too.
 * createUser (not the bulk importUsers, which replaces an account with the same uid and accepts an email
 * that is already taken) refuses an existing uid or email: of two runs racing to make one user, one makes it.
 */
export async function provisionAccounts<T>(accounts: AccountToMake[], how: Provisioning<T>): Promise<T> {
  const provisioned = await createAll(accounts, how);
  const made = provisioned.filter((a) => a.made).map((a) => a.uid);
  let written: T;
  try {
    written = await how.write(provisioned);
  } catch (err) {
    await takeBack(how, made);
    throw err;
  }
  if (!how.claimsAfterWrite) return written;
  try {
    for (const uid of made) await auth.setCustomUserClaims(uid, claimsFor(how.role, how.clientId));
  } catch (err) {
    // The undo first: an account whose profile and record stay (the undo failed) stays too, recorded and without a role.
    await how.claimsAfterWrite.undo(written);
    await takeBack(how, made);
    throw err;
  }
  return written;
}

async function createAll<T>(accounts: AccountToMake[], how: Provisioning<T>): Promise<Provisioned[]> {
  const provisioned: Provisioned[] = [];
  let refusal: { err: unknown; account: AccountToMake } | undefined;
  let next = 0;
  const worker = async () => {
    while (next < accounts.length && refusal === undefined) {
      const account = accounts[next++];
      try {
        const made = await createOne(account, how);
        provisioned.push(made);
        if (made.made && !how.claimsAfterWrite)
          await auth.setCustomUserClaims(made.uid, claimsFor(how.role, how.clientId));
      } catch (err) {
        refusal ??= { err, account };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CREATION_CONCURRENCY, accounts.length) }, worker));
  if (refusal === undefined) return provisioned;
  await takeBack(
    how,
    provisioned.filter((a) => a.made).map((a) => a.uid),
  );
  throw how.refused ? how.refused(refusal.err, refusal.account) : refusal.err;
}

const authCode = (err: unknown) => (err as { code?: string }).code;

async function createOne<T>(account: AccountToMake, how: Provisioning<T>): Promise<Provisioned> {
  const { uid, email, displayName, password } = account;
  const request = {
    ...(uid !== undefined ? { uid } : {}),
    displayName,
    ...(password !== undefined ? { password } : {}),
  };
  try {
    let record: UserRecord;
    try {
      record = await auth.createUser({ ...request, ...(email !== undefined ? { email } : {}) });
    } catch (err) {
      const code = authCode(err);
      if (!how.emailIfFree || email === undefined) throw err;
      if (code !== 'auth/email-already-exists' && code !== 'auth/invalid-email') throw err;
      record = await auth.createUser(request);
    }
    return { uid: record.uid, made: true, email: record.email };
  } catch (err) {
    if (how.uidTakenIsSameAccount && uid !== undefined && authCode(err) === 'auth/uid-already-exists')
      return { uid, made: false, email: undefined };
    throw err;
  }
}

/**
 * Takes back accounts made here whose profile is not there: a concurrent run for the same user (same uid)
 * that committed keeps its account. Failures are logged, never thrown.
 */
async function takeBack<T>(how: Provisioning<T>, uids: string[]): Promise<void> {
  if (uids.length === 0) return;
  const left = (remaining: string[], error?: unknown) =>
    log.error('Account creation undone only in part: accounts without a profile left behind', {
      clientId: how.clientId,
      uids: remaining,
      ...(error !== undefined ? { error: errorText(error) } : {}),
    });
  try {
    let orphans = uids;
    try {
      const profiles = await db.getAll(...uids.map((uid) => profileRef(uid, how.role, how.clientId)!));
      orphans = uids.filter((_, i) => !profiles[i].exists);
    } catch {
      // Firestore unreadable: the write did not commit either; take them all back.
    }
    if (orphans.length === 0) return;
    const result = await auth.deleteUsers(orphans);
    if (result.failureCount > 0) left(result.errors.map((e) => orphans[e.index]));
  } catch (err) {
    left(uids, err);
  }
}

/** The existing accounts of these identifiers (emails or uids), looked up 100 at a time. */
export async function accountsOf(identifiers: UserIdentifier[]): Promise<UserRecord[]> {
  const batches: UserIdentifier[][] = [];
  for (let i = 0; i < identifiers.length; i += LOOKUP_BATCH) batches.push(identifiers.slice(i, i + LOOKUP_BATCH));
  const results = await Promise.all(batches.map((batch) => auth.getUsers(batch)));
  return results.flatMap((r) => r.users);
}
