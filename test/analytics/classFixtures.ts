import { randomUUID } from 'node:crypto';
import { clientDoc } from '../exams/fixtures';

// Classes for the analytics tests, written straight into Firestore in the classes feature's shape.

/** A class written as the classes feature stores it. */
export async function writeClass(clientId: string, name = `Class ${randomUUID().slice(0, 6)}`): Promise<string> {
  const id = `k${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const now = new Date().toISOString();
  await clientDoc(clientId)
    .collection('classes')
    .doc(id)
    .set({ id, client_id: clientId, name, code: null, member_count: 0, created_at: now, updated_at: now });
  return id;
}
