// Front door of users/: users: accounts (provisionAccounts, the one place they are made), profiles, invitations, rosters.
// What other folders may use; nothing else of this folder is imported from outside.
export { provideLeaveClasses } from './classMemberships';
export type { StoredProfile } from './documents';
export { newProfile } from './profiles';
export { accountsOf, provisionAccounts } from './provisionAccounts';
export type { Plan } from './rosterAccounts';
export type { RosterRow, RowOutcome } from './rosterRows';
export { Me, rosterImportOptions } from './schemas';
export { readUser } from './service';
export { provideStandingAccommodations } from './standingAccommodations';
/** Loaded when called, not with this door: it is kept off the cold start. */
export const loadRoutes = () => import('./routes');
/** Loaded when called, not with this door: it is kept off the cold start. */
export const loadRosterAccounts = () => import('./rosterAccounts');
/** Loaded when called, not with this door: it is kept off the cold start. */
export const loadRosterRows = () => import('./rosterRows');
