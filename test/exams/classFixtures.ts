import { randomUUID } from 'node:crypto';
import { FieldValue } from 'firebase-admin/firestore';
import type { StoredClass, StoredClassMember } from '../../functions/src/classes/documents';
import { adminDb } from '../support/admin';
import { clientDoc } from './fixtures';

// Classes and their members written straight through the Admin SDK in the shapes
// classes/documents.ts declares (the class, the member, the profile's class_ids),
// so the tests of assignments depend on no classes endpoint.

export async function writeClass(clientId: string, name = `Class ${randomUUID().slice(0, 6)}`): Promise<StoredClass> {
  const now = new Date().toISOString();
  const cls: StoredClass = {
    id: randomUUID(),
    client_id: clientId,
    name,
    code: null,
    member_count: 0,
    created_at: now,
    updated_at: now,
  };
  await clientDoc(clientId).collection('classes').doc(cls.id).set(cls);
  return cls;
}

const profile = (clientId: string, uid: string) => clientDoc(clientId).collection('users').doc(uid);
const member = (clientId: string, classId: string, uid: string) =>
  clientDoc(clientId).collection('classes').doc(classId).collection('members').doc(uid);

/** Puts a student in a class: the member document, the class's count and the profile's class_ids together. */
export async function addMember(clientId: string, classId: string, student: { uid: string; email: string }) {
  const doc: StoredClassMember = {
    uid: student.uid,
    class_id: classId,
    client_id: clientId,
    email: student.email,
    display_name: 'Test student',
    added_at: new Date().toISOString(),
  };
  const batch = adminDb.batch();
  batch.set(member(clientId, classId, student.uid), doc);
  batch.update(clientDoc(clientId).collection('classes').doc(classId), { member_count: FieldValue.increment(1) });
  batch.update(profile(clientId, student.uid), { class_ids: FieldValue.arrayUnion(classId) });
  await batch.commit();
}

/** Takes a student out of a class, as the classes feature does. */
export async function removeMember(clientId: string, classId: string, uid: string) {
  const batch = adminDb.batch();
  batch.delete(member(clientId, classId, uid));
  batch.update(clientDoc(clientId).collection('classes').doc(classId), { member_count: FieldValue.increment(-1) });
  batch.update(profile(clientId, uid), { class_ids: FieldValue.arrayRemove(classId) });
  await batch.commit();
}
