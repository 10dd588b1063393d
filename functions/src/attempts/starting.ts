import { randomInt } from 'node:crypto';
import type { DocumentReference, DocumentSnapshot, Transaction } from 'firebase-admin/firestore';
import type { StoredClient } from '../clients';
import { keyRevisionOf, type StoredSeat, type StoredShareCode, type StoredTest } from '../exams';
import { type ContentionRetry, db, hasStatus, NOT_FOUND, paths, retryOnContention } from '../firestore';
import { newAttemptId, type FoundAttempt } from './attemptLookup';
import { addAudit, type AuditMeta } from '../audit';
import { closeInTransaction } from './closing';
import { drawFromPools } from './draw';
import { paperWith, requirePaper, requireVersion, type ShareCodeTarget } from './frozenReads';
import type { VersionForAttempt } from './rules';
import { accessCodeMatches, type Accommodation, type OverrideValues } from '../sittingRules';
import type { AttemptSlot, StoredAttempt } from './documents';
import { decideStart, type StartReads, type StartRequest } from './startDecision';
import { hashAttemptToken, newAttemptToken } from './tokens';
import type { SebRequest } from '../shared';

// Starting an attempt: one transaction reads the test, the (test, student)
// slot and, for a Guest, the share code and one seat shard together (one round
// trip) → max_attempts, resume, max_uses and "published" hold exactly under
// parallel starts.

export interface StartPlan {
  clientId: string;
  testId: string;
  studentId: string;
  /** Set for a Guest: the code it redeems (its seats are taken here). */
  guest: { target: ShareCodeTarget; name: string | null } | null;
  /** An administrator starts for a student: the student's profile must be a student's. */
  checkStudentProfile: boolean;
  /** A student starting for itself: the test must be open to its classes (policy: startChecksAssignment). */
  checkAssignment: boolean;
  /**
   * The access code the taker sent, checked when the test requires one. Null
   * when an administrator starts for a student: the code keeps strangers out of
   * the room, and the proctor is not one.
   */
  accessCode: string | undefined | null;
  /**
   * Refuses a start from outside the organization's networks when the test is
   * on site only (policy: assertOnSite), answered from memory: no round trip.
   */
  checkOnSite: (sitting: { onSiteOnly: boolean; clientId: string }) => Promise<void>;
  startedBy: string;
  /** The start's URL and SEB headers (null: exempt, an administrator starting for a student). */
  seb: SebRequest | undefined | null;
  /** Whom the attempt token goes to (kept with its hash): the caller. */
  tokenIssuedTo: NonNullable<StoredAttempt['token_issued_to']>;
  meta: AuditMeta;
  /**
   * Set when nothing before the start checked the organization (a Guest has no organization claim):
   * its document is read in the transaction's first round trip and handed here before anything is written.
   */
  checkOrganization?: (client: StoredClient | undefined) => void;
}

export interface StartOutcome {
  resumed: boolean;
  attemptId: string;
  startedAt: string;
  expiresAt: string;
  token: string;
  version: VersionForAttempt;
}

const hasRoom = (seat: DocumentSnapshot): boolean => {
  if (!seat.exists) return false;
  const { capacity, used } = seat.data() as StoredSeat;
  return capacity === null || used < capacity;
};

/** A seat with room: the shard drawn at random, else the others (read together, only when it is full). Reads only. */
async function findSeat(
  tx: Transaction,
  target: ShareCodeTarget,
  drawn: number,
  drawnSnap: DocumentSnapshot | undefined,
): Promise<DocumentSnapshot | undefined> {
  let seat: DocumentSnapshot | undefined = drawnSnap && hasRoom(drawnSnap) ? drawnSnap : undefined;
  if (!seat) {
    const others = Array.from({ length: target.seat_shards }, (_, k) => k).filter((k) => k !== drawn);
    const snaps = others.length > 0 ? await tx.getAll(...others.map((k) => paths.shareCodeSeat(target.code, k))) : [];
    seat = snaps.find(hasRoom);
  }
  return seat;
}

/**
 * Starts an attempt, or resumes the one in progress with a fresh token. One
 * transaction: the test (published?), the slot (count, in progress) and, for
 * a Guest, the share code and a seat shard are read in one round trip; the
 * frozen version comes from the instance's cache (one read the first time).
 */
export async function startAttempt(plan: StartPlan): Promise<StartOutcome> {
  try {
    return await retryOnContention(() => startInTransaction(plan, { readRunning: false }), START_CONTENTION);
  } catch (err) {
    // The slot names an attempt in progress whose document is gone (deleted in the
    // console), so resuming it failed: read it this time, and start afresh without it.
    if (!hasStatus(err, NOT_FOUND)) throw err;
    return retryOnContention(() => startInTransaction(plan, { readRunning: true }), START_CONTENTION);
  }
}

/**
 * A start over an overdue attempt meets that attempt's own submit and the closer on its document: the
 * transaction that lost (it wrote nothing) is run again within the request's budget, as a save's is.
 */
const START_CONTENTION: ContentionRetry = { retries: 8, budgetMs: 20_000 };

/** The start's transaction: reads, then decideStart (startDecision.ts) asks for what more it needs, then its writes. */
async function startInTransaction(plan: StartPlan, { readRunning }: { readRunning: boolean }): Promise<StartOutcome> {
  const testRef = paths.clientTest(plan.clientId, plan.testId);
  const slotRef = paths.attemptSlot(plan.clientId, plan.testId, plan.studentId);
  const drawn = plan.guest ? randomInt(Math.max(1, plan.guest.target.seat_shards)) : 0;
  // One round trip reads all that decides the start; optional documents only when they matter. A Guest is
  // nobody's student, so it has no profile (no classes), override or accommodation to read.
  const named: Record<string, DocumentReference | undefined> = {
    organization: plan.checkOrganization ? paths.client(plan.clientId) : undefined,
    profile: plan.guest ? undefined : paths.clientUser(plan.clientId, plan.studentId),
    override: plan.guest ? undefined : paths.testOverride(plan.clientId, plan.testId, plan.studentId),
    accommodation: plan.guest ? undefined : paths.accommodation(plan.clientId, plan.studentId),
    shareCode: plan.guest ? paths.shareCode(plan.guest.target.code) : undefined,
    drawnSeat: plan.guest ? paths.shareCodeSeat(plan.guest.target.code, drawn) : undefined,
  };
  const wanted = Object.entries(named).filter((e): e is [string, DocumentReference] => e[1] !== undefined);
  return db.runTransaction(async (tx) => {
    // Waiting on nothing else while holding the reads: a class redeeming one code at once contends for its seats.
    const [testSnap, slotSnap, ...snaps] = await tx.getAll(testRef, slotRef, ...wanted.map(([, ref]) => ref));
    const read = Object.fromEntries(wanted.map(([name], i) => [name, snaps[i]])) as Record<
      string,
      DocumentSnapshot | undefined
    >;
    if (plan.checkOrganization)
      plan.checkOrganization(read.organization?.exists ? (read.organization.data() as StoredClient) : undefined);
    const nowMs = Date.now();
    const token = newAttemptToken();
    const request: StartRequest = {
      clientId: plan.clientId,
      testId: plan.testId,
      studentId: plan.studentId,
      guest: plan.guest ? { code: plan.guest.target.code, name: plan.guest.name } : null,
      checkStudentProfile: plan.checkStudentProfile,
      checkAssignment: plan.checkAssignment,
      accessCode: plan.accessCode,
      startedBy: plan.startedBy,
      tokenIssuedTo: plan.tokenIssuedTo,
      seb: plan.seb,
      readRunning,
      attemptId: newAttemptId(plan.clientId),
      tokenHash: hashAttemptToken(token),
    };
    const existing = <T>(snap: DocumentSnapshot | undefined): T | undefined =>
      snap?.exists ? (snap.data() as T) : undefined;
    const reads: StartReads = {
      test: existing<StoredTest>(testSnap),
      slot: existing<AttemptSlot>(slotSnap),
      profile: read.profile?.exists
        ? { role: read.profile.get('role'), class_ids: read.profile.get('class_ids') }
        : undefined,
      override: existing<OverrideValues>(read.override),
      accommodation: existing<Accommodation>(read.accommodation),
      shareCode: existing<StoredShareCode>(read.shareCode),
    };
    const runningRef = (attemptId: string) => paths.clientAttempt(plan.clientId, attemptId);
    let runningSnap: DocumentSnapshot | undefined;
    let seat: DocumentSnapshot | undefined;
    let decision = decideStart(reads, request, nowMs);
    // Each fact is read only when the decision gets to it, in its order.
    while ('need' in decision) {
      const test = reads.test!;
      switch (decision.need) {
        case 'onSite':
          reads.onSite = {
            refusal: await plan
              .checkOnSite({ onSiteOnly: (test.on_site_only ?? 0) === 1, clientId: plan.clientId })
              .then(
                () => null,
                (err: unknown) => err,
              ),
          };
          break;
        case 'running':
          runningSnap = await tx.get(runningRef(reads.slot!.in_progress!.attempt_id));
          reads.running = existing<StoredAttempt>(runningSnap) ?? null;
          break;
        case 'accessCode':
          reads.accessCodeMatches = await accessCodeMatches(test, plan.accessCode!);
          break;
        case 'paper': {
          const version = await requireVersion(
            plan.clientId,
            plan.testId,
            test.version!,
            keyRevisionOf(test, test.version!),
          );
          // The draw: this attempt's own questions from each pool, preferring those the student has not seen.
          const draw = drawFromPools(version.pools ?? [], reads.slot?.seen ?? []);
          reads.paper = { version, draw, paper: await paperWith(version, plan.clientId, draw.drawn) };
          break;
        }
        case 'seat':
          // Every read comes before the first write (a Firestore transaction's rule).
          seat = await findSeat(tx, plan.guest!.target, drawn, read.drawnSeat);
          reads.seat = seat ? { used: seat.get('used') as number } : null;
          break;
      }
      decision = decideStart(reads, request, nowMs);
    }
    if ('refusal' in decision) throw decision.refusal;
    if ('resume' in decision) {
      // Resume: the same attempt, a new token; the old one stops working.
      const { resume } = decision;
      tx.update(runningRef(resume.attemptId), resume.update);
      for (const event of resume.audits) addAudit(tx, plan.meta, event);
      return {
        resumed: true,
        attemptId: resume.attemptId,
        startedAt: resume.startedAt,
        expiresAt: resume.expiresAt,
        token,
        version: await requirePaper(resume.paperOf),
      };
    }
    const { start } = decision;
    // (The slot is rewritten below, so the close leaves it alone.)
    if (start.closeOverdue) {
      const overdue: FoundAttempt = { ref: runningSnap!.ref, attempt: reads.running! };
      await closeInTransaction(tx, overdue, {
        nowMs,
        automatic: true,
        meta: plan.meta,
        actorId: null,
        freeSlot: false,
      });
    }
    if (seat && start.seatUsed !== null) tx.update(seat.ref, { used: start.seatUsed });
    tx.create(paths.clientAttempt(plan.clientId, start.attempt.id), start.attempt);
    tx.set(slotRef, start.slot);
    for (const event of start.audits) addAudit(tx, plan.meta, event);
    return {
      resumed: false,
      attemptId: start.attempt.id,
      startedAt: start.attempt.started_at,
      expiresAt: start.attempt.expires_at,
      token,
      version: start.paper,
    };
  });
}

/** Whether a test with this id exists in another organization than `clientId` (403 rather than 404). */
export async function testExistsElsewhere(testId: string): Promise<StoredTest | undefined> {
  const snap = await paths.allTests().where('id', '==', testId).limit(1).get();
  return snap.empty ? undefined : (snap.docs[0].data() as StoredTest);
}
