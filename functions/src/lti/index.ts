// Front door of lti/: LTI 1.3: platforms, login and launch, deep linking, grades (AGS) and rosters (NRPS).
// What other folders may use; nothing else of this folder is imported from outside.
export { syncLtiRosterOnWrite } from './roster/rosterTrigger';
/** Loaded when called, not with this door: it is kept off the cold start. */
export const loadGradesScoreChannel = () => import('./grades/scoreChannel');
/** Loaded when called, not with this door: it is kept off the cold start. */
export const loadRoutes = () => import('./routes');
