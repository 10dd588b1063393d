import type { User } from './schemas';
import type { SearchKeys } from './searchKeys';

// Pure: the Firestore documents the users feature owns (where they live: firestore/paths.ts).

/**
 * clients/{clientId}/users/{uid}, and super_admins/{uid} for a Super Admin: the reply's fields,
 * and for a student the classes it belongs to (written with the class's member document, in
 * the same transaction; absent = none). Bounded by MAX_CLASSES_PER_STUDENT.
 * `email_lower` and `name_lower` (searchKeys.ts) are written with every profile write; a
 * profile written before they existed lacks them until scripts/backfill-user-search.mjs runs.
 */
export type StoredProfile = User & Partial<SearchKeys> & { class_ids?: string[] };
