// Front door of classes/: classes of students: their members and roster imports.
// What other folders may use; nothing else of this folder is imported from outside.
export { MAX_CLASSES_PER_TEST, MAX_MEMBERS_PER_CLASS } from './documents';
export type { StoredClass } from './documents';
export { Class, classNameKey } from './schemas';
export { addMember, addMembers, createClass, deleteClass, findClassOwner, leaveClasses } from './store';
/** Loaded when called, not with this door: it is kept off the cold start. */
export const loadRosterRoutes = () => import('./rosterRoutes');
/** Loaded when called, not with this door: it is kept off the cold start. */
export const loadRoutes = () => import('./routes');
