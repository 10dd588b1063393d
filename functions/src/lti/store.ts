import { Timestamp, type DocumentSnapshot } from 'firebase-admin/firestore';
import { addAudit, type AuditMeta } from '../audit';
import { ALREADY_EXISTS, db, hasStatus, paths } from '../firestore';
import { conflict, isDocumentId, notFound } from '../shared';
import type { StoredClient } from '../clients';
import type { StoredTest } from '../exams';
import type { StoredProfile } from '../users';
import { contextKey, ltiUid, nonceKey, platformPairKey, userKey } from './claims';
import type {
  StoredLtiContext,
  StoredLtiDeepLinkSession,
  StoredLtiNonce,
  StoredLtiOutcome,
  StoredLtiPlatform,
  StoredLtiPlatformKey,
  StoredLtiState,
  StoredLtiUser,
} from './documents';
import type { LaunchDecision, LaunchReads } from './launchDecision';
import { type EDITABLE_PLATFORM_FIELDS, MAX_PLATFORMS_PER_CLIENT } from './schemas';

// Every LTI read and write. A launch that finds its user, course and test in
// place is one read of its state and one transaction (consumeLaunch); a first
// launch adds the account, the class and the assignment (service.ts).

// ---------------------------------------------------------------- registrations

export async function insertPlatform(platform: StoredLtiPlatform, pairKey: string, meta: AuditMeta, actorId: string) {
  const pairRef = paths.ltiPlatformKey(pairKey);
  await db.runTransaction(async (tx) => {
    const [pair, existing] = await Promise.all([
      tx.get(pairRef),
      tx.get(paths.clientLtiPlatforms(platform.client_id).select().limit(MAX_PLATFORMS_PER_CLIENT)),
    ]);
    if (pair.exists)
      throw conflict('This platform (issuer and client_id) is registered already, by this or another organization');
    if (existing.size >= MAX_PLATFORMS_PER_CLIENT)
      throw conflict(
        `The organization has ${existing.size} LTI platforms, the most it may register (${MAX_PLATFORMS_PER_CLIENT})`,
      );
    tx.create(paths.clientLtiPlatform(platform.client_id, platform.id), platform);
    tx.create(pairRef, {
      client_id: platform.client_id,
      platform_id: platform.id,
      issuer: platform.issuer,
      platform_client_id: platform.platform_client_id,
      created_at: platform.created_at,
    } satisfies StoredLtiPlatformKey);
    addAudit(tx, meta, {
      type: 'lti_platform_registered',
      userId: actorId,
      clientId: platform.client_id,
      actorId,
      details: { platform_id: platform.id, issuer: platform.issuer, client_id: platform.platform_client_id },
    });
  });
}

export async function listPlatforms(clientId: string): Promise<StoredLtiPlatform[]> {
  const snap = await paths.clientLtiPlatforms(clientId).limit(MAX_PLATFORMS_PER_CLIENT).get();
  return snap.docs
    .map((d) => d.data() as StoredLtiPlatform)
    .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
}

/** Deletes a registration and its (issuer, client_id) entry: launches from it stop at once. */
export async function deletePlatform(clientId: string, platformId: string, meta: AuditMeta, actorId: string) {
  if (!isDocumentId(platformId)) throw notFound('Platform not found');
  const ref = paths.clientLtiPlatform(clientId, platformId);
  await db.runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    if (!snap.exists) throw notFound('Platform not found');
    const platform = snap.data() as StoredLtiPlatform;
    tx.delete(ref);
    tx.delete(paths.ltiPlatformKey(pairKeyOf(platform)));
    addAudit(tx, meta, {
      type: 'lti_platform_deleted',
      userId: actorId,
      clientId,
      actorId,
      details: { platform_id: platformId, issuer: platform.issuer, client_id: platform.platform_client_id },
    });
  });
}

/**
 * Writes `changes` to a registration in one transaction with its audit record, and answers it as stored.
 * Its pair (issuer, client_id) is not among them: the key entry and launches under way are untouched.
 */
export async function updatePlatform(
  clientId: string,
  platformId: string,
  changes: Partial<Pick<StoredLtiPlatform, (typeof EDITABLE_PLATFORM_FIELDS)[number]>>,
  meta: AuditMeta,
  actorId: string,
): Promise<StoredLtiPlatform> {
  if (!isDocumentId(platformId)) throw notFound('Platform not found');
  const ref = paths.clientLtiPlatform(clientId, platformId);
  return db.runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    if (!snap.exists) throw notFound('Platform not found');
    const updated: StoredLtiPlatform = {
      ...(snap.data() as StoredLtiPlatform),
      ...changes,
      updated_at: new Date().toISOString(),
    };
    tx.set(ref, updated);
    addAudit(tx, meta, {
      type: 'lti_platform_updated',
      userId: actorId,
      clientId,
      actorId,
      details: {
        platform_id: platformId,
        issuer: updated.issuer,
        client_id: updated.platform_client_id,
        fields: Object.keys(changes).sort(),
      },
    });
    return updated;
  });
}

const pairKeyOf = (p: StoredLtiPlatform) => platformPairKey(p.issuer, p.platform_client_id);

// ---------------------------------------------------------------- login

/** The registration a login names: by (issuer, client_id), or by issuer alone when only one registration has it. */
export async function findPlatformForLogin(
  issuer: string,
  platformClientId: string | undefined,
  registration?: string,
): Promise<StoredLtiPlatform | 'ambiguous' | undefined> {
  let key: StoredLtiPlatformKey | undefined;
  if (registration !== undefined) {
    // The login URL's own registration: it must be this issuer's (and this client id's, when sent).
    if (!isDocumentId(registration)) return undefined;
    const snap = await paths.ltiPlatformKey(registration).get();
    key = snap.exists ? (snap.data() as StoredLtiPlatformKey) : undefined;
    if (
      key &&
      (key.issuer !== issuer || (platformClientId !== undefined && key.platform_client_id !== platformClientId))
    )
      key = undefined;
  } else if (platformClientId !== undefined) {
    const snap = await paths.ltiPlatformKey(platformPairKey(issuer, platformClientId)).get();
    key = snap.exists ? (snap.data() as StoredLtiPlatformKey) : undefined;
  } else {
    const snap = await db.collection('lti_platform_keys').where('issuer', '==', issuer).limit(2).get();
    if (snap.size > 1) return 'ambiguous';
    key = snap.empty ? undefined : (snap.docs[0].data() as StoredLtiPlatformKey);
  }
  if (!key) return undefined;
  const platform = await paths.clientLtiPlatform(key.client_id, key.platform_id).get();
  return platform.exists ? (platform.data() as StoredLtiPlatform) : undefined;
}

export const ttl = (ms: number) => Timestamp.fromMillis(ms);

export async function insertState(state: string, doc: StoredLtiState): Promise<void> {
  await paths.ltiState(state).create({ ...doc, expires_at: ttl(doc.expires_at_ms) });
}

// ---------------------------------------------------------------- launch

export async function findState(state: string): Promise<StoredLtiState | undefined> {
  if (!isDocumentId(state)) return undefined;
  const snap = await paths.ltiState(state).get();
  return snap.exists ? (snap.data() as StoredLtiState) : undefined;
}

/** What the launch's transaction found: everything a later launch needs, in one read. */
export interface LaunchFacts extends LaunchReads {
  uid: string;
}

/** Refusals found inside the transaction: it commits nothing when the launch is refused. */
export class LaunchRefused extends Error {
  constructor(readonly reason: 'state' | 'nonce' | 'platform') {
    super(reason);
  }
}

/**
 * The launch's one transaction: consumes the state (once), records the nonce (once), reads the
 * organization, the registration, the user's mapping and profile, the course's class and the test.
 * `decide` (launchDecision.ts decideLaunch) says, from what was read, the writes that complete a
 * launch already in place (the outcome, the course's roster URL); its decision is answered with the facts.
 */
export async function consumeLaunch<D extends LaunchWrites>(
  input: {
    state: string;
    clientId: string;
    platformId: string;
    issuer: string;
    sub: string;
    nonce: string;
    contextId: string | null;
    testId: string | null;
  },
  decide: (facts: LaunchFacts) => D,
): Promise<{ facts: LaunchFacts; decision: D }> {
  const { clientId, issuer } = input;
  const uid = ltiUid(clientId, issuer, input.sub);
  const now = Date.now();
  const refs = [
    paths.ltiState(input.state),
    paths.ltiNonce(nonceKey(issuer, input.nonce)),
    paths.client(clientId),
    paths.clientLtiPlatform(clientId, input.platformId),
    paths.clientLtiUser(clientId, userKey(issuer, input.sub)),
    paths.clientUser(clientId, uid),
    input.contextId ? paths.clientLtiContext(clientId, contextKey(issuer, input.contextId)) : null,
    input.testId && isDocumentId(input.testId) ? paths.clientTest(clientId, input.testId) : null,
  ];
  return db.runTransaction(async (tx) => {
    const present = refs.filter((r) => r !== null);
    const snaps = await tx.getAll(...present);
    const byPath = new Map(snaps.map((s) => [s.ref.path, s]));
    const at = (i: number): DocumentSnapshot | undefined => (refs[i] ? byPath.get(refs[i].path) : undefined);
    const data = <T>(i: number): T | undefined => (at(i)?.exists ? (at(i)!.data() as T) : undefined);
    const state = data<StoredLtiState>(0);
    if (!state || state.expires_at_ms < now || state.client_id !== clientId || state.platform_id !== input.platformId)
      throw new LaunchRefused('state');
    if (at(1)!.exists) throw new LaunchRefused('nonce');
    const platform = data<StoredLtiPlatform>(3);
    if (!platform) throw new LaunchRefused('platform');
    const facts: LaunchFacts = {
      client: data<StoredClient>(2),
      platform,
      uid,
      mapping: data<StoredLtiUser>(4),
      profile: data<StoredProfile>(5),
      context: data<StoredLtiContext>(6),
      test: data<StoredTest>(7),
    };
    tx.delete(refs[0]!);
    const nonceExpires = now + 24 * 3600_000;
    tx.create(refs[1]!, { expires_at_ms: nonceExpires, expires_at: ttl(nonceExpires) } satisfies StoredLtiNonce &
      object);
    const decision = decide(facts);
    if (decision.outcome)
      tx.set(paths.clientLtiOutcome(clientId, decision.outcome.testId, uid), decision.outcome.outcome);
    if (decision.membershipsUrl) tx.update(refs[6]!, { memberships_url: decision.membershipsUrl });
    return { facts, decision };
  });
}

/** What the launch's transaction writes beyond the state and the nonce. */
type LaunchWrites = Pick<LaunchDecision, 'membershipsUrl' | 'outcome'>;

/** The user's profile and its mapping, created together (the Auth account is made just before). */
export async function insertLtiUser(
  clientId: string,
  profile: StoredProfile,
  mapping: StoredLtiUser,
  meta: AuditMeta,
): Promise<StoredProfile> {
  const profileRef = paths.clientUser(clientId, profile.uid);
  return db.runTransaction(async (tx) => {
    const existing = await tx.get(profileRef);
    // A concurrent first launch of the same user made it: the same account.
    if (existing.exists) return existing.data() as StoredProfile;
    tx.create(profileRef, profile);
    tx.set(paths.clientLtiUser(clientId, userKey(mapping.issuer, mapping.sub)), mapping);
    addAudit(tx, meta, {
      type: 'user_created',
      userId: profile.uid,
      clientId,
      actorId: null,
      details: { role: profile.role, via: 'lti', platform_id: mapping.platform_id },
    });
    return profile;
  });
}

/** The course's mapping, made once: answers the one that stands (ours, or a concurrent launch's). */
export async function insertContext(
  clientId: string,
  key: string,
  context: StoredLtiContext,
): Promise<{ context: StoredLtiContext; created: boolean }> {
  const ref = paths.clientLtiContext(clientId, key);
  try {
    await ref.create(context);
    return { context, created: true };
  } catch (err) {
    if (!hasStatus(err, ALREADY_EXISTS)) throw err;
    return { context: (await ref.get()).data() as StoredLtiContext, created: false };
  }
}

export async function findContext(clientId: string, key: string): Promise<StoredLtiContext | undefined> {
  const snap = await paths.clientLtiContext(clientId, key).get();
  return snap.exists ? (snap.data() as StoredLtiContext) : undefined;
}

export async function setOutcome(clientId: string, testId: string, uid: string, outcome: StoredLtiOutcome) {
  await paths.clientLtiOutcome(clientId, testId, uid).set(outcome);
}

/** Which of these class names (their name guard keys) are taken in the organization: one round trip. */
export async function takenClassNameKeys(clientId: string, keys: string[]): Promise<Set<string>> {
  const snaps = await db.getAll(...keys.map((k) => paths.clientClassName(clientId, k)));
  return new Set(snaps.filter((s) => s.exists).map((s) => s.id));
}

// ---------------------------------------------------------------- deep linking

export async function insertDeepLink(sessionId: string, session: StoredLtiDeepLinkSession): Promise<void> {
  await paths.ltiDeepLink(sessionId).create({ ...session, expires_at: ttl(session.expires_at_ms) });
}

export async function findDeepLink(sessionId: string): Promise<StoredLtiDeepLinkSession | undefined> {
  if (!isDocumentId(sessionId)) return undefined;
  const snap = await paths.ltiDeepLink(sessionId).get();
  return snap.exists ? (snap.data() as StoredLtiDeepLinkSession) : undefined;
}

export async function findPlatform(clientId: string, platformId: string): Promise<StoredLtiPlatform | undefined> {
  const snap = await paths.clientLtiPlatform(clientId, platformId).get();
  return snap.exists ? (snap.data() as StoredLtiPlatform) : undefined;
}
