import { randomUUID } from 'node:crypto';
import type { UserRecord } from 'firebase-admin/auth';
import type { DocumentSnapshot, WriteBatch } from 'firebase-admin/firestore';
import { addAudit, addUserEventToBatch, requestMeta } from '../audit';
import type { Principal } from '../auth';
import { DEFAULT_INVITATION_DAYS, findClient } from '../clients';
import { ALREADY_EXISTS, auth, db, FAILED_PRECONDITION, hasStatus, NOT_FOUND, paths } from '../firestore';
import { errorText, log } from '../platform';
import { ApiError, type CallContext, conflict, notFound, type RequestOrigin } from '../shared';
import { canSignIn, expiryOf, invitationState, type Refusal, REDEEM_HOLD_MS, redeemRefusal } from './decisions';
import type { StoredInvitation, StoredInvitationHolder } from './documents';
import {
  type InvitationBatch,
  type IssuedInvitation,
  MAX_INVITATIONS_PER_CALL,
  type SkippedInvitation,
} from './schemas';
import { digestOf, hasSecretShape, invitationUrl, newSecret } from './tokens';

// Invitation links of our own: Firebase's reset links last an hour, a school needs days. Issuing
// writes the invitation (by the digest of its secret), the user's holder (its one live link) and
// the audit record in one batch, revoking the link the holder named. Redeeming holds the link in a
// transaction (one redemption of many at once wins), sets the password in Auth, then marks it used:
// a failure between gives the hold back, so the link stays good and a retry is safe.

/** Firestore's answers when a conditional write finds the document changed or taken. */
const CONCURRENT_CHANGE = [NOT_FOUND, ALREADY_EXISTS, FAILED_PRECONDITION];
const AUTH_LOOKUP_BATCH = 100;

/** Auth's records of these uids, 100 a call (Auth's bound for getUsers). */
async function accountRecords(uids: readonly string[]): Promise<Map<string, UserRecord>> {
  const records = new Map<string, UserRecord>();
  const unique = [...new Set(uids)];
  const chunks = [];
  for (let i = 0; i < unique.length; i += AUTH_LOOKUP_BATCH) chunks.push(unique.slice(i, i + AUTH_LOOKUP_BATCH));
  const answers = await Promise.all(chunks.map((chunk) => auth.getUsers(chunk.map((uid) => ({ uid })))));
  for (const answer of answers) for (const user of answer.users) records.set(user.uid, user);
  return records;
}

/** Whether each account can sign in (unknown uids are left out): one Auth call per 100. */
export async function signInStates(uids: readonly string[]): Promise<Map<string, boolean>> {
  const records = await accountRecords(uids);
  return new Map([...records].map(([uid, record]) => [uid, canSignIn(record)]));
}

/** Who gets a link: what its rows and the invitation carry. */
export interface InvitationTarget {
  uid: string;
  email: string;
  display_name: string | null;
  client_id: string | null;
}

async function invitationDays(clientId: string | null): Promise<number> {
  if (!clientId) return DEFAULT_INVITATION_DAYS;
  return (await findClient(clientId))?.invitation_days ?? DEFAULT_INVITATION_DAYS;
}

/**
 * A new link for each target, revoking its previous one, audited as invitation_issued; one batch
 * per call (at most MAX_INVITATIONS_PER_CALL targets). A concurrent issue or redemption for one of
 * them fails the whole batch (409), nothing written.
 */
export async function issueInvitations(
  actor: Principal,
  targets: readonly InvitationTarget[],
  origin: RequestOrigin,
  baseUrl: string,
): Promise<IssuedInvitation[]> {
  if (targets.length === 0) return [];
  if (targets.length > MAX_INVITATIONS_PER_CALL) throw new Error('Too many invitations for one batch');
  const now = new Date();
  const days = new Map<string | null, number>();
  for (const clientId of new Set(targets.map((t) => t.client_id))) days.set(clientId, await invitationDays(clientId));
  const holders = await db.getAll(...targets.map((t) => paths.invitationHolder(t.uid)));
  const previous = new Map<string, DocumentSnapshot>();
  const held = holders.filter((h) => h.exists).map((h) => (h.data() as StoredInvitationHolder).digest);
  if (held.length > 0)
    for (const snap of await db.getAll(...held.map((d) => paths.invitation(d)))) previous.set(snap.id, snap);

  const batch = db.batch();
  const rows = targets.map((target, i): IssuedInvitation => {
    const secret = newSecret();
    const digest = digestOf(secret);
    const expiresAt = expiryOf(now, days.get(target.client_id)!);
    const invitation: StoredInvitation = {
      uid: target.uid,
      client_id: target.client_id ?? '',
      email: target.email,
      display_name: target.display_name,
      status: 'live',
      issued_at: now.toISOString(),
      issued_by: actor.uid,
      expires_at: expiresAt,
    };
    batch.create(paths.invitation(digest), invitation);
    const holder = holders[i];
    const next: StoredInvitationHolder = { digest, client_id: target.client_id ?? '', expires_at: expiresAt };
    let revoked = false;
    if (holder.exists) {
      batch.update(holder.ref, { ...next }, { lastUpdateTime: holder.updateTime! });
      const old = previous.get((holder.data() as StoredInvitationHolder).digest);
      if (old?.exists && ['live', 'redeeming'].includes(old.get('status') as string)) {
        batch.update(
          old.ref,
          { status: 'revoked', revoked_at: now.toISOString() },
          { lastUpdateTime: old.updateTime! },
        );
        revoked = true;
      }
    } else batch.create(holder.ref, next);
    addUserEventToBatch(batch, origin, {
      type: 'invitation_issued',
      actor,
      userId: target.uid,
      clientId: target.client_id,
      details: { expires_at: expiresAt, previous_revoked: revoked },
    });
    return {
      uid: target.uid,
      name: target.display_name,
      email: target.email,
      link: invitationUrl(baseUrl, secret),
      expires_at: expiresAt,
    };
  });
  await commitOrConflict(
    batch,
    'An invitation of one of these users changed at the same moment; send the request again',
  );
  return rows;
}

async function commitOrConflict(batch: WriteBatch, message: string): Promise<void> {
  try {
    await batch.commit();
  } catch (err) {
    if (hasStatus(err, ...CONCURRENT_CHANGE)) throw conflict(message);
    throw err;
  }
}

/**
 * Links for the students among `uids` of one organization: a uid that is no student of it is 404
 * (another organization's too, so nothing is said of it). Disabled accounts, accounts without an
 * email and (with onlyCannotSignIn) accounts that can sign in get no link and are listed in skipped.
 */
export async function inviteStudents(
  actor: Principal,
  clientId: string,
  uids: readonly string[],
  options: { onlyCannotSignIn: boolean; strict: boolean },
  origin: RequestOrigin,
  baseUrl: string,
): Promise<InvitationBatch> {
  const unique = [...new Set(uids)];
  const [profiles, records] = await Promise.all([
    unique.length > 0 ? db.getAll(...unique.map((uid) => paths.clientUser(clientId, uid))) : Promise.resolve([]),
    accountRecords(unique),
  ]);
  const missing = unique.filter(
    (uid, i) => !profiles[i].exists || profiles[i].get('role') !== 'student' || !records.has(uid),
  );
  if (missing.length > 0 && options.strict)
    throw new ApiError(
      'NOT_FOUND',
      `${missing.length} of these users are no students of this organization; no link was made`,
      missing.map((uid) => ({ path: 'body.uids', message: 'No student of this organization', uid })),
    );
  const skipped: SkippedInvitation[] = [];
  const targets: InvitationTarget[] = [];
  unique.forEach((uid, i) => {
    if (missing.includes(uid)) return;
    const record = records.get(uid)!;
    if (record.disabled) return void skipped.push({ uid, reason: 'disabled' });
    if (!record.email) return void skipped.push({ uid, reason: 'no_email' });
    if (options.onlyCannotSignIn && canSignIn(record)) return void skipped.push({ uid, reason: 'can_sign_in' });
    const name = (profiles[i].get('display_name') as string | null | undefined) ?? record.displayName ?? null;
    targets.push({ uid, email: record.email, display_name: name, client_id: clientId });
  });
  const rows: IssuedInvitation[] = [];
  // A class of several hundred: a batch per hundred, each whole (a failure leaves the earlier ones issued).
  for (let i = 0; i < targets.length; i += MAX_INVITATIONS_PER_CALL)
    rows.push(...(await issueInvitations(actor, targets.slice(i, i + MAX_INVITATIONS_PER_CALL), origin, baseUrl)));
  rows.sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0));
  return { client_id: clientId, rows, skipped };
}

/** Revokes the user's live link (404 when it has none), audited as invitation_revoked. */
export async function revokeInvitation(actor: Principal, uid: string, clientId: string | null, origin: RequestOrigin) {
  const holderRef = paths.invitationHolder(uid);
  await db.runTransaction(async (tx) => {
    const holder = await tx.get(holderRef);
    if (!holder.exists) throw notFound('This user has no live invitation');
    const ref = paths.invitation((holder.data() as StoredInvitationHolder).digest);
    const inv = await tx.get(ref);
    const now = new Date();
    const state = inv.exists ? invitationState(inv.data() as StoredInvitation, now) : 'revoked';
    tx.delete(holderRef);
    if (state !== 'live' && state !== 'redeeming') throw notFound('This user has no live invitation');
    tx.update(ref, { status: 'revoked', revoked_at: now.toISOString() });
    addAudit(tx, requestMeta(origin), {
      type: 'invitation_revoked',
      userId: uid,
      clientId,
      actorId: actor.uid,
      details: { expires_at: inv.get('expires_at') as string },
    });
  });
}

// ---------------------------------------------------------------- redeeming (public)

const REFUSALS: Record<Refusal, { code: 'CONFLICT' | 'FORBIDDEN'; message: (inv: StoredInvitation) => string }> = {
  expired: {
    code: 'CONFLICT',
    message: (inv) => `This invitation link expired on ${inv.expires_at.slice(0, 10)}: ask your school for a new one`,
  },
  used: {
    code: 'CONFLICT',
    message: () =>
      'This invitation link has already been used: sign in with your email and password, or ask your school for a new link',
  },
  revoked: { code: 'CONFLICT', message: () => 'This invitation link was withdrawn: ask your school for a new one' },
  redeeming: {
    code: 'CONFLICT',
    message: () => 'This invitation link is being used right now; try again in a few seconds',
  },
  account_disabled: { code: 'FORBIDDEN', message: () => 'This account is deactivated: ask your school' },
  organization_inactive: {
    code: 'FORBIDDEN',
    message: () => 'Your organization’s account is deactivated: ask your school',
  },
};

const refused = (reason: Refusal, inv: StoredInvitation) =>
  new ApiError(REFUSALS[reason].code, REFUSALS[reason].message(inv), [{ path: 'body.token', message: reason, reason }]);

const UNKNOWN = 'This invitation link is not valid: check it was copied whole, or ask your school for a new one';

/** The invitation the secret names; an unknown one is a refused credential, counted toward the lock-out. */
async function findInvitation(token: string, call: CallContext) {
  const digest = hasSecretShape(token) ? digestOf(token) : null;
  const snap = digest ? await paths.invitation(digest).get() : null;
  if (!snap?.exists) {
    try {
      await call.countRefusedCredential();
    } catch (err) {
      if (err instanceof ApiError) throw err;
      log.error('Counting a refused invitation link failed; the refusal stands', { error: errorText(err) });
    }
    throw new ApiError('NOT_FOUND', UNKNOWN, [{ path: 'body.token', message: 'unknown', reason: 'unknown' }]);
  }
  return { digest: digest!, inv: snap.data() as StoredInvitation };
}

async function accountFacts(inv: StoredInvitation) {
  const [record, client] = await Promise.all([
    auth.getUser(inv.uid).catch((err: unknown) => {
      if ((err as { code?: string }).code === 'auth/user-not-found') return undefined;
      throw err;
    }),
    inv.client_id ? findClient(inv.client_id) : Promise.resolve(undefined),
  ]);
  return {
    account: { exists: record !== undefined, disabled: record?.disabled ?? true },
    organizationActive: !inv.client_id || client?.active_status === 1,
  };
}

/** Whose invitation this is and until when, before a password is chosen; its refusal otherwise. */
export async function previewInvitation(token: string, call: CallContext) {
  const { inv } = await findInvitation(token, call);
  const facts = await accountFacts(inv);
  const state = invitationState(inv, new Date());
  const refusal = redeemRefusal(state === 'redeeming' ? 'live' : state, facts.account, facts.organizationActive);
  if (refusal) throw refused(refusal, inv);
  return { email: inv.email, display_name: inv.display_name, expires_at: inv.expires_at };
}

/** Sets the account's password and uses the link up, once: see the module comment for the order. */
export async function redeemInvitation(token: string, password: string, call: CallContext) {
  const { digest, inv } = await findInvitation(token, call);
  const facts = await accountFacts(inv);
  const ref = paths.invitation(digest);
  const holdId = randomUUID();
  await db.runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    const current = snap.data() as StoredInvitation;
    const now = new Date();
    const refusal = redeemRefusal(invitationState(current, now), facts.account, facts.organizationActive);
    if (refusal) throw refused(refusal, current);
    tx.update(ref, {
      status: 'redeeming',
      hold_id: holdId,
      held_until: new Date(now.getTime() + REDEEM_HOLD_MS).toISOString(),
    });
  });
  try {
    await auth.updateUser(inv.uid, { password });
    await db.runTransaction(async (tx) => {
      const snap = await tx.get(ref);
      const holderRef = paths.invitationHolder(inv.uid);
      const holder = await tx.get(holderRef);
      // Our hold lapsed and another redemption took the link: that one finishes it.
      if (snap.get('hold_id') !== holdId) throw conflict(REFUSALS.redeeming.message(inv));
      tx.update(ref, { status: 'used', used_at: new Date().toISOString(), hold_id: null, held_until: null });
      if (holder.exists && holder.get('digest') === digest) tx.delete(holderRef);
      addAudit(tx, requestMeta(call), {
        type: 'invitation_redeemed',
        userId: inv.uid,
        clientId: inv.client_id || null,
        actorId: inv.uid,
        details: { expires_at: inv.expires_at },
      });
    });
  } catch (err) {
    await release(ref, holdId);
    throw err;
  }
  return { uid: inv.uid, email: inv.email, display_name: inv.display_name };
}

/** Gives a hold back, so the link is good again at once; if even that fails, the hold lapses by itself. */
async function release(ref: ReturnType<typeof paths.invitation>, holdId: string): Promise<void> {
  try {
    await db.runTransaction(async (tx) => {
      const snap = await tx.get(ref);
      if (snap.get('hold_id') === holdId && snap.get('status') === 'redeeming')
        tx.update(ref, { status: 'live', hold_id: null, held_until: null });
    });
  } catch (err) {
    log.warn('An invitation’s hold could not be given back; it lapses by itself', { error: errorText(err) });
  }
}
