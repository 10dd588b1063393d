import type { User } from './schemas';

// Pure: the Firestore documents the users feature owns (where they live: firestore/paths.ts).

/** clients/{clientId}/users/{uid}, and super_admins/{uid} for a Super Admin: the reply's fields. */
export type StoredProfile = User;
