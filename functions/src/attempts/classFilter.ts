import { findClassOwner } from '../classes';
import { paths } from '../firestore';
import { isDocumentId } from '../shared';

// Which organization holds a class named in a filter (?class_id= on the live
// view, the analytics and the results export).

/**
 * The organization holding the class, or null when none does. The caller's own organization is
 * asked first (one document read, the usual case); only a class not found there is looked for
 * across organizations, to tell another's (403) from none (404).
 */
export async function classOrganization(clientId: string, classId: string): Promise<string | null> {
  if (!isDocumentId(classId)) return null;
  if ((await paths.clientClass(clientId, classId).get()).exists) return clientId;
  return (await findClassOwner(classId)) ?? null;
}
