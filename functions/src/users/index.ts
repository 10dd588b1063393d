// Front door of users/: users: accounts (provisionAccounts, the one place they are made), profiles, invitations, rosters.
// What other folders may use; nothing else of this folder is imported from outside.
export { provideLeaveClasses } from './classMemberships';
export type { StoredProfile } from './documents';
export { newProfile } from './profiles';
export { accountsOf, provisionAccounts } from './provisionAccounts';
export { Me } from './schemas';
export { readUser } from './service';
/** Loaded when called, not with this door: it is kept off the cold start. */
export const loadRoutes = () => import('./routes');
