import type { UserRecord } from 'firebase-admin/auth';
import { addUserEventToBatch } from '../audit';
import {
  claimsFor,
  forgetAccount,
  organizationFromClaims,
  type Principal,
  REJECTION_MESSAGES,
  roleFromClaims,
} from '../auth';
import { domainOfEmail, findClient, findDomain } from '../clients';
import { ALREADY_EXISTS, auth, db, hasStatus } from '../firestore';
import { isBackendFault } from '../platform';
import { conflict, forbidden, type RequestOrigin, unauthorized } from '../shared';
import { joinDecision, type JoinDecision } from './joinDecision';
import { newProfile } from './profiles';
import type { JoinResult } from './schemas';
import { profileRef } from './store';

// A first sign-in with a school's Google or Microsoft account: the account was made by Auth's own
// sign-in (Firebase makes it, not provisionAccounts), so this only records it and grants a role. Every
// step is repeatable: the profile and its record are created once (a second create is "done"), the
// claims set again to the same value, so a call that failed half way (Auth down after the profile)
// is finished by the next one, and fifty at once leave one profile and one record.

const authCode = (err: unknown) => (err as { code?: string }).code;

async function accountOfEmail(email: string, caller: string): Promise<UserRecord | undefined> {
  try {
    const record = await auth.getUserByEmail(email);
    return record.uid === caller ? undefined : record;
  } catch (err) {
    if (authCode(err) === 'auth/user-not-found') return undefined;
    throw err;
  }
}

/**
 * The account as Auth has it now. A token of an account since deleted (the empty one a takeover removed) is
 * the 401 every endpoint gives it: the token check usually says so first, this when its cached view of the
 * account is older than the deletion.
 */
async function currentAccount(uid: string): Promise<UserRecord> {
  try {
    return await auth.getUser(uid);
  } catch (err) {
    if (authCode(err) === 'auth/user-not-found') throw unauthorized(REJECTION_MESSAGES.revoked);
    throw err;
  }
}

export async function joinWithSchoolAccount(principal: Principal, origin: RequestOrigin): Promise<JoinResult> {
  const record = await currentAccount(principal.uid);
  const email = record.email ?? null;
  const domain = email ? domainOfEmail(email) : null;
  const [other, binding] = await Promise.all([
    email && record.emailVerified ? accountOfEmail(email, record.uid) : undefined,
    domain ? findDomain(domain) : undefined,
  ]);
  const callerRole = roleFromClaims(record.customClaims);
  const callerClient = organizationFromClaims(record.customClaims);
  const rosterClient = other ? organizationFromClaims(other.customClaims) : null;
  const named = [...new Set([callerClient, rosterClient, binding?.client_id ?? null].filter((c) => c !== null))];
  const clients = await Promise.all(named.map((id) => findClient(id)));
  const active = Object.fromEntries(named.map((id, i) => [id, clients[i]?.active_status === 1]));

  const decision = joinDecision({
    caller: {
      uid: record.uid,
      provider: principal.signInProvider ?? null,
      email,
      emailVerified: record.emailVerified,
      disabled: record.disabled,
      role: callerRole,
      clientId: callerClient,
    },
    roster: other
      ? {
          uid: other.uid,
          role: roleFromClaims(other.customClaims),
          clientId: rosterClient,
          disabled: other.disabled,
        }
      : null,
    domainClient: binding?.client_id ?? null,
    active,
  });
  return carryOut(decision, principal, record, origin);
}

async function carryOut(
  decision: JoinDecision,
  principal: Principal,
  record: UserRecord,
  origin: RequestOrigin,
): Promise<JoinResult> {
  const provider = principal.signInProvider!;
  switch (decision.kind) {
    case 'refuse':
      throw forbidden(decision.message);
    case 'member':
      await recordJoin(principal, origin, decision.uid, decision.clientId, provider, decision.via, undefined);
      return { outcome: 'member', role: decision.role, client_id: decision.clientId, sign_in_again: false };
    case 'join': {
      const profile = newProfile(
        {
          uid: record.uid,
          email: record.email!,
          display_name: record.displayName || record.email!,
          role: 'student',
          client_id: decision.clientId,
        },
        new Date().toISOString(),
      );
      // Records before privileges: the profile and its user_joined record land together, then the claims.
      await recordJoin(principal, origin, record.uid, decision.clientId, provider, 'domain', profile);
      await auth.setCustomUserClaims(record.uid, claimsFor('student', decision.clientId));
      forgetAccount(record.uid);
      return { outcome: 'joined', role: 'student', client_id: decision.clientId, sign_in_again: false };
    }
    case 'link': {
      const identity = record.providerData.find((p) => p.providerId === provider);
      if (!identity) throw forbidden('This sign-in carries no identity of its provider; sign in again');
      // The provider's identity is held by the caller's new, empty account; it must go before the roster's
      // account can take it. Should the link fail after that, the next sign-in makes a new empty account and
      // this runs again.
      await auth.deleteUser(record.uid);
      forgetAccount(record.uid);
      try {
        await auth.updateUser(decision.rosterUid, {
          emailVerified: true,
          providerToLink: {
            providerId: provider,
            uid: identity.uid,
            email: identity.email ?? record.email!,
            displayName: identity.displayName ?? record.displayName ?? undefined,
          },
        });
      } catch (err) {
        // Auth down is a 503; Auth refusing (the profile holds another account of this provider) is the caller's 409.
        if (isBackendFault(err)) throw err;
        throw conflict('Your school profile is already linked to another account of this provider; ask your school');
      }
      await recordJoin(principal, origin, decision.rosterUid, decision.clientId, provider, 'roster', undefined);
      return { outcome: 'linked', role: decision.role, client_id: decision.clientId, sign_in_again: true };
    }
  }
}

/**
 * The user_joined record, once per account and provider (its id says which), with the new profile when there
 * is one: a second run's create fails, and that is the sign the first one did it.
 */
async function recordJoin(
  principal: Principal,
  origin: RequestOrigin,
  uid: string,
  clientId: string,
  provider: string,
  via: 'roster' | 'domain',
  profile: ReturnType<typeof newProfile> | undefined,
): Promise<void> {
  const batch = db.batch();
  if (profile) batch.create(profileRef(uid, 'student', clientId)!, profile);
  addUserEventToBatch(
    batch,
    origin,
    { type: 'user_joined', actor: { ...principal, uid }, userId: uid, clientId, details: { provider, via } },
    `user_joined_${uid}_${provider.replace(/\./g, '_')}`,
  );
  try {
    await batch.commit();
  } catch (err) {
    if (!hasStatus(err, ALREADY_EXISTS)) throw err;
  }
}
