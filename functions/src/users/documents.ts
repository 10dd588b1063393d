import type { User } from './schemas';

// Pure: the Firestore documents the users feature owns (where they live: firestore/paths.ts).

/**
 * clients/{clientId}/users/{uid}, and super_admins/{uid} for a Super Admin: the reply's fields,
 * and for a student the classes it belongs to (written with the class's member document, in
 * the same transaction; absent = none). Bounded by MAX_CLASSES_PER_STUDENT.
 */
export type StoredProfile = User & { class_ids?: string[] };
