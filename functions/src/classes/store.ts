import { FieldPath, FieldValue, type DocumentSnapshot, type Transaction } from 'firebase-admin/firestore';
import { addAudit, type AuditMeta } from '../audit';
import { assertClassMemberCandidate } from '../auth';
import { type ContentionRetry, db, fetchPage, paths, retryOnContention } from '../firestore';
import { ApiError, badRequest, conflict, isDocumentId, keyedGate, notFound, type PageRequest } from '../shared';
import type { StoredProfile } from '../users';
import { classMemberQuerySpec, classQuerySpec } from './classQuery';
import {
  MAX_CLASSES_PER_CLIENT,
  MAX_CLASSES_PER_STUDENT,
  MAX_MEMBERS_PER_CLASS,
  type StoredClass,
  type StoredClassCount,
  type StoredClassMember,
  type StoredClassName,
} from './documents';
import { classNameKey, normalizedClassName, type Class, type ClassChanges, type ClassMember } from './schemas';

// Classes and their members. Every change of a class's membership is one
// transaction that reads the class (its member_count), the member documents
// and the students' profiles, and writes them together with the audit record:
// the class's count, each member document and each profile's class_ids never
// disagree, and every bound is counted there, so racing requests cannot pass it.

/** The class document: the reply's fields plus the sort key of its name. */
type StoredClassDoc = StoredClass & { name_sort: string };

/** Who made a change, and from where: the audit record's actor and request. */
export interface ClassAudit {
  meta: AuditMeta;
  actorId: string | null;
}

// Fifty students added to one class at once all write its member_count: such a transaction loses to
// the others and is run again (each run wrote nothing), within a budget that still answers in time.
const CONTENTION: ContentionRetry = { retries: 8, budgetMs: 20_000 };

/** Membership changes of one class this instance runs at once (shared/keyedGate.ts). */
const oneClassAtATime = keyedGate(4);
const gated = <T>(clientId: string, classId: string, change: () => Promise<T>): Promise<T> =>
  oneClassAtATime(`${clientId}/${classId}`, () => retryOnContention(change, CONTENTION));

/** Members removed per transaction when a class is deleted: each reads its members' profiles. */
const CLEANUP_CHUNK = 100;

/** Tests named in the 409 of a class delete (the first ones found). */
const ASSIGNED_TESTS_SHOWN = 20;

const classNotFound = () => notFound('Class not found');
const duplicateName = (name: string) => conflict(`A class named "${name}" already exists in this organization`);

const toClass = (stored: StoredClassDoc): Class => ({
  id: stored.id,
  client_id: stored.client_id,
  name: stored.name,
  code: stored.code ?? null,
  member_count: stored.member_count ?? 0,
  created_at: stored.created_at,
  updated_at: stored.updated_at,
});

const toMember = ({ uid, email, display_name, added_at }: StoredClassMember): ClassMember => ({
  uid,
  email,
  display_name,
  added_at,
});

// ---------------------------------------------------------------- reading

/** The class of this client, or undefined when there is none by that id. */
export async function findClass(clientId: string, classId: string): Promise<Class | undefined> {
  if (!isDocumentId(clientId) || !isDocumentId(classId)) return undefined;
  const snap = await paths.clientClass(clientId, classId).get();
  return snap.exists ? toClass(snap.data() as StoredClassDoc) : undefined;
}

/** The organization that owns a class id, whichever it is: tells "another organization's" (403) from "none" (404). */
export async function findClassOwner(classId: string): Promise<string | undefined> {
  if (!isDocumentId(classId)) return undefined;
  const snap = await paths.allClasses().where('id', '==', classId).select('client_id').limit(1).get();
  return snap.empty ? undefined : (snap.docs[0].get('client_id') as string);
}

export async function listClasses(clientId: string, page: PageRequest) {
  const { docs, pagination } = await fetchPage(paths.clientClasses(clientId), classQuerySpec(), page);
  return { data: (docs as StoredClassDoc[]).map(toClass), pagination };
}

export async function listMembers(clientId: string, classId: string, page: PageRequest) {
  const { docs, pagination } = await fetchPage(paths.classMembers(clientId, classId), classMemberQuerySpec(), page);
  return { data: (docs as StoredClassMember[]).map(toMember), pagination };
}

/** Every member's uid (a class holds at most MAX_MEMBERS_PER_CLASS): one query, ids only. */
export async function memberUids(clientId: string, classId: string): Promise<string[]> {
  const snap = await paths.classMembers(clientId, classId).select().get();
  return snap.docs.map((d) => d.id);
}

// ---------------------------------------------------------------- the class itself

/**
 * Creates a class with its name guard, counting it against the organization's
 * bound in the same transaction. Answers the class ids whose members a delete
 * has not finished removing (see deleteClass), for the caller to finish.
 */
export async function createClass(cls: Class, audit: ClassAudit): Promise<{ pendingCleanups: string[] }> {
  const countRef = paths.clientClassCount(cls.client_id);
  const guardRef = paths.clientClassName(cls.client_id, classNameKey(cls.name));
  return db.runTransaction(async (tx) => {
    const [countSnap, guardSnap] = await tx.getAll(countRef, guardRef);
    if (guardSnap.exists) throw duplicateName(cls.name);
    const counter = countSnap.data() as StoredClassCount | undefined;
    const count = counter?.count ?? 0;
    if (count >= MAX_CLASSES_PER_CLIENT)
      throw conflict(`The organization holds ${count} classes, the most it may hold (${MAX_CLASSES_PER_CLIENT})`);
    tx.create(guardRef, { class_id: cls.id } satisfies StoredClassName);
    tx.create(paths.clientClass(cls.client_id, cls.id), {
      ...cls,
      name_sort: normalizedClassName(cls.name),
    } satisfies StoredClassDoc);
    tx.set(countRef, { count: count + 1 }, { merge: true });
    addAudit(tx, audit.meta, {
      type: 'class_created',
      userId: audit.actorId ?? '',
      clientId: cls.client_id,
      actorId: audit.actorId,
      details: { class_id: cls.id, name: cls.name, code: cls.code },
    });
    return { pendingCleanups: counter?.pending_cleanup ?? [] };
  });
}

/** Renames a class (its name guard moves with it) or changes its code. */
export async function updateClass(
  clientId: string,
  classId: string,
  changes: ClassChanges,
  now: string,
  audit: ClassAudit,
): Promise<Class> {
  if (!isDocumentId(classId)) throw classNotFound();
  return db.runTransaction(async (tx) => {
    const ref = paths.clientClass(clientId, classId);
    const snap = await tx.get(ref);
    if (!snap.exists) throw classNotFound();
    const current = snap.data() as StoredClassDoc;
    const name = changes.name ?? current.name;
    const code = changes.code === undefined ? (current.code ?? null) : changes.code;
    const oldKey = classNameKey(current.name);
    const newKey = classNameKey(name);
    if (newKey !== oldKey) {
      const taken = await tx.get(paths.clientClassName(clientId, newKey));
      if (taken.exists) throw duplicateName(name);
      tx.create(paths.clientClassName(clientId, newKey), { class_id: classId } satisfies StoredClassName);
      tx.delete(paths.clientClassName(clientId, oldKey));
    }
    const next: StoredClassDoc = { ...current, name, code, name_sort: normalizedClassName(name), updated_at: now };
    tx.update(ref, { name, code, name_sort: next.name_sort, updated_at: now });
    addAudit(tx, audit.meta, {
      type: 'class_updated',
      userId: audit.actorId ?? '',
      clientId,
      actorId: audit.actorId,
      details: { class_id: classId, from: { name: current.name, code: current.code ?? null }, to: { name, code } },
    });
    return toClass(next);
  });
}

/**
 * Deletes a class, unless a test is assigned to it (409 naming those tests:
 * a test must never be left assigned to a class no one is in). The test query
 * runs in the same transaction, and a test's assignment reads the class in
 * its own, so an assignment and the delete cannot both succeed.
 *
 * The class document, its name guard and its count go first, in that
 * transaction: from then on no member can be added (every membership change
 * reads the class). Its members are removed afterwards, a chunk per
 * transaction (the member documents and the id in each profile's class_ids),
 * and the class id stays listed in the organization's counter
 * (`pending_cleanup`) until they all are. Were that interrupted, the next
 * create or delete of a class in the organization finishes it; removing the
 * same members twice changes nothing, so running it again is safe.
 */
export async function deleteClass(clientId: string, classId: string, audit: ClassAudit): Promise<string[]> {
  if (!isDocumentId(classId)) throw classNotFound();
  const ref = paths.clientClass(clientId, classId);
  const countRef = paths.clientClassCount(clientId);
  return db.runTransaction(async (tx) => {
    const [snap, countSnap] = await tx.getAll(ref, countRef);
    if (!snap.exists) throw classNotFound();
    // The tests that would be left holding a class that is gone: those assigned to it, and those
    // with an override for its students (the same tests may be both; each is named once).
    const holding = (field: 'assigned_class_ids' | 'class_override_ids') =>
      tx.get(
        paths
          .clientTests(clientId)
          .where(field, 'array-contains', classId)
          .select('test_name')
          .limit(ASSIGNED_TESTS_SHOWN),
      );
    const [assigned, overriding] = await Promise.all([holding('assigned_class_ids'), holding('class_override_ids')]);
    const assignedIds = new Set(assigned.docs.map((d) => d.id));
    const details = [
      ...assigned.docs.map((d) => ({
        doc: d,
        path: 'assigned_class_ids',
        message: `Test ${d.id} is assigned to this class`,
      })),
      ...overriding.docs
        .filter((d) => !assignedIds.has(d.id))
        .map((d) => ({ doc: d, path: 'class_overrides', message: `Test ${d.id} holds an override for this class` })),
    ].slice(0, ASSIGNED_TESTS_SHOWN);
    if (details.length > 0) {
      throw new ApiError(
        'CONFLICT',
        'Tests are assigned to this class or hold an override for it: assign them elsewhere (or open them to the organization) and remove the overrides first',
        details.map(({ doc, path, message }) => ({
          path,
          message,
          test_id: doc.id,
          test_name: (doc.get('test_name') as string | undefined) ?? null,
        })),
      );
    }
    const current = snap.data() as StoredClassDoc;
    const counter = countSnap.data() as StoredClassCount | undefined;
    tx.delete(ref);
    tx.delete(paths.clientClassName(clientId, classNameKey(current.name)));
    tx.set(
      countRef,
      { count: Math.max(0, (counter?.count ?? 1) - 1), pending_cleanup: FieldValue.arrayUnion(classId) },
      { merge: true },
    );
    addAudit(tx, audit.meta, {
      type: 'class_deleted',
      userId: audit.actorId ?? '',
      clientId,
      actorId: audit.actorId,
      details: {
        class_id: classId,
        name: current.name,
        code: current.code ?? null,
        member_count: current.member_count,
      },
    });
    return [classId, ...(counter?.pending_cleanup ?? []).filter((id) => id !== classId)];
  });
}

/**
 * Removes the members of a deleted class: their documents, and the class id
 * from their profiles. Safe to run again, and beside another run of itself
 * (each chunk is a transaction over the documents it removes).
 */
export async function removeMembersOfDeletedClass(clientId: string, classId: string): Promise<void> {
  const members = paths.classMembers(clientId, classId);
  for (;;) {
    const removed = await db.runTransaction(async (tx) => {
      const chunk = await tx.get(members.orderBy(FieldPath.documentId()).limit(CLEANUP_CHUNK));
      if (chunk.empty) return 0;
      const profiles = await tx.getAll(...chunk.docs.map((d) => paths.clientUser(clientId, d.id)));
      chunk.docs.forEach((d) => tx.delete(d.ref));
      for (const profile of profiles)
        if (profile.exists) tx.update(profile.ref, { class_ids: FieldValue.arrayRemove(classId) });
      return chunk.size;
    });
    if (removed < CLEANUP_CHUNK) break;
  }
  await paths.clientClassCount(clientId).update({ pending_cleanup: FieldValue.arrayRemove(classId) });
}

// ---------------------------------------------------------------- members

/** One student to add: as the caller knows it, and its profile when the caller has just created its account. */
interface NewMember {
  uid: string;
  email: string;
  display_name: string;
  /** The profile of a just-created account, written in the same transaction (when none exists yet). */
  newProfile?: StoredProfile;
}

/** A uid with no profile in the class's organization: the caller decides whether that is 400 or 403. */
export class NoProfileHere extends Error {
  constructor(readonly uid: string) {
    super(`No profile for ${uid} in this organization`);
  }
}

interface Admitted {
  added: StoredClassMember[];
  already: StoredClassMember[];
  className: string;
}

/**
 * The shared core of every addition, inside the caller's transaction: reads
 * the class, the member documents and the profiles, checks who may join and
 * every bound, and (unless `dryRun`) writes the members, their profiles'
 * class_ids and the class's member_count. The caller adds its audit record.
 */
async function admitMembers(
  tx: Transaction,
  clientId: string,
  classId: string,
  members: readonly NewMember[],
  now: string,
  dryRun: boolean,
  onProblem: (uid: string, index: number, err: ApiError) => ApiError,
): Promise<Admitted> {
  const unique = [...new Map(members.map((m) => [m.uid, m])).values()];
  const classRef = paths.clientClass(clientId, classId);
  const memberRefs = unique.map((m) => paths.classMember(clientId, classId, m.uid));
  const profileRefs = unique.map((m) => paths.clientUser(clientId, m.uid));
  const [classSnap, ...rest] = await tx.getAll(classRef, ...memberRefs, ...profileRefs);
  if (!classSnap.exists) throw classNotFound();
  const cls = classSnap.data() as StoredClassDoc;
  const memberSnaps = rest.slice(0, unique.length);
  const profileSnaps: DocumentSnapshot[] = rest.slice(unique.length);

  const added: StoredClassMember[] = [];
  const already: StoredClassMember[] = [];
  const writes: Array<() => void> = [];
  unique.forEach((member, i) => {
    if (memberSnaps[i].exists) {
      already.push(memberSnaps[i].data() as StoredClassMember);
      return;
    }
    const existing = profileSnaps[i].exists ? (profileSnaps[i].data() as StoredProfile) : undefined;
    const profile = existing ?? member.newProfile;
    if (!profile) throw new NoProfileHere(member.uid);
    try {
      assertClassMemberCandidate(clientId, { role: profile.role, clientId: profile.client_id });
    } catch (err) {
      throw err instanceof ApiError ? onProblem(member.uid, i, err) : err;
    }
    const classIds = (profile.class_ids ?? []).filter((id) => id !== classId);
    if (classIds.length >= MAX_CLASSES_PER_STUDENT)
      throw conflict(
        `Student ${member.uid} is in ${classIds.length} classes already, the most one student may belong to (${MAX_CLASSES_PER_STUDENT})`,
      );
    const stored: StoredClassMember = {
      uid: member.uid,
      class_id: classId,
      client_id: clientId,
      email: profile.email ?? member.email,
      display_name: profile.display_name ?? member.display_name,
      added_at: now,
    };
    added.push(stored);
    writes.push(() => {
      tx.create(memberRefs[i], stored);
      if (existing) tx.update(profileRefs[i], { class_ids: [...classIds, classId] });
      else tx.create(profileRefs[i], { ...member.newProfile!, class_ids: [classId] } satisfies StoredProfile);
    });
  });
  const count = cls.member_count ?? 0;
  if (count + added.length > MAX_MEMBERS_PER_CLASS) {
    throw conflict(
      added.length === 1
        ? `The class holds ${count} students, the most one class may hold (${MAX_MEMBERS_PER_CLASS})`
        : `The class holds ${count} students; adding ${added.length} would pass the most one class may hold (${MAX_MEMBERS_PER_CLASS})`,
    );
  }
  if (!dryRun && added.length > 0) {
    writes.forEach((write) => write());
    tx.update(classRef, { member_count: count + added.length });
  }
  return { added, already, className: cls.name };
}

/**
 * Adds one student (already a student of the class's organization) to a
 * class; idempotent: a member answers as it stands, nothing written. Throws
 * NoProfileHere when the uid has no profile in the organization.
 */
export async function addMember(
  clientId: string,
  classId: string,
  uid: string,
  audit: ClassAudit,
): Promise<{ member: ClassMember; added: boolean }> {
  if (!isDocumentId(classId)) throw classNotFound();
  if (!isDocumentId(uid)) throw new NoProfileHere(uid);
  return gated(clientId, classId, () =>
    db.runTransaction(async (tx) => {
      const now = new Date().toISOString();
      const { added, already, className } = await admitMembers(
        tx,
        clientId,
        classId,
        [{ uid, email: '', display_name: '' }],
        now,
        false,
        (_uid, _i, err) => err,
      );
      if (added.length === 0) return { member: toMember(already[0]), added: false };
      addAudit(tx, audit.meta, {
        type: 'class_member_added',
        userId: uid,
        clientId,
        actorId: audit.actorId,
        details: { class_id: classId, class_name: className },
      });
      return { member: toMember(added[0]), added: true };
    }),
  );
}

/**
 * Adds many students to one class in ONE transaction (the roster import):
 * all of them or none. A member given `newProfile` (an account just created)
 * gets that profile in the same transaction. Each must be a student of the
 * class's organization (400 naming it otherwise); a class or a student that
 * would pass its bound is 409. With `dryRun` everything is checked and
 * nothing written. One audit record, `class_members_imported`, lists the uids added.
 */
export async function addMembers(
  clientId: string,
  classId: string,
  members: Array<{ uid: string; email: string; display_name: string; newProfile?: StoredProfile }>,
  meta: AuditMeta,
  opts: { dryRun?: boolean; actorId?: string | null } = {},
): Promise<{ added: string[]; alreadyMembers: string[] }> {
  if (!isDocumentId(classId)) throw classNotFound();
  const invalid = members.findIndex((m) => !isDocumentId(m.uid));
  if (invalid >= 0) throw memberProblem(members[invalid].uid, invalid, 'Not a user id');
  if (members.length === 0) return { added: [], alreadyMembers: [] };
  const actorId = opts.actorId ?? null;
  try {
    return await gated(clientId, classId, () =>
      db.runTransaction(async (tx) => {
        const { added, already, className } = await admitMembers(
          tx,
          clientId,
          classId,
          members,
          new Date().toISOString(),
          opts.dryRun === true,
          (uid, i, err) =>
            memberProblem(uid, i, err.code === 'FORBIDDEN' ? 'A user of another organization' : err.message),
        );
        if (!opts.dryRun && added.length > 0) {
          addAudit(tx, meta, {
            type: 'class_members_imported',
            userId: actorId ?? '',
            clientId,
            actorId,
            details: { class_id: classId, class_name: className, added: added.map((m) => m.uid) },
          });
        }
        return { added: added.map((m) => m.uid), alreadyMembers: already.map((m) => m.uid) };
      }),
    );
  } catch (err) {
    if (err instanceof NoProfileHere)
      throw memberProblem(
        err.uid,
        members.findIndex((m) => m.uid === err.uid),
        'Not a student of this organization',
      );
    throw err;
  }
}

const memberProblem = (uid: string, index: number, message: string) =>
  badRequest(`Member ${uid} cannot join the class: ${message}`, [{ path: `members.${index}.uid`, message, uid }]);

/** Removes a student from a class: its member document, the class's count and the id in its profile; 404 when it is not a member. */
export async function removeMember(clientId: string, classId: string, uid: string, audit: ClassAudit): Promise<void> {
  if (!isDocumentId(classId)) throw classNotFound();
  if (!isDocumentId(uid)) throw notFound('Not a member of this class');
  await gated(clientId, classId, () =>
    db.runTransaction(async (tx) => {
      const classRef = paths.clientClass(clientId, classId);
      const memberRef = paths.classMember(clientId, classId, uid);
      const profileRef = paths.clientUser(clientId, uid);
      const [classSnap, memberSnap, profileSnap] = await tx.getAll(classRef, memberRef, profileRef);
      if (!classSnap.exists) throw classNotFound();
      if (!memberSnap.exists) throw notFound('Not a member of this class');
      const cls = classSnap.data() as StoredClassDoc;
      tx.delete(memberRef);
      tx.update(classRef, { member_count: Math.max(0, (cls.member_count ?? 1) - 1) });
      // A deleted account's profile is gone with it: only its member document is left to remove.
      if (profileSnap.exists) {
        const classIds = ((profileSnap.data() as StoredProfile).class_ids ?? []).filter((id) => id !== classId);
        tx.update(profileRef, { class_ids: classIds });
      }
      addAudit(tx, audit.meta, {
        type: 'class_member_removed',
        userId: uid,
        clientId,
        actorId: audit.actorId,
        details: { class_id: classId, class_name: cls.name },
      });
    }),
  );
}

/**
 * Takes a student out of each of these classes (one removeMember each), skipping a class
 * that is gone or no longer holds it: a deleted account, or one that stops being a student,
 * must not stay counted in classes nor come back to them with a later role.
 */
export async function leaveClasses(
  clientId: string,
  uid: string,
  classIds: readonly string[],
  audit: ClassAudit,
): Promise<void> {
  for (const classId of new Set(classIds)) {
    try {
      await removeMember(clientId, classId, uid, audit);
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 'NOT_FOUND')) throw err;
    }
  }
}
