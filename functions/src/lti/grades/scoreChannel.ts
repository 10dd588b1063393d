import { createHash } from 'node:crypto';
import type { DocumentReference, DocumentSnapshot } from 'firebase-admin/firestore';
import type { StoredAttempt } from '../../attempts';
import { db, paths } from '../../firestore';
import type { DeliveryChannel, DeliveryTarget, PlannedDelivery, StoredDelivery, StoredEvent } from '../../outbox';
import { readCache } from '../../shared';
import type { StoredLtiOutcome, StoredLtiPlatform } from '../documents';
import { excerpt, platformRequest } from '../platformHttp';
import { forgetAccessToken, platformAccessToken } from '../platformToken';
import { AGS_SCORE_MEDIA_TYPE, AGS_SCORE_SCOPE, agsScore, hasScore, scoresUrl } from './agsScore';
import { scoreTargets } from './scorePlan';

// The outbox channel that posts scores to LTI platforms' line items: an event
// about attempts launched from a platform (their test and student have an
// lti_outcomes document) makes one delivery per line item and user; a try buys
// (or reuses) a token and posts the score.

const SCORE_EVENTS = new Set<StoredEvent['type']>(['attempt.submitted', 'attempt.graded', 'attempt.regraded']);
/** Documents per getAll: a regrade page's attempts fit in one. */
const READ_CHUNK = 300;

/** Registrations change rarely; a delivery to a deleted one is seen as such within this long. */
const platforms = readCache<StoredLtiPlatform | undefined>({ max: 500, ttlMs: 30_000 });

/** A score delivery's target, as stored: a user's score on a platform's line item. */
interface ScoreTarget extends DeliveryTarget {
  kind: 'lti_score';
  platform_id: string;
  lineitem: string;
  user_sub: string;
}

const isScoreTarget = (target: DeliveryTarget): target is ScoreTarget =>
  target.kind === 'lti_score' &&
  typeof target.platform_id === 'string' &&
  typeof target.lineitem === 'string' &&
  typeof target.user_sub === 'string';

/** The delivery id's part for a target: the same line item and user of one event always give the same one. */
const keyOf = (target: ScoreTarget) =>
  `lti-${createHash('sha256').update(`${target.platform_id}\n${target.lineitem}\n${target.user_sub}`).digest('base64url').slice(0, 32)}`;

/** The documents at `refs`, read in parallel chunks (one round trip). */
async function readAll(refs: DocumentReference[]): Promise<DocumentSnapshot[]> {
  if (refs.length === 0) return [];
  const chunks: DocumentReference[][] = [];
  for (let i = 0; i < refs.length; i += READ_CHUNK) chunks.push(refs.slice(i, i + READ_CHUNK));
  return (await Promise.all(chunks.map((chunk) => db.getAll(...chunk)))).flat();
}

async function plan(event: StoredEvent): Promise<PlannedDelivery[]> {
  if (!SCORE_EVENTS.has(event.type) || event.attempts.length === 0) return [];
  const clientId = event.client_id;
  // Everything is read under the event's own organization: another's outcomes are never seen.
  const attempts = (await readAll(event.attempts.map((a) => paths.clientAttempt(clientId, a.id))))
    .filter((s) => s.exists)
    .map((s) => s.data() as StoredAttempt)
    .filter((a) => a.client_id === clientId && !a.guest && hasScore(a));
  if (attempts.length === 0) return [];
  const outcomeSnaps = await readAll(attempts.map((a) => paths.clientLtiOutcome(clientId, a.test_id, a.student_id)));
  const linked = attempts.flatMap((attempt, i) =>
    outcomeSnaps[i].exists ? [{ attempt, outcome: outcomeSnaps[i].data() as StoredLtiOutcome }] : [],
  );
  return scoreTargets(linked).map(({ attempt, outcome }) => {
    const target: ScoreTarget = {
      kind: 'lti_score',
      platform_id: outcome.platform_id,
      lineitem: outcome.lineitem,
      user_sub: outcome.user_sub,
    };
    return {
      target,
      payload: JSON.stringify(agsScore(attempt, outcome.user_sub, event.timestamp)),
      key: keyOf(target),
    };
  });
}

async function send(delivery: StoredDelivery) {
  const started = Date.now();
  const at = new Date(started).toISOString();
  const outcome = (code: number | null, error: string | null, extra: { gone?: boolean } = {}) => ({
    at,
    code,
    error,
    ms: Date.now() - started,
    ...extra,
  });
  const { target } = delivery;
  if (!isScoreTarget(target)) return outcome(null, `Not a score delivery (${target.kind})`, { gone: true });
  // Our own Firestore failing throws from here, and the engine tries again later.
  const platform = await platforms.get(`${delivery.client_id}/${target.platform_id}`, async () => {
    const snap = await paths.clientLtiPlatform(delivery.client_id, target.platform_id).get();
    return snap.exists ? (snap.data() as StoredLtiPlatform) : undefined;
  });
  if (!platform) return outcome(null, 'The LTI platform registration was deleted', { gone: true });

  const token = await platformAccessToken(platform, [AGS_SCORE_SCOPE]);
  if ('failure' in token) return outcome(null, token.failure);

  let url: string;
  try {
    url = scoresUrl(target.lineitem);
  } catch {
    return outcome(null, 'The line item is not a URL', { gone: true });
  }
  const reply = await platformRequest(url, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token.token}`, 'Content-Type': AGS_SCORE_MEDIA_TYPE },
    body: delivery.payload,
  });
  if (reply.status === null) return outcome(null, reply.error);
  if (reply.status >= 200 && reply.status <= 299) return outcome(reply.status, null);
  // A refused token (revoked, the platform's keys changed): the next try buys a new one.
  if (reply.status === 401) forgetAccessToken(platform, [AGS_SCORE_SCOPE]);
  return outcome(reply.status, `The line item answered ${reply.status}${reply.body ? `: ${excerpt(reply.body)}` : ''}`);
}

/** The `lti_score` channel for the outbox's engine (provideDeliveryChannels in app.ts). */
export const ltiScoreChannel: DeliveryChannel = { plan, send };

/** Test hook: forgets the cached registrations, as a fresh instance would. */
export const forgetCachedPlatforms = (): void => platforms.clear();
