import type { DocumentData, DocumentReference } from 'firebase-admin/firestore';
import { db, paths } from '../firestore';
import { isDocumentId } from '../shared';
import { type PersonName, NO_NAME } from './personName';

/**
 * The names and emails of the people a page of records names: one batched read of
 * their profiles in the organization, bounded by the page (never a read per row
 * beyond it). With `superAdmins`, the uids not found there are looked for among the
 * Super Admins (who act in any organization) in a second batched read, only when some are missing.
 */
export async function namesOf(
  clientId: string | null,
  uids: Iterable<string | null | undefined>,
  { superAdmins = false }: { superAdmins?: boolean } = {},
): Promise<Map<string, PersonName>> {
  const wanted = [...new Set([...uids].filter((uid): uid is string => typeof uid === 'string' && isDocumentId(uid)))];
  const names = new Map<string, PersonName>();
  if (wanted.length === 0) return names;
  const read = async (refs: DocumentReference[]) => {
    const snaps = await db.getAll(...refs, { fieldMask: ['display_name', 'email'] });
    for (const snap of snaps) if (snap.exists) names.set(snap.id, nameOf(snap.data()));
  };
  if (clientId) await read(wanted.map((uid) => paths.clientUser(clientId, uid)));
  const missing = wanted.filter((uid) => !names.has(uid));
  if ((superAdmins || !clientId) && missing.length > 0) await read(missing.map((uid) => paths.superAdmin(uid)));
  return names;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const nameOf = (data: DocumentData | undefined): PersonName =>
  data ? { display_name: text(data.display_name), email: text(data.email) } : NO_NAME;
