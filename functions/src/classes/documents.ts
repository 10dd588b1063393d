// Pure: the Firestore documents the classes feature owns (where they live: firestore/paths.ts),
// and the bounds that keep every class read and write small.

/** The most classes an organization holds. */
export const MAX_CLASSES_PER_CLIENT = 500;
/** The most students in one class (a year group sitting together in one hall fits). */
export const MAX_MEMBERS_PER_CLASS = 500;
/**
 * The most classes one student belongs to. A student's test list is one query whose
 * `array-contains-any` takes the organization's marker and the student's classes: Firestore
 * allows 30 values there, so this stays below 30.
 */
export const MAX_CLASSES_PER_STUDENT = 20;
/** The most classes one test is assigned to, and the most class overrides it holds. */
export const MAX_CLASSES_PER_TEST = 50;

/** clients/{clientId}/classes/{classId}. */
export interface StoredClass {
  id: string;
  client_id: string;
  name: string;
  /** A short code a school uses for the class ("9C"), or null. */
  code: string | null;
  member_count: number;
  created_at: string;
  updated_at: string;
}

/** clients/{clientId}/classes/{classId}/members/{uid}: one student in one class, with what a member list shows. */
export interface StoredClassMember {
  uid: string;
  class_id: string;
  client_id: string;
  email: string;
  display_name: string;
  added_at: string;
}

/** clients/{clientId}/class_names/{key}: the guard that makes a class's name unique in its organization. */
export interface StoredClassName {
  class_id: string;
}

/** clients/{clientId}/class_counts/classes: how many classes the organization holds. */
export interface StoredClassCount {
  count: number;
  /** Deleted classes whose members are still being removed (their documents, the id in each profile's class_ids). */
  pending_cleanup?: string[];
}
